import * as path from 'node:path';
import { locate, NOTHING, readUnread, watermarkOf } from './indexIo';
import { Manifest, MANIFEST, type Watermark } from './indexManifest';
import { takeLock } from './indexLock';
import { CheckedFiles, IndexDamage, IndexView, type IndexSources } from './indexView';
import { buildGeneration, sealView } from './indexWrite';
import type { LedgerFs } from './ledgerFs';
import type { Damage, LedgerLine } from './records';

export { eachLimited } from './indexIo';
export type { IndexSources } from './indexView';

// The guard's index: a cache derived from the ledger's lines and the sent batches' row records, never a
// source of its own. The ledger is the truth; a lookup reads the index's files only as far as a manifest
// vouches for them, and reads the rest from the ledger itself.
//
// `guard/manifest.txt` (indexManifest.ts: its own checksum first) names one generation folder `guard/g-<id>/`
// and says, for every file in it, how many bytes it vouches for and their checksum, and up to where the
// index covers the ledger: the live file's inode, a byte offset, and a checksum of the bytes before that
// offset (the watermark). A lookup reads the manifest, the files it needs (each checked against its entry:
// a file missing, shorter, or with other bytes is damage) and the ledger's lines past the watermark, which
// it adds in memory (indexView.ts). So an index that is missing, truncated, unreadable, partly deleted,
// filled with garbage or older than the ledger is never believed: damage is rebuilt into a new generation
// (the whole ledger and every batch's row records read once), staleness is caught up. Writers never touch
// the index on the way to a send: a kill at any instant leaves the ledger, and the index follows it.
//
// Files in a generation:
//   content/<abc>.txt  the ledger's begin and complete lines, by the first three hex digits of the content
//                      hash, each line `<hash>\t<ledger line>` (a lookup parses only its hash's lines)
//   orphans.jsonl      completions that name no content hash and whose begin was sealed earlier
//   damage.jsonl       damage marks and acknowledgements
//   rows-pending-<id>.bin, rows/<ab>.bin  the row keys' and payer keys' entries, binary, fixed-width (rowIndex.ts)
//
// Sealing (what lookups read past the watermark, appended to the files and vouched for by a new manifest:
// indexWrite.ts) waits until that tail is long (SEAL_LINES lines, SEAL_BYTES bytes or SEAL_ROWS rows):
// reading a short tail costs a lookup less than a seal costs a send, and the tail is read either way.
// Sealing and rebuilding happen under a lock (indexLock.ts), at most one process at a time; a lookup never
// waits for the lock unless the index must be rebuilt. A sealer killed midway leaves bytes past what the
// manifest vouches for: ignored by readers; in a text file (content, orphans, damage) kept by the next
// sealer (a torn line among them is skipped: the lines it held are read again from the ledger), in a row
// file (binary entries, which a torn one would put out of step) dropped: the next sealer writes the file
// anew from its vouched bytes (indexWrite.ts). Index files are not fsynced: after a power loss their
// checksums fail and the index is rebuilt.

export const GUARD_DIR = 'guard';
/** Where version 0.1 kept its index; removed once this one is built, like this version's earlier layouts. */
export const OLD_INDEX_DIR = 'index';
/** How long a lookup waits for another process's rebuild before reading the whole ledger itself. */
const REBUILD_WAIT_MS = 60_000;
/** The tail past the watermark a lookup reads rather than seal: ledger lines, bytes, and rows of its batches. */
export const SEAL_LINES = 32;
const SEAL_BYTES = 64 * 1024;
const SEAL_ROWS = 1024;

export interface IndexOptions {
  /** Ledger lines past the watermark a lookup leaves unsealed (default SEAL_LINES; 0: seals every tail). */
  sealLines?: number;
}

type Opened = { view: IndexView; damage?: Damage };
type WholeRead = { w: Watermark; lines: LedgerLine[]; damage?: Damage };

export class LedgerIndex {
  readonly directory: string;
  private readonly sealLines: number;
  /** Index files this process read and checked (indexView.ts). */
  private readonly checked = new CheckedFiles();

  constructor(
    private readonly ledgerDirectory: string,
    private readonly fs: LedgerFs,
    private readonly sources: IndexSources,
    options: IndexOptions = {},
  ) {
    this.directory = path.join(ledgerDirectory, GUARD_DIR);
    this.sealLines = options.sealLines ?? SEAL_LINES;
  }

  /**
   * Runs a lookup on the index. Damage found by it: the manifest read again (another process may have
   * rebuilt), else the index rebuilt and the lookup run again. A long tail past the watermark is then
   * sealed (best effort: the ledger keeps it either way). `damage`: ledger damage this read found.
   */
  async withView<T>(lookup: (view: IndexView) => Promise<T>, seal = true): Promise<{ value: T; damage?: Damage }> {
    // Without sealing (the race check on the way to a send) nothing is written: no rebuild either.
    let opened = await this.open(!seal);
    for (let attempt = 0; ; attempt++) {
      try {
        const value = await lookup(opened.view);
        if (seal && this.tailIsLong(opened.view)) await this.seal(opened.view).catch(() => undefined);
        return { value, ...(opened.damage ? { damage: opened.damage } : {}) };
      } catch (err) {
        if (!(err instanceof IndexDamage) || attempt >= 2) throw err;
      }
      const now = await this.readManifest();
      const changed = attempt === 0 && now !== undefined && !now.equals(opened.view.parts.manifestBytes ?? Buffer.alloc(0));
      opened = changed ? await this.open(!seal) : { ...(await this.rebuild(!seal)), damage: opened.damage };
    }
  }

