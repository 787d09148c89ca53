import { eachLimited, type LedgerIndex } from './ledgerIndex';
import type { Keys } from './rowIndex';
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

// What the guards read, without reading the whole history: through the index (ledgerIndex.ts), the
// content shards of the hashes in question, the damage file and the row keys' entries, each as far as the
// index's manifest vouches for it, and the ledger's lines past the index's watermark. The ledger
// (ledger.ts) hands over how to read everything.

export interface GuardSources {
  index: LedgerIndex;
  /** Every line of the ledger (a whole read; moves damage aside). */
  readAll(): Promise<{ reading: LedgerReading; lines: LedgerLine[] }>;
  /** Whether the end of the live file holds a line that is neither whole nor ours. */
  tailIsDamaged(): Promise<boolean>;
}

/**
 * What the guard needs to know of one content (today's hash and any older one): its index shards, the
 * damage file, the ledger's lines past the index, and the last 64 KiB of the live file (damage there is
 * found, moved aside and told at once; damage deeper in a large file is found by the next whole read, e.g.
 * `paygate history`). `shardOnly`: the race check right after "begin" (guard.ts), which only needs the
 * order of this content's lines and leaves sealing to after the send.
 */
export async function guardView(s: GuardSources, key: GuardKey, shardOnly = false): Promise<LedgerReading> {
  let found: Damage | undefined;
  if (!shardOnly && (await s.tailIsDamaged())) found = (await s.readAll()).reading.damage;
  const hashes = keyHashes(key);
  const { value, damage } = await s.index.withView(async (view) => {
    const lines: LedgerLine[] = [];
    for (const hash of hashes) for (const l of await view.linesOf(hash)) lines.push(l);
    return { lines, marks: await view.damageLines() };
  }, !shardOnly);
  found = found ?? damage;
  const records = foldLines(value.lines).filter((r) => hashes.includes(r.contentHash));
  return { records, ...marksOf(value.marks), tornLines: 0, ...(found ? { damage: found } : {}) };
}

/**
 * The submissions that held each of `keys` (row keys: rowKeys.ts), every target and outcome: the row
 * entries name the contents (by the first 16 digits of their hashes), their shards the records. Keys no
 * submission held are absent. `seal` false: the race check on the way to a send, which writes nothing.
 */
export async function recordsOfRows(s: GuardSources, keys: Keys, seal = true): Promise<Map<string, SubmissionRecord[]>> {
  const { value } = await s.index.withView(async (view) => {
    const out = new Map<string, SubmissionRecord[]>();
    const hits = await view.lookupRows(keys);
    if (hits.size === 0) return out;
    const contents = new Set<string>();
    for (const hashes of hits.values()) for (const h of hashes) contents.add(h);
    const byHash = new Map<string, SubmissionRecord[]>();
    await eachLimited([...contents], 8, async (hash) => {
      const lines = await view.linesOf(hash, true);
      byHash.set(
        hash,
        foldLines(lines).filter((r) => r.contentHash.startsWith(hash)),
      );
    });
    for (const [key, hashes] of hits) {
      const records: SubmissionRecord[] = [];
      for (const h of hashes) for (const r of byHash.get(h) ?? []) records.push(r);
      if (records.length > 0) out.set(key, records);
    }
    return out;
  }, seal);
  return value;
}
