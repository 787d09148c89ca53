import { batchContentHash, legacyContentHashes } from '../csv/canonical';
import type { SubmissionRecord } from '../ledger/records';
import { readBatch } from '../rules/batch';
import type { BatchRowInput } from './types';

// Which batches a reconciliation reads, the same in every face: a batch file's rows with their lines, and
// the ledger's accepted submissions to one environment (the files are read by the face).

/** A batch text's rows as reconciliation sees them, each with its 1-based line. */
export function batchRows(name: string, text: string): BatchRowInput[] {
  const batch = readBatch(text);
  return batch.rows.map((row) => ({ file: name, line: batch.csv.index.positionAt(row.record.start).line + 1, values: row.values() }));
}

/** Accepted submissions to `environment`, one per file and content: a batch sent twice is one batch. */
export function acceptedSubmissions(records: readonly SubmissionRecord[], environment: string): SubmissionRecord[] {
  const seen = new Set<string>();
  return records.filter((r) => {
    if (r.outcome !== 'accepted' || r.environment !== environment) return false;
    const key = `${r.file}\0${r.contentHash}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/**
 * Whether a file's text is still the content the ledger says was sent: its content hash (canonical.ts),
 * or for a record written before the canonical form, a hash that version made of this text.
 */
export function stillAsSent(text: string, record: Pick<SubmissionRecord, 'contentHash'>): boolean {
  return batchContentHash(text) === record.contentHash || legacyContentHashes(text).includes(record.contentHash);
}
