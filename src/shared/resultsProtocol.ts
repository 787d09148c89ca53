// The one message protocol between the extension host (src/extension/results) and the results page (webview-ui).
// Both sides import this file, so it must stay free of `vscode` and of Node APIs. Messages crossing the
// boundary are checked by the guards below: the page is treated as untrusted by the host and vice versa.
import { isRec, isRows, isStr, isStringArray, optNum, optStr } from './guards';
import { isSubmissionView, type SubmissionView } from './submissionView';

import { isReportInfo, type ReportInfo } from './reportInfo';
import { isPeriod, type Period } from '../core/periods';
import { isSaid, type Said } from '../core/output/said';

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

// ---------- reconciliation ----------

/** The first column of a reconciliation's table: one status per batch row (or `unmatched`), pinned and coloured. */
export const RECONCILE_STATUS_COLUMN = 'reconciliation';
/** The column whose value the page sends back in `reveal` to show that row's batch line and report lines. */
export const RECONCILE_KEY_COLUMN = 'batch line';

/**
 * A reconciliation's cell: a value the host masked, or several values laid out as a `Said` (their types
 * carried as data, src/core/output/said.ts), which the page checks value by value where it shows them
 * (src/shared/cardData.ts `laidRows`), never read whole: a date beside an amount is two values.
 */
export type ReconcileCell = string | Said;

/** A reconciliation shown in the table (docs/reconcile.md): the host masks card numbers before sending. */
export interface ReconciliationView {
  /** Laid out by the page value by value (`Reconciliation: ` and the report's name), as `note`. */
  title: Said;
  window: { from: string; to: string };
  /** Where each charge's approved/declined came from, in a sentence (the report's column a value). */
  note: Said;
  /** Count per status (and `unmatched`), most serious first. */
  summary: [string, number][];
  columns: string[];
  rows: ReconcileCell[][];
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
  /** The title as the page laid it out. */
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
  /** `title` (as in csvStart): our words and the file's or report's name, laid out by the page value by value. */
  | { type: 'table'; title: Said; columns: string[]; rows: string[][]; source: TableSource; info?: ReportInfo }
  /** A CSV the page parses itself; the text follows in `csvChunk` messages so no single message is huge. */
  | { type: 'csvStart'; title: Said; delimiter?: string; totalBytes?: number; source: TableSource; info?: ReportInfo }
  /**
   * UTF-8 bytes, cut anywhere (even inside a character). Bytes, not text: the editor hands an ArrayBuffer
   * to the page without copying it, where text is serialised and copied at every step, and the page passes
   * the bytes on to its parse worker the same way.
   */
  | { type: 'csvChunk'; bytes: Uint8Array }
  | { type: 'csvEnd' }
  /** Why the file could not be read: the page lays it out after its own words (`Could not read the file: `). */
  | { type: 'csvFailed'; message: Said }
  | { type: 'submission'; view: SubmissionView }
  | { type: 'reconciliation'; view: ReconciliationView }
  /** How an export ended, laid out by the page value by value (a row count, the file's path). */
  | { type: 'exportDone'; ok: boolean; message: Said }
  /** The saved views of the report's template (or of the templates beside the file shown). */
  | { type: 'views'; views: SavedView[] };

// ---------- page -> host ----------

export type ExportFormat = 'csv' | 'json';

export type PageToHost =
  | { type: 'ready'; version: number; restored: boolean }
  | { type: 'export'; format: ExportFormat; columns: string[]; rows: string[][]; suggestedName: string }
  /** `rows`: several rows (a selection of the grouped summary's), tab-separated, a line each. */
  | { type: 'copy'; text: string; what: 'cell' | 'row' | 'rows' }
  | { type: 'log'; level: 'info' | 'warn' | 'error'; message: string }
  /** Reconcile the report on this page with batches (the page's "Reconcile…" button). */
  | { type: 'reconcile' }
  /** Show a reconciliation row's batch line and report lines; `key` is its RECONCILE_KEY_COLUMN value. */
  | { type: 'reveal'; key: string }
  /** The grouped summary's chart as a PNG (a data: URL of the canvas). */
  | { type: 'exportImage'; dataUrl: string; suggestedName: string };

// ---------- guards ----------

const optInfo = (v: unknown): boolean => v === undefined || isReportInfo(v);

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

export function isReconciliationView(v: unknown): v is ReconciliationView {
  return (
    isRec(v) &&
    isSaid(v.title) &&
    isRec(v.window) &&
    isStr(v.window.from) &&
    isStr(v.window.to) &&
    isSaid(v.note) &&
    Array.isArray(v.summary) &&
    v.summary.every((e) => Array.isArray(e) && e.length === 2 && isStr(e[0]) && typeof e[1] === 'number') &&
    isStringArray(v.columns) &&
    Array.isArray(v.rows) &&
    v.rows.every((row) => Array.isArray(row) && row.every((c) => isStr(c) || isSaid(c)))
  );
}

export function isHostToPage(v: unknown): v is HostToPage {
  if (!isRec(v)) return false;
  switch (v.type) {
    case 'table':
      return isSaid(v.title) && isStringArray(v.columns) && isRows(v.rows) && isSource(v.source) && optInfo(v.info);
    case 'csvStart':
      return isSaid(v.title) && optStr(v.delimiter) && optNum(v.totalBytes) && isSource(v.source) && optInfo(v.info);
    case 'csvChunk':
      return v.bytes instanceof Uint8Array;
    case 'csvEnd':
      return true;
    case 'csvFailed':
      return isSaid(v.message);
    case 'submission':
      return isSubmissionView(v.view);
    case 'reconciliation':
      return isReconciliationView(v.view);
    case 'exportDone':
      return typeof v.ok === 'boolean' && isSaid(v.message);
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
      return isStr(v.text) && (v.what === 'cell' || v.what === 'row' || v.what === 'rows');
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
