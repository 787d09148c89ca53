// The row keys' part of the guard's index (ledgerIndex.ts): which batches (by content hash) held a
// client-orderid, by the keyed hash of the id (rowKeys.ts), so `already-sent` and the submit's row guard
// read a few small files whatever the history. Entries are lines `<key> <content hash's first 16 digits>`,
// derived from the sent batches' row records (batchRows.ts) by whoever seals the index: first into one
// pending file (one write per send, not one per shard, which a batch of 100,000 rows would make thousands
// of), then, past PENDING_LIMIT entries, spread into 256 shards `rows/<ab>.txt` (the key's first two hex
// digits: a lookup of 100,000 keys reads every shard, and 256 files cost it far less than 4,096 did). An entry without a record (a batch recorded whose send never began) names no submission
// and is ignored.

export const ROWS = 'rows';
/** Entries the pending file holds before they are spread into the shards: what every lookup reads whole. */
export const PENDING_LIMIT = 2048;
/** A row key's hex digits (rowKeys.ts), and how much of a content hash an entry keeps. */
export const KEY_DIGITS = 24;
export const HASH_DIGITS = 16;
const KEY = new RegExp(`^[0-9a-f]{${KEY_DIGITS}}$`);

/** A hex digit's value from its character code (`0`-`9`, `a`-`f`; another character gives some number). */
const nibble = (c: number) => (c & 15) + 9 * (c >> 6);
/** A key's digits 3 to 8 (after the two its shard is named by) as one 24-bit number: an index file's bytes. */
function headAt(bytes: Uint8Array, at: number): number {
  let h = 0;
  for (let j = at + 3; j < at + 9; j++) h = (h << 4) + nibble(bytes[j]);
  return h & 0xffffff;
}
/** The same of a key as a string. */
function headOf(key: string): number {
  let h = 0;
  for (let j = 3; j < 9; j++) h = (h << 4) + nibble(key.charCodeAt(j));
  return h & 0xffffff;
}

/**
 * What a lookup looks for: the keys, and a bitmap of their heads (64 bits a key, at most 2 MiB: a submit's
 * few keys take a few bytes, a lint's 100,000 the whole), so the other lines of a shard are passed over with
 * one bit read (about one line in 64 passes by chance, one in 170 at 100,000 keys, and is then told by its
 * whole key).
 */
export class Wanted {
  readonly heads: Uint8Array;
  /** The bits of a head that index the bitmap. */
  readonly mask: number;
  constructor(readonly keys: ReadonlySet<string>) {
    let bits = 1 << 10;
    while (bits < keys.size * 64 && bits < 1 << 24) bits *= 2;
    this.heads = new Uint8Array(bits >>> 3);
    this.mask = bits - 1;
    for (const k of keys) {
      const h = headOf(k) & this.mask;
      this.heads[h >>> 3] |= 1 << (h & 7);
    }
  }
}

const LF = 10;
const SPACE = 32;
/** An entry line: the key, a space, the content hash's first digits (96 and 64 bits: no two collide). */
const ENTRY = KEY_DIGITS + 1 + HASH_DIGITS;

/**
 * Adds the content hashes of the wanted keys' entries in `bytes` (index lines `<key> <hash>`) to `found`.
 * At a million rows the shards hold about 43 MB: they are read as bytes, a line of the usual width is
 * stepped over in one move, and only the lines whose head is a wanted key's are made into strings.
 */
function entriesOf(bytes: Buffer | undefined, wanted: Wanted, found: Map<string, Set<string>>): void {
  if (bytes === undefined) return;
  const n = bytes.length;
  const { heads, mask } = wanted;
  // Bounded: every round moves forward by at least one byte.
  for (let at = 0; at < n;) {
    if (bytes[at] === LF) {
      at++;
      continue;
    }
    let end = at + ENTRY;
    if (!(end <= n && bytes[at + KEY_DIGITS] === SPACE && (end === n || bytes[end] === LF))) {
      // Another width (a torn entry, a hash that is not hex): found the slow way.
      end = bytes.indexOf(LF, at);
      if (end < 0) end = n;
    }
    if (end - at > KEY_DIGITS + 1 && bytes[at + KEY_DIGITS] === SPACE) {
      const h = headAt(bytes, at) & mask;
      if ((heads[h >>> 3] & (1 << (h & 7))) !== 0) take(bytes, at, end, wanted.keys, found);
    }
    at = end;
  }
}

/** Adds an entry's content hash to `found` when its key is wanted. */
function take(bytes: Buffer, at: number, end: number, keys: ReadonlySet<string>, found: Map<string, Set<string>>): void {
  const key = bytes.toString('latin1', at, at + KEY_DIGITS);
  if (!keys.has(key)) return;
  let hashes = found.get(key);
  if (!hashes) found.set(key, (hashes = new Set()));
  hashes.add(bytes.toString('latin1', at + KEY_DIGITS + 1, end));
}

/** The entry lines (`<key> <hash>`) of a batch's rows. */
export function entryLines(keys: readonly { key: string }[], contentHash: string): string[] {
  const hash = contentHash.slice(0, HASH_DIGITS);
  return keys.map((r) => `${r.key} ${hash}`);
}

/** The shard (relative to the index's folder) of a row key: its first two hex digits (256 shards). */
export function rowShard(key: string): string {
  return `${ROWS}/${key.slice(0, 2)}.txt`;
}

/** Entry lines of a file's text: a torn one (a sealer cut short before its checksum was kept) is left out. */
export function entryLinesOf(text: string): string[] {
  return text.split('\n').filter((l) => KEY.test(l.slice(0, KEY_DIGITS)) && l.charCodeAt(KEY_DIGITS) === SPACE);
}

/** Entry lines grouped by their shard, each group as the text to append. */
export function byRowShard(lines: readonly string[]): Map<string, string> {
  const groups = new Map<string, string[]>();
  for (const l of lines) {
    const file = rowShard(l);
    let list = groups.get(file);
    if (!list) groups.set(file, (list = []));
    list.push(`\n${l}`);
  }
  return new Map([...groups].map(([file, list]) => [file, `${list.join('')}\n`]));
}

/** Adds to `found` the content hashes of the wanted keys' entries in `bytes` (see entriesOf). */
export function lookupEntries(
  bytes: Buffer | undefined,
  keys: ReadonlySet<string>,
  found: Map<string, Set<string>>,
  wanted = new Wanted(keys),
): Wanted {
  entriesOf(bytes, wanted, found);
  return wanted;
}
