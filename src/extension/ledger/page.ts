import type { LedgerStore, SubmissionRecord } from '../../core/ledger';

// What the Submissions tree shows: the newest `shown` records, read backwards from the end of the ledger
// (Ledger.recent) so the cost follows what is shown, not the length of the history.

export interface SubmissionsPage {
  /** Newest first, at most `shown`. */
  records: SubmissionRecord[];
  /** Whether the ledger holds older records than these. */
  older: boolean;
}

export async function newestSubmissions(ledger: Pick<LedgerStore, 'recent'>, shown: number): Promise<SubmissionsPage> {
  // One more than shown says whether there are older ones, without counting them.
  const records = await ledger.recent(shown + 1);
  return { records: records.slice(0, shown), older: records.length > shown };
}
