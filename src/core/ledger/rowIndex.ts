import { randomUUID } from 'node:crypto';
import * as path from 'node:path';
import { appendIndexFile, eachLimited } from './ledgerIndex';
import { readWhole, writeFully, type LedgerFs } from './ledgerFs';

// The row keys' index: which batches (by content hash) held a client-orderid, by the keyed hash of the id
// (rowKeys.ts), so `already-sent` and the submit's row guard read a few small files whatever the history.
//
// A send appends its rows' entries (`<key> <content hash's first 16 digits>`, one line each) to `guard/rows-pending.txt` in
// one fsynced write, before its "sending" line: one write per send, not one per shard, which a batch of
// 100,000 rows would make thousands of. Once the pending file passes PENDING_LIMIT entries, the send that
// finds it so (after its own request) moves it aside under a unique name and spreads its entries into
// 4,096 shards `guard/rows/<abc>.txt` (first three hex digits of the key), each fsynced, then deletes it.
// A reader reads the pending file, any file moved aside and not yet deleted (a compaction under way or
// cut short: its entries may be in the shards already, twice is harmless), and the shards of its keys.
// Entries are written before the send's ledger line, so an entry without a record (a send that never
// began) names no submission and is ignored; a torn entry is such an entry.

const ROWS = 'rows';
const PENDING = 'rows-pending';
/** Entries the pending file holds before they are spread into the shards: what every lookup reads whole. */
export const PENDING_LIMIT = 2048;
/** A row key's hex digits (rowKeys.ts), and how much of a content hash an entry keeps. */
export const KEY_DIGITS = 24;
export const HASH_DIGITS = 16;
const KEY = new RegExp(`^[0-9a-f]{${KEY_DIGITS}}$`);

/** A hex digit's value from its character code (`0`-`9`, `a`-`f`). */
const nibble = (c: number) => (c & 15) + 9 * (c >> 6);

/**
 * A key's digits 4 to 10 as one 28-bit number: every key of a shard shares its first three digits, so
 * these tell a wanted line from the others (one in 2^28 passes by chance) without cutting a string.
 */
function headOf(code: (i: number) => number, at: number): number {
  let h = 0;
  for (let j = 9; j >= 3; j--) h = h * 16 + nibble(code(at + j));
  return h;
}

/** What a lookup looks for: the keys, and their heads to pass over the other lines cheaply. */
class Wanted {
  readonly heads = new Set<number>();
  constructor(readonly keys: ReadonlySet<string>) {
    for (const k of keys) this.heads.add(headOf((i) => k.charCodeAt(i), 0));
  }
}

const LF = 10;
const SPACE = 32;
/** An entry line: the key, a space, the content hash's first digits (96 and 64 bits: no two collide). */
const ENTRY = KEY_DIGITS + 1 + HASH_DIGITS;

/**
 * Adds the content hashes of the wanted keys' entries in `bytes` (index lines `<key> <hash>`) to `found`.
 * At a million rows the shards hold about 100 MB: they are read as bytes, a line of the usual width is
 * stepped over in one move, and only the lines whose head is a wanted key's are made into strings.
 */
function entriesOf(bytes: Buffer | undefined, wanted: Wanted, found: Map<string, Set<string>>): void {
  if (bytes === undefined) return;
  const n = bytes.length;
  const code = (i: number) => bytes[i];
  const take = (at: number, end: number) => {
    const key = bytes.toString('latin1', at, at + KEY_DIGITS);
    if (!wanted.keys.has(key)) return;
    let hashes = found.get(key);
    if (!hashes) found.set(key, (hashes = new Set()));
    hashes.add(bytes.toString('latin1', at + KEY_DIGITS + 1, end));
  };
  // Bounded: every round moves forward by at least one byte.
  for (let at = 0; at < n;) {
    if (bytes[at] === LF) {
      at++;
      continue;
    }
    const whole = at + ENTRY <= n && bytes[at + KEY_DIGITS] === SPACE && (at + ENTRY === n || bytes[at + ENTRY] === LF);
    let end = at + ENTRY;
    if (!whole) {
      // Another width (a torn entry, a hash that is not hex): found the slow way.
      end = bytes.indexOf(LF, at);
      if (end < 0) end = n;
    }
    if (end - at > KEY_DIGITS + 1 && bytes[at + KEY_DIGITS] === SPACE && wanted.heads.has(headOf(code, at))) take(at, end);
    at = end;
  }
}

export interface RowEntry {
  key: string;
  contentHash: string;
}