  /** After a send: seals the tail past the watermark when it is long. */
  async tidy(): Promise<void> {
    const { view } = await this.open();
    if (this.tailIsLong(view)) await this.seal(view);
  }

  private tailIsLong(view: IndexView): boolean {
    const { tail, tailBytes } = view.parts;
    if (tail.length === 0 || !view.parts.manifest) return false;
    let rows = 0;
    for (const l of tail) if (l.op === 'begin') rows += l.record.rowCount;
    return tail.length >= this.sealLines || tailBytes >= SEAL_BYTES || rows >= SEAL_ROWS;
  }

  private async open(readOnly = false): Promise<Opened> {
    const files = await this.sources.files();
    if (files.length === 0) return { view: this.view(undefined, undefined, [], 0, NOTHING) };
    return (await this.openSealed(files)) ?? this.rebuild(readOnly);
  }

  /** The view the manifest vouches for and the tail past it; undefined when there is none to believe. */
  private async openSealed(files: readonly string[]): Promise<Opened | undefined> {
    const bytes = await this.readManifest();
    const manifest = bytes && Manifest.parse(bytes);
    const unread = manifest && (await locate(this.fs, files, manifest.head.ledger));
    const tail = unread && (await readUnread(this.fs, unread));
    return tail && { view: this.view(manifest, bytes, tail.lines, tail.bytes, tail.end) };
  }

  private view(
    manifest: Manifest | undefined,
    bytes: Buffer | undefined,
    tail: readonly LedgerLine[],
    tailBytes: number,
    end: Watermark,
  ): IndexView {
    const genDir = manifest ? path.join(this.directory, manifest.head.gen) : undefined;
    return new IndexView(this.fs, { genDir, manifest, manifestBytes: bytes, tail, tailBytes, end }, this.sources, this.checked);
  }

  private readManifest(): Promise<Buffer | undefined> {
    return this.fs.readFile(path.join(this.directory, MANIFEST)).catch(() => undefined);
  }

  /**
   * Builds a new generation from the whole ledger and every batch's row records, under the lock (waiting
   * for another process's rebuild first); without the lock, the whole ledger read serves as the view.
   */
  private async rebuild(readOnly = false): Promise<Opened> {
    if (readOnly) return this.wholeRead({ w: NOTHING, ...(await this.readAll()) });
    const unlock = await takeLock(this.fs, this.directory, REBUILD_WAIT_MS);
    if (unlock === 'released') {
      // Another process held the lock and let it go: its rebuild may serve.
      const theirs = await this.openSealed(await this.sources.files());
      if (theirs) return theirs;
    }
    const unlockNow = typeof unlock === 'function' ? unlock : await takeLock(this.fs, this.directory, 0);
    const whole = await this.readWhole();
    if (typeof unlockNow !== 'function') return this.wholeRead(whole);
    try {
      return await this.build(whole);
    } catch {
      // An index that cannot be written (a read-only folder, a full disk): the whole read serves.
      return this.wholeRead(whole);
    } finally {
      await unlockNow();
    }
  }

  private async readAll(): Promise<{ lines: LedgerLine[]; damage?: Damage }> {
    const all = await this.sources.readAll();
    return { lines: all.lines, ...(all.reading.damage ? { damage: all.reading.damage } : {}) };
  }

  /** The watermark before a whole read: lines appended meanwhile are both in the read and past it (twice folds into one). */
  private async readWhole(): Promise<WholeRead> {
    const w = await watermarkOf(this.fs, await this.sources.files());
    const first = await this.readAll();
    if (!first.damage) return { w, ...first };
    // Damage was moved aside by the read (the ledger's files changed): read again, and tell the damage found.
    const again = await this.readAll();
    return { w: await watermarkOf(this.fs, await this.sources.files()), lines: again.lines, damage: first.damage };
  }

  /** A new generation from a whole read (the lock held), and the view of it. */
  private async build(whole: WholeRead): Promise<Opened> {
    await buildGeneration(this.fs, this.directory, this.sources, whole.lines, whole.w);
    await this.fs.removeTree(path.join(this.ledgerDirectory, OLD_INDEX_DIR)).catch(() => undefined);
    const built = await this.openSealed(await this.sources.files());
    if (!built) return this.wholeRead(whole);
    return { view: built.view, ...(whole.damage ? { damage: whole.damage } : {}) };
  }

  private wholeRead(whole: WholeRead): Opened {
    return { view: this.view(undefined, undefined, whole.lines, 0, whole.w), ...(whole.damage ? { damage: whole.damage } : {}) };
  }

  /** Seals a view's tail under the lock (none taken: nothing done, the next lookup reads those lines from the ledger). */
  private async seal(view: IndexView): Promise<void> {
    if (!view.parts.manifest) return;
    const unlock = await takeLock(this.fs, this.directory, 0);
    if (typeof unlock !== 'function') return;
    try {
      await sealView(this.fs, this.directory, view, this.sources);
    } finally {
      await unlock();
    }
  }
}
