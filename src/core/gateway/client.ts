import { percentEncode, signRequest, type SignatureDetails, type SigningCredentials } from '../oauth';
import { createRecurringPaymentsUrl, customReportUrl, DEFAULT_PATHS, type Environment, type PathTemplates } from './environments';
import type { GatewayOutcome } from './outcome';
import { interpretCreateAnswer } from './createAnswer';
import { interpretReportAnswer } from './reportAnswer';
import type { ReportTemplate } from './reportTemplate';
import { MiB, postOnce, type PostResult } from './transport';

export const DEFAULT_TIMEOUT_MS = 60_000;
/** A create answer is a few fields; anything near this size is not one. */
export const CREATE_ANSWER_LIMIT = 1 * MiB;
/** Reports can be large; the CLI's --max-answer-bytes raises it. */
export const DEFAULT_REPORT_ANSWER_LIMIT = 256 * MiB;

/** A request ready to send: what the debug view shows and what the client posts. */
export interface PreparedRequest {
  method: 'POST';
  url: string;
  headers: Record<string, string>;
  body: string;
  signature: SignatureDetails;
}

interface CommonOptions {
  environment: Environment;
  paths?: PathTemplates;
  credentials: SigningCredentials;
  /** The whole exchange: connecting, writing, and reading every byte of the answer. */
  timeoutMs?: number;
  signal?: AbortSignal;
  /** Answers longer than this are cut off (create: CREATE_ANSWER_LIMIT, report: DEFAULT_REPORT_ANSWER_LIMIT). */
  maxAnswerBytes?: number;
  /** Fixed for reproducible debug output and tests; fresh per request otherwise. */
  timestamp?: string;
  nonce?: string;
  /** Told the bytes of the request sent so far, of about how many (transport.ts). */
  onSent?: (sent: number, total: number) => void;
}

/** What a create sends: the Base64 payload from prepareSubmission (the lint gate, the canonical text, no BOM). */
export type CreateContent = { payload: string };

/**
 * Create request: one form field `payload`, signed with the form parameter in the base string and no realm
 * (the create sample sends none). The body encodes exactly the value that was signed.
 */
export function prepareCreateRequest(o: Omit<CommonOptions, 'timeoutMs' | 'signal'> & CreateContent): PreparedRequest {
  const url = createRecurringPaymentsUrl(o.environment, o.paths ?? DEFAULT_PATHS);
  const payload = o.payload;
  const signature = signRequest(
    { method: 'POST', url, form: [['payload', payload]], timestamp: o.timestamp, nonce: o.nonce },
    o.credentials,
  );
  return {
    method: 'POST',
    url,
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', Authorization: signature.authorization, Accept: '*/*' },
    body: `payload=${percentEncode(payload)}`,
    signature,
  };
}

/** Report request: the template as a JSON body (never part of the signature), `realm=""` as in the report sample. */
export function prepareReportRequest(
  o: Omit<CommonOptions, 'timeoutMs' | 'signal' | 'maxAnswerBytes'> & { template: ReportTemplate },
): PreparedRequest {
  const url = customReportUrl(o.environment, o.paths ?? DEFAULT_PATHS);
  const signature = signRequest({ method: 'POST', url, realm: '', timestamp: o.timestamp, nonce: o.nonce }, o.credentials);
  return {
    method: 'POST',
    url,
    headers: { 'Content-Type': 'application/json', Authorization: signature.authorization, Accept: 'text/csv, application/pdf, */*' },
    body: reportBody(o.template),
    signature,
  };
}

/** The template as sent: `$schema` is editor metadata and `views` the toolkit's saved queries, neither part of the gateway's body. */
export function reportBody(template: ReportTemplate): string {
  const { $schema: _editorOnly, views: _toolkitOnly, ...body } = template as ReportTemplate & { $schema?: unknown };
  return JSON.stringify(body);
}

function post(request: PreparedRequest, o: CommonOptions, defaultLimit: number): Promise<PostResult> {
  return postOnce(request, {
    timeoutMs: o.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    signal: o.signal,
    maxAnswerBytes: o.maxAnswerBytes ?? defaultLimit,
    ...(o.onSent ? { onSent: o.onSent } : {}),
  });
}

/** The words every face uses for a create whose fate is unknown. */
export function unknownOutcomeAdvice(environment: string): string {
  return `The gateway may have created the payments. Before sending this file again, check in ${environment}'s merchant portal or with its support (or run a transactions report) whether they exist; sending again may charge the cards twice.`;
}

/**
 * POSTs a batch once (never retried: a repeated create would create the payments twice). Answers and
 * network failures come back as GatewayOutcome: a failure before the connection opened is a transport
 * error (nothing was sent), one after it is `unknown` (the payments may exist). An unreadable RSA key
 * throws SigningKeyError before anything is sent, so callers check keys first with checkSigningCredentials.
 */
export async function createRecurringPayments(o: CommonOptions & CreateContent): Promise<GatewayOutcome> {
  const sent = await post(prepareCreateRequest(o), o, CREATE_ANSWER_LIMIT);
  if (sent.ok) {
    const outcome = interpretCreateAnswer(sent.answer);
    return outcome.outcome === 'unknown'
      ? { ...outcome, message: `${outcome.message}. ${unknownOutcomeAdvice(o.environment.name)}` }
      : outcome;
  }
  if (!sent.sent) return sent.error;
  return {
    outcome: 'unknown',
    kind: sent.kind,
    message: `${sent.message}. ${unknownOutcomeAdvice(o.environment.name)}`,
    ...(sent.status !== undefined ? { status: sent.status } : {}),
  };
}

/** Runs a report. A report changes nothing, so a failure after sending is a plain transport error. */
export async function runCustomReport(o: CommonOptions & { template: ReportTemplate }): Promise<GatewayOutcome> {
  const sent = await post(prepareReportRequest(o), o, DEFAULT_REPORT_ANSWER_LIMIT);
  if (sent.ok) return interpretReportAnswer(sent.answer, { delimiter: o.template.reportCsvDelimiter, encoding: o.template.reportEncode });
  if (!sent.sent) return sent.error;
  return { outcome: 'transport-error', kind: sent.kind === 'timeout' ? 'timeout' : 'other', message: sent.message };
}
