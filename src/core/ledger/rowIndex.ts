import { randomUUID } from 'node:crypto';
import * as path from 'node:path';
import { appendIndexFile, eachLimited } from './ledgerIndex';
import { readWhole, writeFully, type LedgerFs } from './ledgerFs';

// The row keys' index: which batches (by content hash) held a client-orderid, by the HMAC of the id
// (rowKeys.ts), so `already-sent` and the submit's row guard read a few small files whatever the history.
//
// A send appends its rows' entries (`<key> <content hash>`, one line each) to `guard/rows-pending.txt` in
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
const KEY = /^[0-9a-f]{32}$/;

/** Few keys are looked for in a file by searching for each; many by reading every line once. */
const SEARCHED_KEYS = 64;

/** Adds the content hashes of `keys`' entries in `text` (index lines `<key> <hash>`) to `found`. */
function entriesOf(text: string | undefined, keys: ReadonlySet<string>, found: Map<string, Set<string>>): void {
  if (text === undefined) return;
  const add = (key: string, at: number) => {
    const end = text.indexOf('\n', at);
    let hashes = found.get(key);
    if (!hashes) found.set(key, (hashes = new Set()));
    hashes.add(text.slice(at + 33, end < 0 ? text.length : end));
  };
  if (keys.size <= SEARCHED_KEYS) {
    for (const key of keys) {
      // Bounded: each round moves past the last match.
      for (let at = text.indexOf(key); at >= 0; at = text.indexOf(key, at + 1))
        if ((at === 0 || text.charCodeAt(at - 1) === 10) && text.charCodeAt(at + 32) === 32) add(key, at);
    }
    return;
  }
  for (let at = 0; at < text.length;) {
    const end = text.indexOf('\n', at);
    const next = end < 0 ? text.length : end;
    if (next - at > 33 && text.charCodeAt(at + 32) === 32) {
      const key = text.slice(at, at + 32);
      if (keys.has(key)) add(key, at);
    }
    at = next + 1;
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
    const bytes = Buffer.from(entries.map((e) => `\n${e.key} ${e.contentHash}`).join('') + '\n', 'utf8');
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

  /** The content hashes each of `keys` was sent in (keys never sent are absent). */
  async lookup(keys: ReadonlySet<string>): Promise<Map<string, Set<string>>> {
    const found = new Map<string, Set<string>>();
    if (keys.size === 0) return found;
    for (const file of await this.pendingFiles()) entriesOf(await readWhole(this.fs, file), keys, found);
    const byShard = new Map<string, Set<string>>();
    for (const key of keys) {
      const file = this.shardFile(key);
      let set = byShard.get(file);
      if (!set) byShard.set(file, (set = new Set()));
      set.add(key);
    }
    await eachLimited([...byShard], 16, async ([file, wanted]) => entriesOf(await readWhole(this.fs, file), wanted, found));
    return found;
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

  /** Whether the pending files hold more than PENDING_LIMIT entries (by size: an entry is ~98 bytes). */
  async needsCompaction(): Promise<boolean> {
    let bytes = 0;
    for (const file of await this.pendingFiles()) bytes += (await this.fs.stat(file).catch(() => ({ size: 0 }))).size;
    return bytes > PENDING_LIMIT * 98;
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
      await this.spread(text.split('\n').filter((l) => KEY.test(l.slice(0, 32)) && l.charCodeAt(32) === 32));
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
