// The core's outcome table, for the results page: headlines, colours and reasons come from the one table.
export { pageHeadline, TRANSPORT_REASON, UNKNOWN_REASON, type Tone } from '../core/gateway/outcomes';
import { RECORDED_OUTCOMES, type PageOutcomeName, type RecordedFacts } from '../core/gateway/outcomes';

export const outcomeFacts = (name: PageOutcomeName): RecordedFacts => RECORDED_OUTCOMES[name];
