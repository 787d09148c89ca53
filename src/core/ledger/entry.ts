import { createRecurringPaymentsUrl, type Environment, type PathTemplates } from '../gateway/environments';
import type { PreparedSubmission } from '../gateway/prepare';
import type { LedgerFace, LocalGatewayRef, NewSubmission } from './records';

// The ledger entry of a create, built in one place for every face (the caller passes what the core may
// not read itself: its process id and host name).

export interface EntrySource {
  face: LedgerFace;
  pid: number;
  host: string;
  environment: Environment;
  /** The environment's name as the person chose it (the editor's active one). */
  environmentName?: string;
  paths?: PathTemplates;
  /** The file as a path, or a URI for documents that are not files. */
  file: string;
  prepared: Pick<PreparedSubmission, 'rowCount' | 'contentHash'>;
  signatureMethod: string;
  /** The local gateway it goes to, when the environment is one. */
  localGateway?: LocalGatewayRef;
}

export function submissionEntry(s: EntrySource): NewSubmission {
  return {
    face: s.face,
    pid: s.pid,
    host: s.host,
    environment: s.environmentName ?? s.environment.name,
    production: s.environment.production,
    endpointId: s.environment.endpointId,
    endpoint: createRecurringPaymentsUrl(s.environment, s.paths),
    file: s.file,
    rowCount: s.prepared.rowCount,
    contentHash: s.prepared.contentHash,
    signatureMethod: s.signatureMethod,
    ...(s.localGateway ? { localGateway: { ...s.localGateway } } : {}),
  };
}
