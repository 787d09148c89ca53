import { scanLinesBackwards, type LedgerFs } from './ledgerFs';
import { foldLines, parseLine, type LedgerLine, type SubmissionRecord } from './records';

// `paygate history --limit N`: the newest N records, read from the end of the ledger backwards, so the
// time and memory follow N, not the size of the history. A completion comes after its begin, so by the
// time N begins are found their completions have been seen.

export async function recentRecords(fs: LedgerFs, filesNewestFirst: readonly string[], limit: number): Promise<SubmissionRecord[]> {
  const begins: LedgerLine[] = [];
  const completions = new Map<string, LedgerLine>();
  for (const file of filesNewestFirst) {
    const more = await scanLinesBackwards(fs, file, (raw) => {
      const line = parseLine(raw.trim());
      if (line?.op === 'begin') begins.push(line);
      // Backwards, the last one seen is the first written: the one that counts.
      else if (line?.op === 'complete') completions.set(line.id, line);
      return begins.length < limit;
    });
    if (!more) break;
  }
  const wanted = new Set(begins.map((b) => (b.op === 'begin' ? b.record.id : '')));
  const lines = begins.reverse();
  for (const [id, c] of completions) if (wanted.has(id)) lines.push(c);
  return foldLines(lines).slice(0, limit);
}

/**
 * The newest record that `wanted` accepts, reading the files backwards (a completion comes after its
 * begin, so it has been seen when its begin is reached): as quick for a recent send as `--limit` is.
 */
export async function newestRecord(
  fs: LedgerFs,
  filesNewestFirst: readonly string[],
  wanted: (r: SubmissionRecord) => boolean,
): Promise<SubmissionRecord | undefined> {
  const completions = new Map<string, LedgerLine>();
  let found: SubmissionRecord | undefined;
  for (const file of filesNewestFirst) {
    const more = await scanLinesBackwards(fs, file, (raw) => {
      const line = parseLine(raw.trim());
      if (line?.op === 'complete') completions.set(line.id, line);
      if (line?.op !== 'begin') return true;
      const done = completions.get(line.record.id);
      const record = foldLines(done ? [line, done] : [line])[0];
      if (wanted(record)) found = record;
      return found === undefined;
    });
    if (!more) break;
  }
  return found;
}
