import { createHash, randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import * as path from 'node:path';
import { writeFully, type LedgerFs } from './ledgerFs';
import { parseLine, type Damage, type LedgerLine, type LedgerReading } from './records';
import { byRowShard, entryLines, entryLinesOf, lookupEntries, PENDING_LIMIT, rowShard, Wanted } from './rowIndex';
import type { BatchRowKeys } from './rowKeys';

// The guard's index: a cache derived from the ledger's lines and the sent batches' row records, never a
// source of its own. The ledger is the truth; a lookup reads the index's files only as far as a manifest
// vouches for them, and reads the rest from the ledger itself.
//
// `guard/manifest.json` (its own checksum first) names one generation folder `guard/g-<id>/` and says, for
// every file in it, how many bytes it vouches for and their checksum, and up to where the index covers the
// ledger: the live file's inode, a byte offset, and a checksum of the bytes before that offset (the
// watermark). A lookup reads the manifest, the files it needs (each checked against its entry: a file
// missing, shorter, or with other bytes is damage) and the ledger's lines past the watermark, which it adds
// in memory. So an index that is missing, truncated, unreadable, partly deleted, filled with garbage or
// older than the ledger is never believed: damage is rebuilt into a new generation (the whole ledger and
// every batch's row records read once), staleness is caught up. Writers never touch the index on the way
// to a send: a kill at any instant leaves the ledger, and the index follows it.
//
// Files in a generation:
//   content/<abc>.txt  the ledger's begin and complete lines, by the first three hex digits of the content
//                      hash, each line `<hash>\t<ledger line>` (a lookup parses only its hash's lines)
//   orphans.jsonl      completions that name no content hash and whose begin was sealed earlier
//   damage.jsonl       damage marks and acknowledgements
//   rows-pending-<id>.txt, rows/<abc>.txt  the row keys' entries (rowIndex.ts)
//
// Sealing (what a lookup read past the watermark, appended to the files and vouched for by a new manifest)
// and rebuilding happen under a lock (`guard/lock`, a link naming its holder; a dead holder's is broken), at
// most one process at a time; a lookup never waits for the lock unless the index must be rebuilt. A sealer
// killed midway leaves bytes past what the manifest vouches for: ignored by readers, kept by the next sealer
// (a torn line among them is skipped: the lines it held are read again from the ledger). Index files are
// not fsynced: after a power loss their checksums fail and the index is rebuilt.

export const GUARD_DIR = 'guard';
/** Where version 0.1 kept its index; removed once this one is built, like this version's earlier layout. */
export const OLD_INDEX_DIR = 'index';
const LEGACY = ['content', 'rows', 'damage.jsonl', 'complete', 'rows-pending.txt'];
const MANIFEST = 'manifest.json';
const LOCK = 'lock';
const CONTENT = 'content';
const DAMAGE = 'damage.jsonl';
const ORPHANS = 'orphans.jsonl';
/** Bytes of the ledger before the watermark whose checksum the manifest keeps. */
export const TAIL_CHECK = 4096;
/** A lock older than this is broken whoever holds it (no sealing or rebuild takes so long). */
const LOCK_STALE_MS = 10 * 60_000;
/** How long a lookup waits for another process's rebuild before reading the whole ledger itself. */
const REBUILD_WAIT_MS = 60_000;

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
function prefixOf(contentHash: string): string {
  return /^[^\t\r\n]{1,128}$/.test(contentHash) ? contentHash : 'other';
}

/** One line of a shard: the content hash, a tab, the ledger line; a leading break so a torn line stays alone. */
export function shardLine(contentHash: string, line: LedgerLine): string {
  return `\n${prefixOf(contentHash)}\t${JSON.stringify(line)}\n`;
}

const contentFile = (contentHash: string) => `${CONTENT}/${shardName(contentHash)}.txt`;

/** Up to where the index covers the ledger: the file (by inode), the offset, the bytes before it. */
export interface Watermark {
  ino: number;
  size: number;
  tail: string;
}

export interface Manifest {
  /** 3 since the payer entries (samePayer.ts): an index of version 2 lacks them and is rebuilt. */
  v: 3;
  gen: string;
  ledger: Watermark;
  /** Per file of the generation (relative path): the bytes vouched for and their checksum. */
  files: Record<string, [number, string]>;
  /** The rows' pending file, and how many entries it holds. */
  pending: string;
  pendingEntries: number;
}

/** A file of the index that is not what its manifest says: the index is rebuilt. */
export class IndexDamage extends Error {}

/** What the index needs of the ledger it serves. */
export interface IndexSources {
  /** The ledger's files, archives first, then the live one. */
  files(): Promise<string[]>;
  /** Every line (a whole read; damage is moved aside and told). */
  readAll(): Promise<{ reading: LedgerReading; lines: LedgerLine[] }>;
  /** A sent batch's row records, or undefined. */
  rowsOf(contentHash: string): Promise<BatchRowKeys | undefined>;
  /** The content hashes of every batch with row records. */
  batchHashes(): Promise<string[]>;
}

/** A lookup's reading of the index: the files the manifest vouches for, and the ledger's lines past it. */
export class IndexView {
  constructor(
    private readonly fs: LedgerFs,
    private readonly genDir: string | undefined,
    readonly manifest: Manifest | undefined,
    /** The manifest's text, to tell whether it changed since. */
    readonly manifestText: string | undefined,
    /** The ledger's lines the index does not hold yet, in append order. */
    readonly tail: readonly LedgerLine[],
    /** Where the tail ends. */
    readonly end: Watermark,
    private readonly sources: IndexSources,
  ) {}

  /** A file's bytes as far as the manifest vouches for them; undefined when it lists none. Throws IndexDamage. */
  async sealed(rel: string): Promise<Buffer | undefined> {
    const entry = this.manifest?.files[rel];
    if (!entry || this.genDir === undefined) return undefined;
    const [size, sum] = entry;
    let bytes: Buffer;
    try {
      bytes = await this.fs.readFile(path.join(this.genDir, rel));
    } catch (err) {
      throw new IndexDamage(`${rel}: ${(err as NodeJS.ErrnoException).code ?? String(err)}`);
    }
    if (bytes.length < size) throw new IndexDamage(`${rel}: ${bytes.length} bytes, ${size} expected`);
    const mine = bytes.subarray(0, size);
    if (checksum(mine) !== sum) throw new IndexDamage(`${rel}: checksum`);
    return mine;
  }

  /** The lines of one content hash (or of the hashes starting with `contentHash`, when `prefix`), in append order. */
  async linesOf(contentHash: string, prefix = false): Promise<LedgerLine[]> {
    const start = prefix ? contentHash : `${prefixOf(contentHash)}\t`;
    const matches = (hash: string | undefined) => hash !== undefined && (prefix ? hash.startsWith(contentHash) : hash === contentHash);
    const lines: LedgerLine[] = [];
    const text = (await this.sealed(contentFile(contentHash)))?.toString('utf8') ?? '';
    // Only this hash's lines are parsed; a torn line (a sealer cut short) is skipped: the ledger has it.
    for (let at = 0; at < text.length;) {
      const end = text.indexOf('\n', at);
      const next = end < 0 ? text.length : end;
      if (next > at && text.startsWith(start, at)) {
        const tab = text.indexOf('\t', at);
        const line = tab > 0 && tab < next ? parseLine(text.slice(tab + 1, next)) : undefined;
        if (line) lines.push(line);
      }
      at = next + 1;
    }
    const ids = new Set<string>();
    for (const l of lines) if (l.op === 'begin') ids.add(l.record.id);
    for (const l of this.tail) if (l.op === 'begin' && matches(l.record.contentHash)) ids.add(l.record.id);
    const orphans = await this.sealed(ORPHANS);
    if (orphans && ids.size > 0)
      for (const raw of orphans.toString('utf8').split('\n')) {
        const line = raw.trim() === '' ? undefined : parseLine(raw.trim());
        if (line?.op === 'complete' && ids.has(line.id)) lines.push(line);
      }
    for (const l of this.tail) {
      if (l.op === 'begin' ? matches(l.record.contentHash) : l.op === 'complete' && (matches(l.contentHash) || ids.has(l.id)))
        lines.push(l);
    }
    return lines;
  }

  /** Damage and acknowledgement lines. */
  async damageLines(): Promise<LedgerLine[]> {
    const lines: LedgerLine[] = [];
    for (const raw of ((await this.sealed(DAMAGE))?.toString('utf8') ?? '').split('\n')) {
      const line = raw.trim() === '' ? undefined : parseLine(raw.trim());
      if (line) lines.push(line);
    }
    for (const l of this.tail) if (l.op === 'damage' || l.op === 'ack') lines.push(l);
    return lines;
  }

  /** The content hashes (their first 16 digits) each of `keys` was sent in (keys never sent are absent). */
  async lookupRows(keys: ReadonlySet<string>): Promise<Map<string, Set<string>>> {
    const found = new Map<string, Set<string>>();
    if (keys.size === 0) return found;
    const wanted = new Wanted(keys);
    if (this.manifest) lookupEntries(await this.sealed(this.manifest.pending), keys, found, wanted);
    const shards = new Set<string>();
    for (const key of keys) shards.add(rowShard(key));
    await eachLimited([...shards], 16, async (shard) => void lookupEntries(await this.sealed(shard), keys, found, wanted));
    const hashes = new Set<string>();
    for (const l of this.tail) if (l.op === 'begin') hashes.add(l.record.contentHash);
    for (const hash of hashes) {
      const rows = await this.sources.rowsOf(hash);
      if (rows) lookupEntries(Buffer.from(entryLines(rows.rows, hash).join('\n'), 'latin1'), keys, found, wanted);
    }
    return found;
  }
}

export class LedgerIndex {
  readonly directory: string;

  constructor(
    private readonly ledgerDirectory: string,
    private readonly fs: LedgerFs,
    private readonly sources: IndexSources,
  ) {
    this.directory = path.join(ledgerDirectory, GUARD_DIR);
  }

  /**
   * Runs a lookup on the index. Damage found by it: the manifest read again (another process may have
   * rebuilt), else the index rebuilt and the lookup run again. What the lookup read past the watermark is
   * then sealed (best effort: the ledger keeps it either way). `damage`: ledger damage this read found.
   */
  async withView<T>(lookup: (view: IndexView) => Promise<T>, seal = true): Promise<{ value: T; damage?: Damage }> {
    // Without sealing (the race check on the way to a send) nothing is written: no rebuild either.
    let opened = await this.open(!seal);
    for (let attempt = 0; ; attempt++) {
      try {
        const value = await lookup(opened.view);
        if (seal && opened.view.tail.length > 0) await this.seal(opened.view).catch(() => undefined);
        return { value, ...(opened.damage ? { damage: opened.damage } : {}) };
      } catch (err) {
        if (!(err instanceof IndexDamage) || attempt >= 2) throw err;
      }
      const now = await this.readManifestText();
      opened =
        attempt === 0 && now !== undefined && now !== opened.view.manifestText
          ? await this.open(!seal)
          : { ...(await this.rebuild(!seal)), damage: opened.damage };
    }
  }

  /** Seals what a lookup read past the watermark (after a send: its own lines). */
  async tidy(): Promise<void> {
    const { view } = await this.open();
    if (view.tail.length > 0) await this.seal(view);
  }

  private async open(readOnly = false): Promise<{ view: IndexView; damage?: Damage }> {
    const files = await this.sources.files();
    if (files.length === 0) return { view: this.view(undefined, undefined, [], { ino: 0, size: 0, tail: '' }) };
    const text = await this.readManifestText();
    const manifest = text === undefined ? undefined : parseManifest(text);
    const from = manifest && (await this.locate(files, manifest.ledger));
    if (!manifest || !from) return this.rebuild(readOnly);
    const tail = await this.readTail(from);
    if (tail === undefined) return this.rebuild(readOnly);
    return { view: this.view(manifest, text, tail.lines, tail.end) };
  }

  private view(manifest: Manifest | undefined, text: string | undefined, tail: readonly LedgerLine[], end: Watermark): IndexView {
    const genDir = manifest ? path.join(this.directory, manifest.gen) : undefined;
    return new IndexView(this.fs, genDir, manifest, text, tail, end, this.sources);
  }

  private async readManifestText(): Promise<string | undefined> {
    try {
      return (await this.fs.readFile(path.join(this.directory, MANIFEST))).toString('utf8');
    } catch {
      return undefined;
    }
  }

  /** Where the ledger's lines past the watermark are: the file it names from its offset, then every later one. */
  private async locate(files: readonly string[], w: Watermark): Promise<{ file: string; from: number }[] | undefined> {
    if (w.ino === 0) return files.map((file) => ({ file, from: 0 }));
    for (let i = 0; i < files.length; i++) {
      const stat = await this.fs.stat(files[i]).catch(() => undefined);
      if (stat?.ino !== w.ino) continue;
      if (stat.size < w.size || (await tailSum(this.fs, files[i], w.size)) !== w.tail) return undefined;
      return [{ file: files[i], from: w.size }, ...files.slice(i + 1).map((file) => ({ file, from: 0 }))];
    }
    return undefined;
  }

  /**
   * The whole lines past the watermark and where they end (the last file's last line break: a line being
   * written stays for the next read); undefined when one does not parse (ledger damage: the whole read
   * moves it aside).
   */
  private async readTail(from: { file: string; from: number }[]): Promise<{ lines: LedgerLine[]; end: Watermark } | undefined> {
    const lines: LedgerLine[] = [];
    let end: Watermark | undefined;
    for (const { file, from: start } of from) {
      const handle = await this.fs.open(file, 'r').catch(() => undefined);
      if (!handle) return undefined;
      let bytes: Buffer;
      let ino: number;
      try {
        const stat = await handle.stat();
        ino = stat.ino;
        bytes = Buffer.alloc(Math.max(0, stat.size - start));
        let read = 0;
        // Bounded: each round reads at least one byte or stops.
        while (read < bytes.length) {
          const { bytesRead } = await handle.read(bytes, read, bytes.length - read, start + read);
          if (bytesRead <= 0) break;
          read += bytesRead;
        }
        bytes = bytes.subarray(0, read);
      } finally {
        await handle.close();
      }
      const cut = bytes.lastIndexOf(10) + 1;
      for (const raw of bytes.subarray(0, cut).toString('utf8').split('\n')) {
        const t = raw.trim();
        if (t === '') continue;
        const line = parseLine(t);
        if (!line) return undefined;
        lines.push(line);
      }
      end = { ino, size: start + cut, tail: '' };
    }
    if (!end) return undefined;
    end.tail = await tailSum(this.fs, from[from.length - 1].file, end.size);
    return { lines, end };
  }

  /**
   * Builds a new generation from the whole ledger and every batch's row records, under the lock (waiting
   * for another process's rebuild first); without the lock, the whole ledger read serves as the view.
   */
  private async rebuild(readOnly = false): Promise<{ view: IndexView; damage?: Damage }> {
    if (readOnly) {
      const all = await this.sources.readAll();
      const damage = all.reading.damage;
      return { view: this.view(undefined, undefined, all.lines, { ino: 0, size: 0, tail: '' }), ...(damage ? { damage } : {}) };
    }
    const unlock = await this.lock(REBUILD_WAIT_MS);
    if (unlock === 'released') {
      // Another process held the lock and let it go: its rebuild may serve.
      const text = await this.readManifestText();
      const manifest = text === undefined ? undefined : parseManifest(text);
      const files = await this.sources.files();
      const from = manifest && (await this.locate(files, manifest.ledger));
      const tail = from && (await this.readTail(from));
      if (manifest && tail) return { view: this.view(manifest, text, tail.lines, tail.end) };
    }
    const unlockNow = typeof unlock === 'function' ? unlock : await this.lock(0);
    // The watermark before the read: lines appended meanwhile are both in the read and past it (twice folds into one).
    let w = await this.watermark();
    let all = await this.sources.readAll();
    const damage = all.reading.damage;
    if (damage) {
      w = await this.watermark();
      all = await this.sources.readAll();
    }
    if (typeof unlockNow !== 'function') {
      return { view: this.view(undefined, undefined, all.lines, w), ...(damage ? { damage } : {}) };
    }
    try {
      await this.build(all.lines, w);
      const text = await this.readManifestText();
      const manifest = text === undefined ? undefined : parseManifest(text);
      const from = manifest && (await this.locate(await this.sources.files(), manifest.ledger));
      const tail = from && (await this.readTail(from));
      if (manifest && tail) return { view: this.view(manifest, text, tail.lines, tail.end), ...(damage ? { damage } : {}) };
      return { view: this.view(undefined, undefined, all.lines, w), ...(damage ? { damage } : {}) };
    } catch {
      // An index that cannot be written (a read-only folder, a full disk): the whole read serves.
      return { view: this.view(undefined, undefined, all.lines, w), ...(damage ? { damage } : {}) };
    } finally {
      await unlockNow();
    }
  }

  /** The live file's watermark now: its inode, its size up to the last line break, and the bytes before. */
  private async watermark(): Promise<Watermark> {
    const files = await this.sources.files();
    const last = files[files.length - 1];
    if (last === undefined) return { ino: 0, size: 0, tail: '' };
    const stat = await this.fs.stat(last).catch(() => undefined);
    if (!stat) return { ino: 0, size: 0, tail: '' };
    // Up to the last line break: a line being written is read again past the watermark.
    const probe = Math.min(stat.size, 1 << 16);
    const handle = await this.fs.open(last, 'r');
    let size: number;
    try {
      const buf = Buffer.alloc(probe);
      const { bytesRead } = await handle.read(buf, 0, probe, stat.size - probe);
      const at = buf.subarray(0, bytesRead).lastIndexOf(10);
      size = at < 0 ? stat.size - probe : stat.size - probe + at + 1;
    } finally {
      await handle.close();
    }
    return { ino: stat.ino, size, tail: await tailSum(this.fs, last, size) };
  }

  /** Writes a new generation (every file, then the manifest), then removes the older ones. */
  private async build(lines: readonly LedgerLine[], w: Watermark): Promise<void> {
    const gen = `g-${randomUUID()}`;
    const dir = path.join(this.directory, gen);
    const texts = derive(lines, new Map());
    const files: Manifest['files'] = {};
    await this.fs.mkdir(path.join(dir, CONTENT), { recursive: true, mode: 0o700 });
    await eachLimited([...texts], 8, async ([rel, text]) => {
      const bytes = Buffer.from(text, 'utf8');
      await writeIndexFile(this.fs, path.join(dir, rel), bytes);
      files[rel] = [bytes.length, checksum(bytes)];
    });
    // Every batch's row records, spread in rounds of some 200,000 entries (memory stays bounded).
    await this.fs.mkdir(path.join(dir, 'rows'), { recursive: true, mode: 0o700 });
    const touched = new Set<string>();
    let pending: string[] = [];
    const spread = async () => {
      await eachLimited([...byRowShard(pending)], 8, async ([rel, text]) => {
        touched.add(rel);
        await writeIndexFile(this.fs, path.join(dir, rel), Buffer.from(text, 'latin1'));
      });
      pending = [];
    };
    for (const hash of await this.sources.batchHashes()) {
      const rows = await this.sources.rowsOf(hash);
      for (const l of entryLines(rows?.rows ?? [], hash)) pending.push(l);
      if (pending.length >= 200_000) await spread();
    }
    await spread();
    await eachLimited([...touched], 16, async (rel) => {
      const bytes = await this.fs.readFile(path.join(dir, rel));
      files[rel] = [bytes.length, checksum(bytes)];
    });
    await this.writeManifest({ v: 3, gen, ledger: w, files, pending: `rows-pending-${randomUUID()}.txt`, pendingEntries: 0 });
    for (const name of await this.fs.readdir(this.directory).catch(() => [] as string[]))
      if ((name.startsWith('g-') && name !== gen) || LEGACY.includes(name) || name.startsWith('rows-pending'))
        await this.fs.removeTree(path.join(this.directory, name)).catch(() => undefined);
    await this.fs.removeTree(path.join(this.ledgerDirectory, OLD_INDEX_DIR)).catch(() => undefined);
  }

  /**
   * Appends what a view read past the watermark to the generation's files and vouches for them in a new
   * manifest, under the lock (none taken: nothing done, the next lookup reads those lines from the ledger).
   */
  private async seal(view: IndexView): Promise<void> {
    const manifest = view.manifest;
    if (!manifest) return;
    const unlock = await this.lock(0);
    if (typeof unlock !== 'function') return;
    try {
      // Another process sealed or rebuilt since this view was read: leave it to the next lookup.
      if ((await this.readManifestText()) !== view.manifestText) return;
      const dir = path.join(this.directory, manifest.gen);
      const next: Manifest = { ...manifest, files: { ...manifest.files }, ledger: view.end };
      const texts = derive(view.tail, new Map(), true);
      const entries: string[] = [];
      const hashes = new Set<string>();
      for (const l of view.tail) if (l.op === 'begin') hashes.add(l.record.contentHash);
      for (const hash of hashes) for (const e of entryLines((await this.sources.rowsOf(hash))?.rows ?? [], hash)) entries.push(e);
      if (entries.length > 0) texts.set(manifest.pending, `\n${entries.join('\n')}\n`);
      next.pendingEntries += entries.length;
      let old: string | undefined;
      if (next.pendingEntries > PENDING_LIMIT) {
        // Compaction: the pending entries spread into their shards, and a new pending file begun.
        const sealed = (await view.sealed(manifest.pending))?.toString('latin1') ?? '';
        const spread = byRowShard([...entryLinesOf(sealed), ...entries]);
        texts.delete(manifest.pending);
        for (const [rel, text] of spread) texts.set(rel, text);
        delete next.files[manifest.pending];
        old = manifest.pending;
        next.pending = `rows-pending-${randomUUID()}.txt`;
        next.pendingEntries = 0;
      }
      await this.fs.mkdir(path.join(dir, 'rows'), { recursive: true, mode: 0o700 });
      await this.fs.mkdir(path.join(dir, CONTENT), { recursive: true, mode: 0o700 });
      await eachLimited([...texts], 8, async ([rel, text]) => {
        const file = path.join(dir, rel);
        await appendIndexFile(this.fs, file, Buffer.from(text, 'utf8'));
        const bytes = await this.fs.readFile(file);
        next.files[rel] = [bytes.length, checksum(bytes)];
      });
      await this.writeManifest(next);
      if (old) await this.fs.unlink(path.join(dir, old)).catch(() => undefined);
    } finally {
      await unlock();
    }
  }

  private async writeManifest(m: Manifest): Promise<void> {
    const file = path.join(this.directory, MANIFEST);
    const tmp = `${file}.${randomUUID()}.tmp`;
    await writeIndexFile(this.fs, tmp, Buffer.from(manifestText(m), 'utf8'));
    await this.fs.rename(tmp, file);
  }

  /**
   * Takes the index's lock: a function that releases it; 'released' when it was held and let go within
   * `waitMs` (the lock is then not taken); undefined when it is still held.
   */
  private async lock(waitMs: number): Promise<(() => Promise<void>) | 'released' | undefined> {
    const file = path.join(this.directory, LOCK);
    const me = `${process.pid} ${hostname()} ${Date.now()} ${randomUUID()}`;
    const tmp = `${file}.${randomUUID()}.tmp`;
    try {
      await this.fs.mkdir(this.directory, { recursive: true, mode: 0o700 });
      await writeIndexFile(this.fs, tmp, Buffer.from(me, 'utf8'));
    } catch {
      // No lock can be taken (a read-only folder, a full disk): the ledger is read instead.
      await this.fs.unlink(tmp).catch(() => undefined);
      return undefined;
    }
    const deadline = Date.now() + waitMs;
    let waited = false;
    try {
      // Bounded by the deadline (and one more round to break a stale lock).
      for (;;) {
        try {
          await this.fs.link(tmp, file);
          if (waited) {
            await this.fs.unlink(file).catch(() => undefined);
            return 'released';
          }
          return async () => {
            const held = await this.fs.readFile(file).catch(() => undefined);
            if (held?.toString('utf8') === me) await this.fs.unlink(file).catch(() => undefined);
          };
        } catch (err) {
          if ((err as NodeJS.ErrnoException).code !== 'EEXIST') return undefined;
        }
        if (await this.breakStale(file)) continue;
        if (Date.now() >= deadline) return undefined;
        waited = true;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    } finally {
      await this.fs.unlink(tmp).catch(() => undefined);
    }
  }

  /** Breaks a lock whose holder is gone (this host, no such process) or that is too old. */
  private async breakStale(file: string): Promise<boolean> {
    const text = (await this.fs.readFile(file).catch(() => undefined))?.toString('utf8');
    if (text === undefined) return true;
    const [pid, host, at] = text.split(' ');
    const gone = host === hostname() && !alive(Number(pid));
    if (!gone && Date.now() - Number(at) < LOCK_STALE_MS) return false;
    const aside = `${file}.stale-${randomUUID()}`;
    try {
      await this.fs.rename(file, aside);
    } catch {
      return true;
    }
    await this.fs.unlink(aside).catch(() => undefined);
    return true;
  }
}

function alive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The manifest file's text: its checksum, a line break, the manifest. */
export function manifestText(m: Manifest): string {
  const body = JSON.stringify(m);
  return `${checksum(Buffer.from(body, 'utf8'))}\n${body}`;
}

function parseManifest(text: string): Manifest | undefined {
  const nl = text.indexOf('\n');
  if (nl < 0) return undefined;
  const body = text.slice(nl + 1);
  if (checksum(Buffer.from(body, 'utf8')) !== text.slice(0, nl)) return undefined;
  try {
    const m = JSON.parse(body) as Partial<Manifest>;
    if (m.v !== 3 || typeof m.gen !== 'string' || !/^g-[0-9a-f-]{36}$/.test(m.gen) || typeof m.files !== 'object' || !m.ledger)
      return undefined;
    if (typeof m.pending !== 'string' || !/^rows-pending-[0-9a-f-]{36}\.txt$/.test(m.pending)) return undefined;
    return m as Manifest;
  } catch {
    return undefined;
  }
}

/** The checksum of the TAIL_CHECK bytes of `file` before `size`. */
async function tailSum(fs: LedgerFs, file: string, size: number): Promise<string> {
  const start = Math.max(0, size - TAIL_CHECK);
  const buf = Buffer.alloc(size - start);
  const handle = await fs.open(file, 'r');
  try {
    const { bytesRead } = await handle.read(buf, 0, buf.length, start);
    return checksum(buf.subarray(0, bytesRead));
  } finally {
    await handle.close();
  }
}

/**
 * The index files' texts for ledger lines: begins and completions to their content's shard, damage and
 * acknowledgements to the damage file; a completion whose begin is not among the lines goes to the orphans
 * (`sealing`: its begin was sealed earlier) or, in a rebuild, nowhere (its record does not exist).
 */
function derive(lines: readonly LedgerLine[], texts: Map<string, string>, sealing = false): Map<string, string> {
  const hashOf = new Map<string, string>();
  for (const l of lines) if (l.op === 'begin') hashOf.set(l.record.id, l.record.contentHash);
  const parts = new Map<string, string[]>();
  const push = (rel: string, text: string) => {
    let list = parts.get(rel);
    if (!list) parts.set(rel, (list = []));
    list.push(text);
  };
  for (const l of lines) {
    if (l.op === 'damage' || l.op === 'ack') push(DAMAGE, `\n${JSON.stringify(l)}\n`);
    else {
      const hash = l.op === 'begin' ? l.record.contentHash : (l.contentHash ?? hashOf.get(l.id));
      if (hash !== undefined) push(contentFile(hash), shardLine(hash, l));
      else if (sealing) push(ORPHANS, `\n${JSON.stringify(l)}\n`);
    }
  }
  for (const [rel, list] of parts) texts.set(rel, list.join(''));
  return texts;
}

/** Writes a new index file whole (0600, not fsynced: its checksum tells a lost write). */
async function writeIndexFile(fs: LedgerFs, file: string, bytes: Uint8Array): Promise<void> {
  await appendIndexFile(fs, file, bytes);
}

/** Appends bytes to a file of the index (created 0600), every byte written, not fsynced. */
async function appendIndexFile(fs: LedgerFs, file: string, bytes: Uint8Array): Promise<void> {
  await fs.mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
  const handle = await fs.open(file, 'a', 0o600);
  try {
    await writeFully(handle, bytes, file, false);
  } finally {
    await handle.close();
  }
}

/** Runs `work` on every item, at most `limit` at a time. */
export async function eachLimited<T>(items: readonly T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await work(items[next++]);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}
