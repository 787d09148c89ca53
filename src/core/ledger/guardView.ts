import { eachLimited, type LedgerIndex } from './ledgerIndex';
import { HASH_DIGITS, type RowIndex } from './rowIndex';
import {
  foldLines,
  keyHashes,
  marksOf,
  type Damage,
  type GuardKey,
  type LedgerLine,
  type LedgerReading,
  type SubmissionRecord,
} from './records';

// What the guards read, without reading the whole history: the content index's shards of the hashes in
// question, the damage file, and the row index for row keys. The ledger (ledger.ts) hands over how to
// read everything, for the fallbacks.

export interface GuardSources {
  index: LedgerIndex;
  rows: RowIndex;
  /** Every line of the ledger (a whole read; moves damage aside). */
  readAll(): Promise<{ reading: LedgerReading; lines: LedgerLine[] }>;
  /** Whether the end of the live file holds a line that is neither whole nor ours. */
  tailIsDamaged(): Promise<boolean>;
  /** Builds the index again from a whole read's lines (and the batches' row keys). */
  rebuild(lines: readonly LedgerLine[]): Promise<void>;
}

/**
 * What the guard needs to know of one content (today's hash and any older one): its index shards, the
 * damage file, and the last 64 KiB of the live file (damage there is found, moved aside and told at
 * once; damage deeper in a large file is found by the next whole read, e.g. `paygate history`). Falls
 * back to reading everything when the index is missing or unreadable, and builds it.
 */
export async function guardView(s: GuardSources, key: GuardKey, shardOnly = false): Promise<LedgerReading> {
  let found: Damage | undefined;
  if (shardOnly) {
    // The race check right after "begin": only the shard's order matters (see guard.ts).
  } else if (!(await s.index.isComplete())) {
    const all = await s.readAll();
    await s.rebuild(all.lines);
    found = all.reading.damage;
  } else if (await s.tailIsDamaged()) found = (await s.readAll()).reading.damage;
  const hashes = keyHashes(key);
  const lines: LedgerLine[] = [];
  for (const hash of hashes) {
    const shard = await s.index.linesOf(hash);
    if (shard === undefined) return (await s.readAll()).reading;
    for (const l of shard) lines.push(l);
  }
  const marks = await s.index.damageLines();
  if (marks === undefined) return (await s.readAll()).reading;
  const records = foldLines(lines).filter((r) => hashes.includes(r.contentHash));
  return { records, ...marksOf(marks), tornLines: 0, ...(found ? { damage: found } : {}) };
}

/**
 * The submissions that held each of `keys` (row keys: rowKeys.ts), every target and outcome: the row index
 * names the contents (by the first 16 digits of their hashes), their shards the records. Keys no
 * submission held are absent.
 */
export async function recordsOfRows(s: GuardSources, keys: ReadonlySet<string>): Promise<Map<string, SubmissionRecord[]>> {
  const out = new Map<string, SubmissionRecord[]>();
  const hits = await s.rows.lookup(keys);
  if (hits.size === 0) return out;
  if (!(await s.index.isComplete())) {
    const all = await s.readAll();
    await s.rebuild(all.lines);
  }
  const contents = new Set<string>();
  for (const hashes of hits.values()) for (const h of hashes) contents.add(h);
  const byHash = new Map<string, SubmissionRecord[]>();
  let unreadable = false;
  await eachLimited([...contents], 8, async (hash) => {
    const lines = await s.index.linesOf(hash, true);
    if (lines === undefined) unreadable = true;
    else
      byHash.set(
        hash,
        foldLines(lines).filter((r) => r.contentHash.startsWith(hash)),
      );
  });
  if (unreadable) {
    // A shard that cannot be read: the whole ledger, once, for every content asked.
    byHash.clear();
    for (const r of (await s.readAll()).reading.records) {
      const head = r.contentHash.slice(0, HASH_DIGITS);
      if (!contents.has(head)) continue;
      let list = byHash.get(head);
      if (!list) byHash.set(head, (list = []));
      list.push(r);
    }
  }
  for (const [key, hashes] of hits) {
    const records: SubmissionRecord[] = [];
    for (const h of hashes) for (const r of byHash.get(h) ?? []) records.push(r);
    if (records.length > 0) out.set(key, records);
  }
  return out;
}
