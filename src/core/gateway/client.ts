import { percentEncode, signRequest, type SignatureDetails, type SigningCredentials } from '../oauth';
import { withCrlfRecords } from '../csv/write';
import { createRecurringPaymentsUrl, customReportUrl, DEFAULT_PATHS, type Environment, type PathTemplates } from './environments';
import { interpretCreateAnswer, interpretReportAnswer, type GatewayOutcome, type HttpAnswer } from './outcome';
import type { ReportTemplate } from './reportTemplate';
import { postOnce } from './transport';

export const DEFAULT_TIMEOUT_MS = 60_000;

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
  timeoutMs?: number;
  signal?: AbortSignal;
  /** Fixed for reproducible debug output and tests; fresh per request otherwise. */
  timestamp?: string;
  nonce?: string;
}

/** The create payload: the file's text with CRLF record separators, UTF-8 without BOM, Base64. */
export function createPayload(csvText: string): string {
  return Buffer.from(withCrlfRecords(csvText), 'utf8').toString('base64');
}

/**
 * Create request: one form field `payload`, signed with the form parameter in the base string and no realm
 * (the create sample sends none). The body encodes exactly the value that was signed.
 */
export function prepareCreateRequest(o: Omit<CommonOptions, 'timeoutMs' | 'signal'> & { csvText: string }): PreparedRequest {
  const url = createRecurringPaymentsUrl(o.environment, o.paths ?? DEFAULT_PATHS);
  const payload = createPayload(o.csvText);
  const signature = signRequest({ method: 'POST', url, form: [['payload', payload]], timestamp: o.timestamp, nonce: o.nonce }, o.credentials);
  return {
    method: 'POST',
    url,
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', Authorization: signature.authorization, Accept: '*/*' },
    body: `payload=${percentEncode(payload)}`,
    signature,
  };
}

/** Report request: the template as a JSON body (never part of the signature), `realm=""` as in the report sample. */
export function prepareReportRequest(o: Omit<CommonOptions, 'timeoutMs' | 'signal'> & { template: ReportTemplate }): PreparedRequest {
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

/** The template as sent: `$schema` is editor metadata for the file, not part of the gateway's body. */
export function reportBody(template: ReportTemplate): string {
  const { $schema: _editorOnly, ...body } = template as ReportTemplate & { $schema?: unknown };
  return JSON.stringify(body);
}

async function send(request: PreparedRequest, o: CommonOptions, interpret: (a: HttpAnswer) => GatewayOutcome): Promise<GatewayOutcome> {
  const sent = await postOnce(request, { timeoutMs: o.timeoutMs ?? DEFAULT_TIMEOUT_MS, signal: o.signal });
  return sent.ok ? interpret(sent.answer) : sent.error;
}

/**
 * POSTs a batch once (never retried: a repeated create would create the payments twice). Answers and
 * network failures come back as GatewayOutcome; an unreadable RSA key throws SigningKeyError before anything
 * is sent, so callers check keys first with checkSigningCredentials.
 */
export async function createRecurringPayments(o: CommonOptions & { csvText: string }): Promise<GatewayOutcome> {
  return send(prepareCreateRequest(o), o, interpretCreateAnswer);
}

export async function runCustomReport(o: CommonOptions & { template: ReportTemplate }): Promise<GatewayOutcome> {
  return send(prepareReportRequest(o), o, (a) =>
    interpretReportAnswer(a, { delimiter: o.template.reportCsvDelimiter, encoding: o.template.reportEncode }),
  );
}
