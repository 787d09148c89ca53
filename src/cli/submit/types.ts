import type { PathTemplates } from '../../core/gateway';
import type { SigningCredentials } from '../../core/oauth';
import type { SubmitTarget } from '../../core/submit/submitBatch';
import type { LocalGatewayUse } from '../../local-gateway';
import { ourWords, said, typed, type Said } from '../../core/output';

// What `paygate submit`'s steps share: the options as parsed, where a run of parts stands, the CLI's
// target (with its credentials and local gateway) and how a send is named.

export interface SubmitOptions {
  env?: string;
  baseUrl?: string;
  endpointId?: string;
  consumerKey?: string;
  rsaKey?: string;
  format: 'text' | 'json';
  yes?: true;
  /** true: send whatever the ledger says; a name: that one file of several (a run of parts). */
  allowResend?: true | string;
  /** Send rows whose card and schedule were sent to the target under another client-orderid. */
  allowSamePayer?: true;
  state?: string;
  ledger?: string;
  config?: string;
}

/** Where a run of several files (parts) stands: what was skipped, and the production question's answer. */
export interface PartsRun {
  skipped: number;
  sent: number;
  confirmed?: boolean;
}

/** What the CLI resolves before a send: the core's target with its credentials and its local gateway. */
export interface CliTarget extends SubmitTarget {
  paths: PathTemplates;
  credentials: SigningCredentials;
  timeoutMs: number;
  local?: LocalGatewayUse;
  release: () => Promise<void>;
}

export const whatIsSent = (name: string, rows: number, t: CliTarget): Said =>
  said`${typed.text(name)} (${typed.count(rows)} ${ourWords(rows === 1 ? 'row' : 'rows')}) to ${typed.text(t.environment.name)}, endpoint ${typed.text(t.environment.endpointId)}`;

/** A usage problem found inside the guarded flow (it ends the command with exit 2, nothing sent). */
export class UsageError extends Error {}
