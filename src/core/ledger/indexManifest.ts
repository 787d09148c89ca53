import { createHash } from 'node:crypto';
import type { LedgerLine } from './records';

// The guard index's manifest (ledgerIndex.ts): which generation folder is the index, up to where it covers
// the ledger (the watermark), and for every file the generation may hold, the bytes it vouches for and
// their checksum. Every lookup reads it, and a seal rewrites it, so it is laid out to cost little at any
// size: a checksum line (of all that follows), one JSON line (the head), then a table of fixed-width
// entries, one per place a file can have (4,097 content shards, 256 row shards `rows/<ab>.bin`, the
// orphans, the damage file, the pending entries). The whole file is checked on every read (one hash of some 130 KB); an entry
// is decoded only when a lookup reads its file, and a seal copies the table and patches its entries.

export const MANIFEST = 'manifest.txt';
export const CONTENT = 'content';
export const DAMAGE = 'damage.jsonl';
export const ORPHANS = 'orphans.jsonl';

/** The checksum of an index file's bytes (64 bits of SHA-256: it tells damage, not an attacker). */
export function checksum(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex').slice(0, 16);
}

/** The shard of a content hash: its first three hex digits, or `other` for a hash that is not hex. */
export function shardName(contentHash: string): string {
  const hh = /^[0-9a-f]{3}/i.exec(contentHash)?.[0].toLowerCase();
  return hh ?? 'other';
}

/** A hash usable as a line prefix (never a tab or a line break in it). */
export function prefixOf(contentHash: string): string {
  return /^[^\t\r\n]{1,128}$/.test(contentHash) ? contentHash : 'other';
}

/** One line of a shard: the content hash, a tab, the ledger line; a leading break so a torn line stays alone. */
export function shardLine(contentHash: string, line: LedgerLine): string {
  return `\n${prefixOf(contentHash)}\t${JSON.stringify(line)}\n`;
}

export const contentFile = (contentHash: string) => `${CONTENT}/${shardName(contentHash)}.txt`;

/** Up to where the index covers the ledger: the file (by inode), the offset, the bytes before it. */
export interface Watermark {
  ino: number;
  size: number;
  tail: string;
}

/** The index's version: 4 since the row entries are binary (rowIndex.ts); a manifest of any other is rebuilt. */
export const INDEX_VERSION = 4 as const;

export interface ManifestHead {
  v: typeof INDEX_VERSION;
  gen: string;
  ledger: Watermark;
  /** The rows' pending file, and how many entries it holds. */
  pending: string;
  pendingEntries: number;
}

/** A file's entry: the bytes vouched for and their checksum. */
export type FileEntry = [size: number, sum: string];

const SHARDS = 4096;
const ROW_SHARDS = 256;
const CONTENT_OTHER = SHARDS;
const ROWS_AT = SHARDS + 1;
const ORPHANS_AT = ROWS_AT + ROW_SHARDS;
const DAMAGE_AT = ORPHANS_AT + 1;
const PENDING_AT = DAMAGE_AT + 1;
const SLOTS = PENDING_AT + 1;
/** An entry: 12 hex digits of size, a space, 16 of checksum, a line break; a place with no file is dashes. */
const WIDTH = 30;
const NONE = `${'-'.repeat(WIDTH - 1)}\n`;
const CONTENT_FILE = /^content\/([0-9a-f]{3}|other)\.txt$/;
const ROWS_FILE = /^rows\/([0-9a-f]{2})\.bin$/;

export class Manifest {
  private constructor(
    readonly head: ManifestHead,
    private readonly table: Buffer,
  ) {}

  /** A manifest listing `files` (relative paths; names with no place in the table are left out). */
  static of(head: ManifestHead, files: ReadonlyMap<string, FileEntry> = new Map()): Manifest {
    return new Manifest(head, Buffer.from(NONE.repeat(SLOTS), 'latin1')).with(head, files);
  }

  /** Decodes a manifest file; undefined when its checksum, head or table is not what it must be. */
  static parse(bytes: Buffer): Manifest | undefined {
    const nl = bytes.indexOf(10);
    const headEnd = nl < 0 ? -1 : bytes.indexOf(10, nl + 1);
    if (headEnd < 0 || bytes.length - headEnd - 1 !== SLOTS * WIDTH) return undefined;
    if (checksum(bytes.subarray(nl + 1)) !== bytes.toString('latin1', 0, nl)) return undefined;
    const head = parseHead(bytes.toString('utf8', nl + 1, headEnd));
    return head && new Manifest(head, bytes.subarray(headEnd + 1));
  }

  /** The manifest file's bytes: the checksum of the rest, a line break, the head, a line break, the table. */
  bytes(): Buffer {
    const body = Buffer.concat([Buffer.from(`${JSON.stringify(this.head)}\n`, 'utf8'), this.table]);
    return Buffer.concat([Buffer.from(`${checksum(body)}\n`, 'latin1'), body]);
  }

  /** A file's entry, or undefined when the manifest lists none (a size or checksum that does not decode: damage). */
  entry(rel: string): FileEntry | undefined | 'bad' {
    const slot = this.slotOf(rel);
    if (slot === undefined) return undefined;
    const text = this.table.toString('latin1', slot * WIDTH, (slot + 1) * WIDTH);
    if (text === NONE) return undefined;
    const m = /^([0-9a-f]{12}) ([0-9a-f]{16})\n$/.exec(text);
    return m ? [parseInt(m[1], 16), m[2]] : 'bad';
  }

  /** A copy with another head and these entries set (undefined: the file is no longer listed). */
  with(head: ManifestHead, changes: ReadonlyMap<string, FileEntry | undefined>): Manifest {
    const table = Buffer.from(this.table);
    const next = new Manifest(head, table);
    for (const [rel, entry] of changes) {
      const slot = next.slotOf(rel);
      if (slot === undefined) continue;
      const text = entry ? `${entry[0].toString(16).padStart(12, '0')} ${entry[1]}\n` : NONE;
      table.write(text, slot * WIDTH, WIDTH, 'latin1');
    }
    return next;
  }

  /** The table's place of a file of the generation. */
  private slotOf(rel: string): number | undefined {
    if (rel === ORPHANS) return ORPHANS_AT;
    if (rel === DAMAGE) return DAMAGE_AT;
    if (rel === this.head.pending) return PENDING_AT;
    const row = ROWS_FILE.exec(rel)?.[1];
    if (row !== undefined) return ROWS_AT + parseInt(row, 16);
    const content = CONTENT_FILE.exec(rel)?.[1];
    if (content === undefined) return undefined;
    return content === 'other' ? CONTENT_OTHER : parseInt(content, 16);
  }
}

function parseHead(text: string): ManifestHead | undefined {
  try {
    const m = JSON.parse(text) as Partial<ManifestHead>;
    if (m.v !== INDEX_VERSION || typeof m.gen !== 'string' || !/^g-[0-9a-f-]{36}$/.test(m.gen)) return undefined;
    const w = m.ledger;
    if (!w || typeof w.ino !== 'number' || typeof w.size !== 'number' || typeof w.tail !== 'string') return undefined;
    if (typeof m.pending !== 'string' || !/^rows-pending-[0-9a-f-]{36}\.bin$/.test(m.pending)) return undefined;
    if (typeof m.pendingEntries !== 'number') return undefined;
    return m as ManifestHead;
  } catch {
    return undefined;
  }
}
