// The one message protocol between the extension host (src/extension/results) and the results page (webview-ui).
// Both sides import this file, so it must stay free of `vscode` and of Node APIs. Messages crossing the
// boundary are checked by the guards below: the page is treated as untrusted by the host and vice versa.
import { isRec, isStr, optNum, optStr } from './guards';

import { isReportInfo, type ReportInfo } from './reportInfo';
import { isTransportKind, isUnknownKind, type RecordedUnknownKind, type TransportKind } from '../core/gateway/outcomeKinds';
import { recordedFacts, type HeadlineFacts, type PageOutcomeName } from '../core/gateway/outcomes';
import { isPeriod, type Period } from '../core/periods';

export const PROTOCOL_VERSION = 1;
export { VIEW_TYPE } from './viewTypes';

/** Where the rows on the page came from, so a reloaded panel knows how to get them back. */
export type TableSource =
  | { kind: 'file'; uri: string }
  /** Rows held only in memory (a gateway answer); the page keeps small ones in its own state. */
  | {
      kind: 'inline';
      /** The details of one record (a callback), one row per property: not a report, so nothing to reconcile. */
      details?: true;
    };

// ---------- submission outcome ----------

/** Which secret or setting the user should look at when the gateway refused the signature. */
export type CredentialToCheck = 'consumer-key' | 'consumer-secret' | 'rsa-private-key' | 'endpoint-id' | 'environment';
const CREDENTIALS: readonly CredentialToCheck[] = ['consumer-key', 'consumer-secret', 'rsa-private-key', 'endpoint-id', 'environment'];

/**
 * One outcome as the page shows it: the core's outcome name (its headline, colour and "may exist" come
 * from the core's outcome table, src/core/gateway/outcomes.ts) and what the host read of the answer,
 * masked. Which fields are present depends on the answer, not on a list of outcomes kept here.
 */
export interface SubmissionOutcomeView extends HeadlineFacts {
  /** The answer's own words, or what the host says of it (masked). */
  message?: string;
  /** Why the fate is unknown (unknown) or why nothing was sent (transport-error). */
  kind?: RecordedUnknownKind | TransportKind;
  /** The gateway's error code, and a server error's error ID. */
  code?: string;
  errorId?: string;
  /** A refused signature: which operation, and what to check. */
  operation?: 'create' | 'report';
  check?: CredentialToCheck[];
}

/** The answer's per-row columns of a submission's table: shown first and pinned, so no one scrolls to them. */
export const OUTCOME_COLUMNS = ['recurring-payment-id', 'status', 'serial-number'] as const;

/**
 * What the panel shows for one Submit. `columns`/`rows` are the submitted rows as the gateway saw them,
 * with the answer's fields (recurring-payment-id, status, serial-number) appended as columns. The host
 * masks card numbers (first 6 / last 4) and drops cvv2 again before sending, whatever the caller passed.
 */
export interface SubmissionView {
  title: string;
  outcome: SubmissionOutcomeView;
  /** Name of the submitted file, environment and time, for the banner's second line. */
  file?: string;
  environment?: string;
  submittedAt?: string;
  /** Answer fields that belong to the whole request (e.g. serial-number), shown in the banner. */
  fields?: Record<string, string>;
  columns: string[];
  rows: string[][];
}

// ---------- reconciliation ----------

/** The first column of a reconciliation's table: one status per batch row (or `unmatched`), pinned and coloured. */
export const RECONCILE_STATUS_COLUMN = 'reconciliation';
/** The column whose value the page sends back in `reveal` to show that row's batch line and report lines. */
export const RECONCILE_KEY_COLUMN = 'batch line';

/** A reconciliation shown in the table (docs/reconcile.md): the host masks card numbers before sending. */
export interface ReconciliationView {
  title: string;
  window: { from: string; to: string };
  /** Where each charge's approved/declined came from, in a sentence. */
  note: string;
  /** Count per status (and `unmatched`), most serious first. */
  summary: [string, number][];
  columns: string[];
  rows: string[][];
}

// ---------- queries: the filter box, Group by, saved views ----------

/** A saved view of a report template (`views` in *.report.json), as the table's Views list offers it. */
export interface SavedView {
  name: string;
  description?: string;
  where?: string;
  groupBy?: string[];
  by?: Period;
  count?: boolean;
  sum?: string[];
  min?: string[];
  max?: string[];
  avg?: string[];
  currency?: string | null;
  /** The template's file name. */
  template: string;
}