export class RowIndex {
  constructor(
    /** The guard's index folder. */
    private readonly directory: string,
    private readonly fs: LedgerFs,
  ) {}

  private get pendingFile(): string {
    return path.join(this.directory, `${PENDING}.txt`);
  }

  private shardFile(key: string): string {
    return path.join(this.directory, ROWS, `${key.slice(0, 3)}.txt`);
  }

  /**
   * Appends entries to the pending file. When the file was moved aside between the open and the write
   * (a compaction claimed it), the entries are appended again to the new one: the claimed file may have
   * been read before they landed.
   */
  async add(entries: readonly RowEntry[]): Promise<void> {
    if (entries.length === 0) return;
    await this.fs.mkdir(this.directory, { recursive: true, mode: 0o700 });
    const bytes = Buffer.from(entries.map((e) => `\n${e.key} ${e.contentHash.slice(0, HASH_DIGITS)}`).join('') + '\n', 'utf8');
    // Bounded: a compaction claims the file once per PENDING_LIMIT entries.
    for (let attempt = 0; attempt < 5; attempt++) {
      const handle = await this.fs.open(this.pendingFile, 'a', 0o600);
      let ino: number;
      try {
        await writeFully(handle, bytes, this.pendingFile);
        ino = (await handle.stat()).ino;
      } finally {
        await handle.close();
      }
      const now = await this.fs.stat(this.pendingFile).catch(() => undefined);
      if (now?.ino === ino) return;
    }
    throw new Error(`cannot append to ${this.pendingFile}: it keeps being moved`);
  }

  /** The content hashes (their first HASH_DIGITS digits) each of `keys` was sent in (keys never sent are absent). */
  async lookup(keys: ReadonlySet<string>): Promise<Map<string, Set<string>>> {
    const found = new Map<string, Set<string>>();
    if (keys.size === 0) return found;
    const wanted = new Wanted(keys);
    for (const file of await this.pendingFiles()) entriesOf(await this.bytes(file), wanted, found);
    const shards = new Set<string>();
    for (const key of keys) shards.add(key.slice(0, 3));
    await eachLimited([...shards], 16, async (shard) =>
      entriesOf(await this.bytes(path.join(this.directory, ROWS, `${shard}.txt`)), wanted, found),
    );
    return found;
  }

  private bytes(file: string): Promise<Buffer | undefined> {
    return this.fs.readFile(file).catch((err: NodeJS.ErrnoException) => {
      if (err.code === 'ENOENT') return undefined;
      throw err;
    });
  }

  /** The pending file and any claimed by a compaction (under way, or cut short). */
  private async pendingFiles(): Promise<string[]> {
    let names: string[];
    try {
      names = await this.fs.readdir(this.directory);
    } catch {
      return [];
    }
    return names.filter((n) => n.startsWith(PENDING)).map((n) => path.join(this.directory, n));
  }

  /** Whether the pending files hold more than PENDING_LIMIT entries (by size: an entry and its line breaks). */
  async needsCompaction(): Promise<boolean> {
    let bytes = 0;
    for (const file of await this.pendingFiles()) bytes += (await this.fs.stat(file).catch(() => ({ size: 0 }))).size;
    return bytes > PENDING_LIMIT * (ENTRY + 2);
  }

  /**
   * Spreads the pending entries into the shards: each pending file is claimed by a rename (only one
   * process wins it), its entries appended to their shards (fsynced, several at a time), then deleted.
   */
  async compact(): Promise<void> {
    for (const file of await this.pendingFiles()) {
      const claimed = path.join(this.directory, `${PENDING}-${randomUUID()}.claimed`);
      try {
        await this.fs.rename(file, claimed);
      } catch {
        continue;
      }
      const text = (await readWhole(this.fs, claimed)) ?? '';
      await this.spread(text.split('\n').filter((l) => KEY.test(l.slice(0, KEY_DIGITS)) && l.charCodeAt(KEY_DIGITS) === SPACE));
      await this.fs.unlink(claimed).catch(() => undefined);
    }
  }

  /** Appends entry lines (`<key> <hash>`) to their shards. */
  async spread(lines: readonly string[]): Promise<void> {
    const byShard = new Map<string, string[]>();
    for (const l of lines) {
      const file = this.shardFile(l);
      let list = byShard.get(file);
      if (!list) byShard.set(file, (list = []));
      list.push(`\n${l}`);
    }
    await eachLimited([...byShard], 8, ([file, list]) => appendIndexFile(this.fs, file, `${list.join('')}\n`));
  }
}
