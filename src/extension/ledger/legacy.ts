import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import type { Ledger, SubmissionRecord } from '../../core/ledger';

// The editor kept its history in {globalStorage}/submissions.json before the shared ledger. Its records
// are appended to the ledger once (as sent, with their outcome) and the file renamed, never deleted.
// No `vscode` import, so it is unit-tested under plain Node.

export const LEGACY_FILE = 'submissions.json';

type LegacyRecord = Omit<SubmissionRecord, 'seq' | 'face' | 'pid' | 'host' | 'endpointId'>;

/** The endpoint id from a create URL (…/create-recurring-payments/{id}/), or the URL itself. */
function endpointIdOf(endpoint: string): string {
  const m = /\/create-recurring-payments\/([^/?#]+)/.exec(endpoint);
  return m ? decodeURIComponent(m[1]) : endpoint;
}

export async function importLegacyLedger(storageDir: string, ledger: Ledger): Promise<number> {
  const file = path.join(storageDir, LEGACY_FILE);
  let records: LegacyRecord[];
  try {
    const parsed = JSON.parse(await fs.readFile(file, 'utf8')) as { records?: unknown };
    records = Array.isArray(parsed.records) ? (parsed.records as LegacyRecord[]) : [];
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return 0;
    // Unreadable: left where it is, renamed so it is not read again, and reported.
    await fs.rename(file, `${file}.damaged-${Date.now()}`);
    throw err;
  }
  // Oldest first, so the ledger's order matches the time they were sent.
  for (const r of [...records].reverse()) {
    if (typeof r?.contentHash !== 'string' || typeof r.environment !== 'string') continue;
    const begun = await ledger.begin(
      {
        face: 'editor',
        pid: 0,
        host: '',
        environment: r.environment,
        production: r.production === true,
        endpointId: endpointIdOf(String(r.endpoint ?? '')),
        endpoint: String(r.endpoint ?? ''),
        file: String(r.file ?? ''),
        rowCount: Number(r.rowCount) || 0,
        contentHash: r.contentHash,
        signatureMethod: String(r.signatureMethod ?? ''),
      },
      Number.isNaN(Date.parse(String(r.time))) ? undefined : new Date(String(r.time)),
    );
    // A record that never completed stays "sending": its fate is unknown.
    if (r.state === 'done') {
      await ledger.complete(begun.id, {
        outcome: r.outcome,
        httpStatus: r.httpStatus,
        message: r.message,
        errorCode: r.errorCode,
        errorId: r.errorId,
        recurringPaymentIds: r.recurringPaymentIds ?? [],
        serialNumbers: r.serialNumbers ?? [],
        statuses: r.statuses ?? [],
      });
    }
  }
  await fs.rename(file, `${file}.imported`);
  return records.length;
}