/** The table's query as the user left it: the expression, the group columns and period, the aggregates. */
export interface QueryState {
  where: string;
  groupBy: string[];
  by?: Period;
  /** The amount column the aggregates read. */
  amount?: string;
  aggregates: ('sum' | 'min' | 'max' | 'avg')[];
}

// ---------- page state kept by vscode.setState (and handed to the serializer on reload) ----------

export interface ViewState {
  sorting: { column: number; desc: boolean } | null;
  filters: Record<number, string>;
  search: string;
  widths: Record<number, number>;
  scrollTop: number;
  /** Data columns pinned to the start, in order (absent in state saved before pinning existed). */
  pinned?: number[];
  /** The filter expression and Group by (absent before queries existed). */
  query?: QueryState;
}

export interface PersistedState {
  v: typeof PROTOCOL_VERSION;
  title: string;
  source: TableSource;
  /** Present only when small enough to keep in webview state (see INLINE_STATE_LIMIT). */
  table?: { columns: string[]; rows: string[][] };
  submission?: SubmissionView;
  reconciliation?: ReconciliationView;
  /** A report's banner facts (absent for a submission or a plain CSV file). */
  info?: ReportInfo;
  view?: ViewState;
}

/** Characters of cell text a page keeps in its own state; bigger in-memory tables are not restored. */
export const INLINE_STATE_LIMIT = 2_000_000;

// ---------- host -> page ----------

export type HostToPage =
  | { type: 'table'; title: string; columns: string[]; rows: string[][]; source: TableSource; info?: ReportInfo }
  /** A CSV the page parses itself; the text follows in `csvChunk` messages so no single message is huge. */
  | { type: 'csvStart'; title: string; delimiter?: string; totalBytes?: number; source: TableSource; info?: ReportInfo }
  /**
   * UTF-8 bytes, cut anywhere (even inside a character). Bytes, not text: the editor hands an ArrayBuffer
   * to the page without copying it, where text is serialised and copied at every step, and the page passes
   * the bytes on to its parse worker the same way.
   */
  | { type: 'csvChunk'; bytes: Uint8Array }
  | { type: 'csvEnd' }
  | { type: 'csvFailed'; message: string }
  | { type: 'submission'; view: SubmissionView }
  | { type: 'reconciliation'; view: ReconciliationView }
  | { type: 'exportDone'; ok: boolean; message: string }
  /** The saved views of the report's template (or of the templates beside the file shown). */
  | { type: 'views'; views: SavedView[] };

// ---------- page -> host ----------

export type ExportFormat = 'csv' | 'json';

export type PageToHost =
  | { type: 'ready'; version: number; restored: boolean }
  | { type: 'export'; format: ExportFormat; columns: string[]; rows: string[][]; suggestedName: string }
  | { type: 'copy'; text: string; what: 'cell' | 'row' }
  | { type: 'log'; level: 'info' | 'warn' | 'error'; message: string }
  /** Reconcile the report on this page with batches (the page's "Reconcile…" button). */
  | { type: 'reconcile' }
  /** Show a reconciliation row's batch line and report lines; `key` is its RECONCILE_KEY_COLUMN value. */
  | { type: 'reveal'; key: string }
  /** The grouped summary's chart as a PNG (a data: URL of the canvas). */
  | { type: 'exportImage'; dataUrl: string; suggestedName: string };

// ---------- guards ----------

const optInfo = (v: unknown): boolean => v === undefined || isReportInfo(v);
export const isStringArray = (v: unknown): v is string[] => Array.isArray(v) && v.every(isStr);
/** Checks every row: the cost is linear, which is fine next to the structured clone that delivered it. */
export const isRows = (v: unknown): v is string[][] => Array.isArray(v) && v.every(isStringArray);

const optStrings = (v: unknown) => v === undefined || isStringArray(v);
const optPeriod = (v: unknown) => v === undefined || isPeriod(v);

export function isSavedView(v: unknown): v is SavedView {
  return (
    isRec(v) &&
    isStr(v.name) &&
    isStr(v.template) &&
    optStr(v.description) &&
    optStr(v.where) &&
    optStrings(v.groupBy) &&
    optPeriod(v.by) &&
    (v.count === undefined || typeof v.count === 'boolean') &&
    optStrings(v.sum) &&
    optStrings(v.min) &&
    optStrings(v.max) &&
    optStrings(v.avg) &&
    (v.currency === undefined || v.currency === null || isStr(v.currency))
  );
}

