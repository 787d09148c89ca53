import { batchContentHash, legacyContentHashes } from '../csv/canonical';
import { parseGatewayDate, todayLocal, type CalendarDate } from '../dates';
import type { SubmissionRecord } from '../ledger/records';
import { readBatch, type Batch, type BatchRow } from '../rules/batch';
import { SCHEDULE_COLUMNS } from '../schedule/schedule';
import type { BatchRowInput } from './types';

// Which batches a reconciliation reads, the same in every face: a batch file's rows with their lines, and
// the ledger's accepted submissions to one environment (the files are read by the face). A local
// environment is one local gateway: submissions the ledger says went to another local gateway (another
// state directory: other payments, another clock) are no part of its report.

/** A batch text's rows as reconciliation sees them, each with its 1-based line (and the day it was sent). */
export function batchRows(name: string, text: string, sentOn?: CalendarDate): BatchRowInput[] {
  return readSentBatch(name, text, sentOn).rows;
}

/**
 * The columns reconciliation reads of a batch row: its order id, its kind, its currency and its schedule.
 * Only these are kept: a row's every value (29 columns, in a dictionary-mode object past a dozen) was most
 * of a large reconciliation's memory.
 */
export const RECONCILED_COLUMNS: readonly string[] = ['client-orderid', 'rp_card_type', 'currency', ...SCHEDULE_COLUMNS];

function reconciledValues(row: BatchRow): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of RECONCILED_COLUMNS) {
    const v = row.value(name);
    if (v !== undefined) out[name] = v;
  }
  return out;
}

/** The rows, the content hash the ledger knows the batch by (its canonical text's SHA-256) and the batch as read. */
export function readSentBatch(
  name: string,
  text: string,
  sentOn?: CalendarDate,
): { rows: BatchRowInput[]; contentHash: string; batch: Batch } {
  const batch = readBatch(text);
  const rows = batch.rows.map((row): BatchRowInput => ({
    file: name,
    line: batch.csv.index.positionAt(row.record.start).line + 1,
    values: reconciledValues(row),
    ...(sentOn ? { sentOn } : {}),
  }));
  return { rows, contentHash: batchContentHash(text), batch };
}

/**
 * The day a submission's rows without start-date started: the gateway's own date when it received them. A
 * local gateway's is in the record (its simulated date); for a gateway that says none, the send's date.
 */
export function sentOnOf(r: Pick<SubmissionRecord, 'time' | 'localGateway'>): CalendarDate {
  const local = r.localGateway?.today === undefined ? undefined : parseGatewayDate(r.localGateway.today);
  return local ?? todayLocal(new Date(r.time));
}

/** Whether a record went to another local gateway than the one of `localStateDir` (records that name none may not have). */
export function toOtherLocalGateway(r: Pick<SubmissionRecord, 'localGateway'>, localStateDir: string | undefined): boolean {
  return localStateDir !== undefined && r.localGateway !== undefined && r.localGateway.stateDir !== localStateDir;
}

export interface LedgerSelection {
  /** Accepted submissions to the environment (and its local gateway), one per file and content. */
  records: SubmissionRecord[];
  /** Accepted submissions to `local` that went to another local gateway: not in this one's report. */
  elsewhere: SubmissionRecord[];
}

/**
 * Accepted submissions to `environment`, one per file and content (a batch sent twice is one batch). With
 * `localStateDir` (the environment is the local gateway of that state directory) those the ledger says went
 * to another local gateway are set apart.
 */
export function acceptedSubmissions(records: readonly SubmissionRecord[], environment: string, localStateDir?: string): LedgerSelection {
  const seen = new Set<string>();
  const out: LedgerSelection = { records: [], elsewhere: [] };
  for (const r of records) {
    if (r.outcome !== 'accepted' || r.environment !== environment) continue;
    if (toOtherLocalGateway(r, localStateDir)) {
      out.elsewhere.push(r);
      continue;
    }
    const key = `${r.file}\0${r.contentHash}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.records.push(r);
  }
  return out;
}

/**
 * The newest accepted send of this content to `environment` (and its local gateway) among `records` (the
 * ledger's records of that content, newest first): when a named batch file was sent, its rows without
 * start-date started on that send's day.
 */
export function acceptedSendOf(
  records: readonly SubmissionRecord[],
  contentHash: string,
  environment: string,
  localStateDir?: string,
): SubmissionRecord | undefined {
  return records.find(
    (r) =>
      r.contentHash === contentHash && r.outcome === 'accepted' && r.environment === environment && !toOtherLocalGateway(r, localStateDir),
  );
}

/**
 * Whether a file's text is still the content the ledger says was sent: its content hash (canonical.ts),
 * or for a record written before the canonical form, a hash that version made of this text.
 */
export function stillAsSent(text: string, record: Pick<SubmissionRecord, 'contentHash'>, contentHash = batchContentHash(text)): boolean {
  return contentHash === record.contentHash || legacyContentHashes(text).includes(record.contentHash);
}
