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

/** 4 bytes from `at` as a signed 32-bit word (big-endian). */
function wordAt(bytes: Uint8Array, at: number): number {
  return (bytes[at] << 24) | (bytes[at + 1] << 16) | (bytes[at + 2] << 8) | bytes[at + 3];
}

/**
 * The bytes of `count` keys joined in `text`, or undefined unless every key is 24 lower-case hex digits (KEY).
 * Decoding stops at a character that is not hex, and upper case decodes too: encoded again, the text is itself.
 */
function keyBytes(text: string, count: number): Buffer | undefined {
  const bytes = Buffer.from(text, 'hex');
  return bytes.length === KEY_BYTES * count && bytes.toString('hex') === text ? bytes : undefined;
}

/** A key's three words into `out` from `at`; false (nothing meant) when it is not of the entries' shape. */
function keyWords(key: string, out: Int32Array, at: number): boolean {
  const bytes = key.length === 2 * KEY_BYTES ? keyBytes(key, 1) : undefined;
  if (bytes === undefined) return false;
  for (let w = 0; w < 3; w++) out[at + w] = wordAt(bytes, 4 * w);
  return true;
}

/**
 * Row keys to look up: a set, or a list (a lint's 200,000 keys: no set made of them; a key listed twice
 * is looked for once, as in a set).
 */
export type Keys = ReadonlySet<string> | readonly string[];

/** How many keys `keys` lists. */
export const keyCount = (keys: Keys): number => ('size' in keys ? keys.size : keys.length);

/**
 * Every key's words into `out` with one hex decoding of them all (a lint's 200,000 keys: one decoding, not
 * 200,000); false, `out` meaning nothing, unless every key is 24 lower-case hex digits (KEY):
 * then keyWords tells them one by one.
 */
function allKeyWords(keys: readonly string[], out: Int32Array): boolean {
  for (const k of keys) if (k.length !== 2 * KEY_BYTES) return false;
  const bytes = keyBytes(keys.join(''), keys.length);
  if (bytes === undefined) return false;
  for (let i = 0; i < keys.length * 3; i++) out[i] = wordAt(bytes, 4 * i);
  return true;
}

/** A slot of the wanted keys' table, from a key's second word (its bytes 4 to 7: uniformly spread, as a keyed hash's). */
const slotOf = (word: number, mask: number) => (Math.imul(word, 0x9e3779b1) >>> 0) & mask;

/**
 * What a lookup looks for: the keys, as numbers (three 32-bit words each, in an open-addressed table: an
 * entry is told without a string made of it), and a bitmap of their heads (64 bits a key, at most 2 MiB: a
 * submit's few keys take a few bytes, a lint's 200,000 the whole), so the other entries of a shard are
 * passed over with one bit read (about one in 64 passes by chance, one in 80 at 200,000 keys, and is then
 * told by its whole key). A key of another shape than 24 lower-case hex digits is no entry's: never found.
 */
export class Wanted {
  readonly heads: Uint8Array;
  /** The bits of a head that index the bitmap. */
  readonly mask: number;
  /** The keys of the entries' shape, and their words (3 a key). */
  private readonly list: readonly string[];
  private readonly words: Int32Array;
  /** The shards the keys are in (shardOfByte), by their first byte: 1 for a shard to read. */
  private readonly inShard = new Uint8Array(256);
  /** Slots: a key's place in `list` + 1, 0 for none. */
  private readonly table: Int32Array;
  private readonly slots: number;
  constructor(keys: Keys) {
    const count = keyCount(keys);
    let bits = 1 << 10;
    while (bits < count * 64 && bits < 1 << 24) bits *= 2;
    this.heads = new Uint8Array(bits >>> 3);
    this.mask = bits - 1;
    let size = 16;
    while (size < count * 2) size *= 2;
    this.table = new Int32Array(size);
    this.slots = size - 1;
    this.words = new Int32Array(3 * count);
    const w = this.words;
    const all = Array.isArray(keys) ? (keys as readonly string[]) : [...keys];
    const decoded = allKeyWords(all, w);
    const list: string[] = [];
    if (!decoded) for (const k of all) if (keyWords(k, w, 3 * list.length)) list.push(k);
    // A list handed over is kept, not copied (the lookup does not change it).
    this.list = decoded ? all : list;
    for (let i = 0; i < this.list.length; i++) {
      this.inShard[w[3 * i] >>> 24] = 1;
      const h = w[3 * i] & 0xffffff & this.mask;
      this.heads[h >>> 3] |= 1 << (h & 7);
      let slot = slotOf(w[3 * i + 1], this.slots);
      while (this.table[slot] !== 0) slot = (slot + 1) & this.slots;
      this.table[slot] = i + 1;
    }
  }

  /** The shards that can hold the keys' entries (their names, none made a key). */
  shards(): string[] {
    const out: string[] = [];
    for (let b = 0; b < 256; b++) if (this.inShard[b] === 1) out.push(shardOfByte(b));
    return out;
  }

  /** The wanted key whose bytes are `bytes` from `at` (KEY_BYTES of them), or undefined. */
  keyAt(bytes: Uint8Array, at: number): string | undefined {
    const a = wordAt(bytes, at);
    const b = wordAt(bytes, at + 4);
    const c = wordAt(bytes, at + 8);
    const { words, table, slots } = this;
    for (let slot = slotOf(b, slots); table[slot] !== 0; slot = (slot + 1) & slots) {
      const i = table[slot] - 1;
      if (words[3 * i] === a && words[3 * i + 1] === b && words[3 * i + 2] === c) return this.list[i];
    }
    return undefined;
  }
}

/**
 * Adds to `found` the content hashes (their first 16 hex digits) of the wanted keys' entries in `bytes`
 * (whole entries: a vouched file whose size is not a multiple of ENTRY is damage, told by the caller).
 * At a million rows with their payers the shards hold 40 MB: each entry is stepped over with one bitmap
 * test, one whose head is a wanted key's is told by its words, and only a wanted key's hash is made a string.
 */
export function lookupEntries(bytes: Uint8Array | undefined, wanted: Wanted, found: Map<string, Set<string>>): void {
  if (bytes === undefined) return;
  const n = bytes.length;
  const { heads, mask } = wanted;
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, n);
  for (let at = 0; at + ENTRY <= n; at += ENTRY) {
    const h = headAt(buf, at) & mask;
    if ((heads[h >>> 3] & (1 << (h & 7))) === 0) continue;
    const key = wanted.keyAt(buf, at);
    if (key === undefined) continue;
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

/** The shard (relative to the index's folder) of a key's first byte (its first two hex digits: 256 shards). */
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
