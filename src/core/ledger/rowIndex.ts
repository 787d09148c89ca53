// The row keys' part of the guard's index (ledgerIndex.ts): which batches (by content hash) held a
// client-orderid, by the keyed hash of the id (rowKeys.ts), and which held a card and schedule, by its
// payer key (samePayer.ts), so `already-sent`, `same-payer` and the submit's row guard read a few small
// files whatever the history. Since index version 4 an entry is binary and fixed-width, ENTRY bytes: the
// key's 12 bytes (its 24 hex digits: the whole row key, so a hit needs no second read; the payer key is
// the fingerprint's first 96 bits, and same-payer reads the full fingerprint from the row records anyway),
// then the content hash's first 8 bytes. Version 3 kept the same two values as text lines of 42 bytes: a
// lint of 100,000 rows against a million-row history read, checked and scanned 86 MB; it now reads 40 MB
// and steps over each entry with one bitmap test. Entries are derived from the sent batches' row records
// (batchRows.ts) by whoever seals the index: first into one pending file (one write per send, not one per
// shard), then, past PENDING_LIMIT entries, spread into 256 shards `rows/<ab>.bin` (the key's first byte).
// A file's bytes are believed only as far as the manifest vouches for them (size and checksum), and a
// sealer never appends after bytes it cannot vouch for (indexWrite.ts), so every vouched file is whole
// entries. An entry without a record (a batch recorded whose send never began) names no submission and is
// ignored.

export const ROWS = 'rows';
/** Entries the pending file holds before they are spread into the shards: what every lookup reads whole. */
export const PENDING_LIMIT = 2048;
/** A row key's bytes (its 24 hex digits: rowKeys.ts), and how much of a content hash an entry keeps. */
export const KEY_BYTES = 12;
export const HASH_BYTES = 8;
/** An entry: the key, then the content hash's first bytes (96 and 64 bits: no two collide). */
export const ENTRY = KEY_BYTES + HASH_BYTES;
const KEY = /^[0-9a-f]{24}$/;
const HASH = /^[0-9a-f]{16}/;

/** A key's bytes 1 to 3 (after the one its shard is named by) as one 24-bit number: an index file's bytes. */
function headAt(bytes: Uint8Array, at: number): number {
  return (bytes[at + 1] << 16) | (bytes[at + 2] << 8) | bytes[at + 3];
}

/**
 * What a lookup looks for: the keys, and a bitmap of their heads (64 bits a key, at most 2 MiB: a submit's
 * few keys take a few bytes, a lint's 200,000 the whole), so the other entries of a shard are passed over with
 * one bit read (about one in 64 passes by chance, one in 80 at 200,000 keys, and is then told by its whole key).
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
      // A key of another shape (never asked: keys are 24 hex digits) sets some bit: one more entry told by its whole key.
      const h = parseInt(k.slice(2, 8), 16) & this.mask;
      this.heads[h >>> 3] |= 1 << (h & 7);
    }
  }
}

/**
 * Adds to `found` the content hashes (their first 16 hex digits) of the wanted keys' entries in `bytes`
 * (whole entries: a vouched file whose size is not a multiple of ENTRY is damage, told by the caller).
 * At a million rows with their payers the shards hold 40 MB: each entry is stepped over with one bitmap
 * test, and only an entry whose head is a wanted key's is made into a string.
 */
export function lookupEntries(bytes: Uint8Array | undefined, wanted: Wanted, found: Map<string, Set<string>>): void {
  if (bytes === undefined) return;
  const n = bytes.length;
  const { heads, mask, keys } = wanted;
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, n);
  for (let at = 0; at + ENTRY <= n; at += ENTRY) {
    const h = headAt(buf, at) & mask;
    if ((heads[h >>> 3] & (1 << (h & 7))) === 0) continue;
    const key = buf.toString('hex', at, at + KEY_BYTES);
    if (!keys.has(key)) continue;
    let hashes = found.get(key);
    if (!hashes) found.set(key, (hashes = new Set()));
    hashes.add(buf.toString('hex', at + KEY_BYTES, at + ENTRY));
  }
}

/**
 * The entries of a batch's rows (one per row key; a key or content hash of another shape has none: no
 * lookup can ask for it, as lookups ask by keys of 24 hex digits).
 */
export function entriesOf(keys: readonly { key: string }[], contentHash: string): Buffer {
  if (!HASH.test(contentHash)) return Buffer.alloc(0);
  const hash = Buffer.from(contentHash.slice(0, 2 * HASH_BYTES), 'hex');
  const out = Buffer.alloc(keys.length * ENTRY);
  let at = 0;
  for (const { key } of keys) {
    if (typeof key !== 'string' || !KEY.test(key)) continue;
    out.write(key, at, KEY_BYTES, 'hex');
    hash.copy(out, at + KEY_BYTES);
    at += ENTRY;
  }
  return out.subarray(0, at);
}

/** How many entries `bytes` holds. */
export const entryCount = (bytes: Uint8Array) => Math.floor(bytes.length / ENTRY);

/** The shard (relative to the index's folder) of a row key: its first two hex digits (256 shards). */
export function rowShard(key: string): string {
  return shardOfByte(parseInt(key.slice(0, 2), 16));
}

const shardOfByte = (b: number) => `${ROWS}/${b.toString(16).padStart(2, '0')}.bin`;

/** Entries grouped by their shard (each group's entries in the order given). */
export function byRowShard(entries: readonly Uint8Array[]): Map<string, Buffer> {
  const groups = new Map<number, Buffer[]>();
  for (const bytes of entries)
    for (let at = 0; at + ENTRY <= bytes.length; at += ENTRY) {
      let list = groups.get(bytes[at]);
      if (!list) groups.set(bytes[at], (list = []));
      list.push(Buffer.from(bytes.buffer, bytes.byteOffset + at, ENTRY));
    }
  return new Map([...groups].map(([b, list]) => [shardOfByte(b), Buffer.concat(list)]));
}
