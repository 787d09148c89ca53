// The page's door to the gateway's periods (src/core/periods.ts): the forecast's bucket switch and the
// table's Group by read the one list.
export { PERIODS } from '../core/periods';