function isSource(v: unknown): v is TableSource {
  if (!isRec(v)) return false;
  if (v.kind === 'file') return isStr(v.uri);
  return v.kind === 'inline' && (v.details === undefined || v.details === true);
}

const isPageOutcome = (v: unknown): v is PageOutcomeName => typeof v === 'string' && v !== 'cancelled' && recordedFacts(v) !== undefined;
const isKind = (v: unknown): boolean => v === undefined || v === 'interrupted' || isUnknownKind(v) || isTransportKind(v);
const isChecks = (v: unknown): boolean =>
  v === undefined || (isStringArray(v) && v.every((c) => CREDENTIALS.includes(c as CredentialToCheck)));

function isOutcome(v: unknown): v is SubmissionOutcomeView {
  return (
    isRec(v) &&
    isPageOutcome(v.outcome) &&
    optNum(v.status) &&
    optStr(v.paymentStatus) &&
    optStr(v.contentType) &&
    optStr(v.message) &&
    isKind(v.kind) &&
    optStr(v.code) &&
    optStr(v.errorId) &&
    (v.operation === undefined || v.operation === 'create' || v.operation === 'report') &&
    isChecks(v.check)
  );
}

export function isSubmissionView(v: unknown): v is SubmissionView {
  return (
    isRec(v) &&
    isStr(v.title) &&
    isOutcome(v.outcome) &&
    optStr(v.file) &&
    optStr(v.environment) &&
    optStr(v.submittedAt) &&
    (v.fields === undefined || (isRec(v.fields) && Object.values(v.fields).every(isStr))) &&
    isStringArray(v.columns) &&
    isRows(v.rows)
  );
}

export function isReconciliationView(v: unknown): v is ReconciliationView {
  return (
    isRec(v) &&
    isStr(v.title) &&
    isRec(v.window) &&
    isStr(v.window.from) &&
    isStr(v.window.to) &&
    isStr(v.note) &&
    Array.isArray(v.summary) &&
    v.summary.every((e) => Array.isArray(e) && e.length === 2 && isStr(e[0]) && typeof e[1] === 'number') &&
    isStringArray(v.columns) &&
    isRows(v.rows)
  );
}

export function isHostToPage(v: unknown): v is HostToPage {
  if (!isRec(v)) return false;
  switch (v.type) {
    case 'table':
      return isStr(v.title) && isStringArray(v.columns) && isRows(v.rows) && isSource(v.source) && optInfo(v.info);
    case 'csvStart':
      return isStr(v.title) && optStr(v.delimiter) && optNum(v.totalBytes) && isSource(v.source) && optInfo(v.info);
    case 'csvChunk':
      return v.bytes instanceof Uint8Array;
    case 'csvEnd':
      return true;
    case 'csvFailed':
      return isStr(v.message);
    case 'submission':
      return isSubmissionView(v.view);
    case 'reconciliation':
      return isReconciliationView(v.view);
    case 'exportDone':
      return typeof v.ok === 'boolean' && isStr(v.message);
    case 'views':
      return Array.isArray(v.views) && v.views.every(isSavedView);
    default:
      return false;
  }
}

export function isPageToHost(v: unknown): v is PageToHost {
  if (!isRec(v)) return false;
  switch (v.type) {
    case 'ready':
      return typeof v.version === 'number' && typeof v.restored === 'boolean';
    case 'export':
      return (v.format === 'csv' || v.format === 'json') && isStringArray(v.columns) && isRows(v.rows) && isStr(v.suggestedName);
    case 'copy':
      return isStr(v.text) && (v.what === 'cell' || v.what === 'row');
    case 'log':
      return (v.level === 'info' || v.level === 'warn' || v.level === 'error') && isStr(v.message);
    case 'reconcile':
      return true;
    case 'reveal':
      return isStr(v.key);
    case 'exportImage':
      return isStr(v.dataUrl) && v.dataUrl.startsWith('data:image/png;base64,') && isStr(v.suggestedName);
    default:
      return false;
  }
}

/** State from a reloaded panel comes from disk: accept it only if it still has the shape we wrote. */
export function isPersistedState(v: unknown): v is PersistedState {
  if (!isRec(v) || v.v !== PROTOCOL_VERSION || !isStr(v.title) || !isSource(v.source)) return false;
  if (v.table !== undefined && !(isRec(v.table) && isStringArray(v.table.columns) && isRows(v.table.rows))) return false;
  if (v.submission !== undefined && !isSubmissionView(v.submission)) return false;
  if (v.reconciliation !== undefined && !isReconciliationView(v.reconciliation)) return false;
  return optInfo(v.info);
}
