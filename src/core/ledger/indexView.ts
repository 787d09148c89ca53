import * as path from 'node:path';
import { eachLimited } from './indexIo';
import { checksum, contentFile, DAMAGE, ORPHANS, prefixOf, type Manifest, type Watermark } from './indexManifest';
import type { LedgerFs } from './ledgerFs';
import { parseLine, type LedgerLine, type LedgerReading } from './records';
import { ENTRY, entriesOf, keyCount, lookupEntries, Wanted, type Keys } from './rowIndex';
import type { BatchRowKeys } from './rowKeys';

// A lookup's reading of the guard's index (ledgerIndex.ts): the generation's files as far as the manifest
// vouches for them (each checked against its entry when it is read, and only then), and the ledger's
// lines past the watermark (the tail), which every answer adds.

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

/** The index as one lookup reads it. */
export interface ViewParts {
  /** The generation's folder; undefined with no manifest (then the tail is the whole ledger). */
  genDir?: string;
  manifest?: Manifest;
  /** The manifest file's bytes, to tell whether it changed since. */
  manifestBytes?: Buffer;
  /** The ledger's lines the index does not hold yet, in append order. */
  tail: readonly LedgerLine[];
  /** How many bytes of the ledger the tail took. */
  tailBytes: number;
  /** Where the tail ends. */
  end: Watermark;
}

/** Most bytes of index files a process keeps once checked, and the largest file kept. */
const KEPT_BYTES = 16 << 20;
const KEPT_FILE = 1 << 20;

/**
 * Index files a process has read and checked, by path, with the entry they matched: while the manifest
 * gives a file the same entry, these bytes are the very bytes it vouches for, whatever became of the file
 * on disk since (a lookup never believes more than the manifest, and damage on disk is found by the next
 * read that misses here). A submit's lookups (both guards, the race check, same-payer) read each of its
 * shards once.
 */
export class CheckedFiles {
  private readonly files = new Map<string, { entry: string; bytes: Buffer }>();
  private bytes = 0;

  get(file: string, entry: string): Buffer | undefined {
    const kept = this.files.get(file);
    return kept?.entry === entry ? kept.bytes : undefined;
  }

  keep(file: string, entry: string, bytes: Buffer): void {
    if (bytes.length > KEPT_FILE) return;
    const old = this.files.get(file);
    if (old) this.bytes -= old.bytes.length;
    this.files.delete(file);
    this.files.set(file, { entry, bytes });
    this.bytes += bytes.length;
    for (const [name, kept] of this.files) {
      if (this.bytes <= KEPT_BYTES) break;
      this.files.delete(name);
      this.bytes -= kept.bytes.length;
    }
  }
}

export class IndexView {
  /** Files read once per view (content shards, orphans, damage): a lookup of many contents shares them. */
  private readonly once = new Map<string, Promise<Buffer | undefined>>();
  private orphans?: Promise<LedgerLine[]>;

  constructor(
    private readonly fs: LedgerFs,
    readonly parts: ViewParts,
    private readonly sources: IndexSources,
    private readonly checked = new CheckedFiles(),
  ) {}

  get tail(): readonly LedgerLine[] {
    return this.parts.tail;
  }

  /** A file's bytes as far as the manifest vouches for them; undefined when it lists none. Throws IndexDamage. */
  async sealed(rel: string): Promise<Buffer | undefined> {
    const { manifest, genDir } = this.parts;
    const entry = manifest?.entry(rel);
    if (entry === 'bad') throw new IndexDamage(`${rel}: its manifest entry`);
    if (!entry || genDir === undefined) return undefined;
    const [size, sum] = entry;
    const file = path.join(genDir, rel);
    const known = this.checked.get(file, `${size} ${sum}`);
    if (known) return known;
    let bytes: Buffer;
    try {
      bytes = await this.fs.readFile(file);
    } catch (err) {
      throw new IndexDamage(`${rel}: ${(err as NodeJS.ErrnoException).code ?? String(err)}`);
    }
    if (bytes.length < size) throw new IndexDamage(`${rel}: ${bytes.length} bytes, ${size} expected`);
    const mine = bytes.subarray(0, size);
    if (checksum(mine) !== sum) throw new IndexDamage(`${rel}: checksum`);
    this.checked.keep(file, `${size} ${sum}`, mine);
    return mine;
  }

  private sealedOnce(rel: string): Promise<Buffer | undefined> {
    let read = this.once.get(rel);
    if (!read) this.once.set(rel, (read = this.sealed(rel)));
    return read;
  }

  /** The lines of one content hash (or of the hashes starting with `contentHash`, when `prefix`), in append order. */
  async linesOf(contentHash: string, prefix = false): Promise<LedgerLine[]> {
    const matches = (hash: string | undefined) => hash !== undefined && (prefix ? hash.startsWith(contentHash) : hash === contentHash);
    const lines = shardLinesOf(
      (await this.sealedOnce(contentFile(contentHash)))?.toString('utf8') ?? '',
      prefix ? contentHash : `${prefixOf(contentHash)}\t`,
    );
    const ids = new Set<string>();
    for (const l of lines) if (l.op === 'begin') ids.add(l.record.id);
    for (const l of this.tail) if (l.op === 'begin' && matches(l.record.contentHash)) ids.add(l.record.id);
    if (ids.size > 0) for (const l of await this.orphanLines()) if (l.op === 'complete' && ids.has(l.id)) lines.push(l);
    for (const l of this.tail) {
      if (l.op === 'begin' ? matches(l.record.contentHash) : l.op === 'complete' && (matches(l.contentHash) || ids.has(l.id)))
        lines.push(l);
    }
    return lines;
  }

  private orphanLines(): Promise<LedgerLine[]> {
    this.orphans ??= this.sealedOnce(ORPHANS).then((bytes) => jsonLines(bytes));
    return this.orphans;
  }

  /** Damage and acknowledgement lines. */
  async damageLines(): Promise<LedgerLine[]> {
    const lines = jsonLines(await this.sealedOnce(DAMAGE));
    for (const l of this.tail) if (l.op === 'damage' || l.op === 'ack') lines.push(l);
    return lines;
  }

  /** The content hashes (their first 16 digits) each of `keys` was sent in (keys never sent are absent). */
  async lookupRows(keys: Keys): Promise<Map<string, Set<string>>> {
    const found = new Map<string, Set<string>>();
    if (keyCount(keys) === 0) return found;
    const wanted = new Wanted(keys);
    if (this.parts.manifest) lookupEntries(await this.sealedEntries(this.parts.manifest.head.pending), wanted, found);
    await eachLimited(wanted.shards(), 16, async (shard) => void lookupEntries(await this.sealedEntries(shard), wanted, found));
    const hashes = new Set<string>();
    for (const l of this.tail) if (l.op === 'begin') hashes.add(l.record.contentHash);
    for (const hash of hashes) {
      const rows = await this.sources.rowsOf(hash);
      if (rows) lookupEntries(entriesOf(rows.rows, hash), wanted, found);
    }
    return found;
  }

  /** A row file's vouched bytes (rowIndex.ts), which are whole entries or damage. */
  private async sealedEntries(rel: string): Promise<Buffer | undefined> {
    const bytes = await this.sealed(rel);
    if (bytes && bytes.length % ENTRY !== 0) throw new IndexDamage(`${rel}: ${bytes.length} bytes are not whole entries`);
    return bytes;
  }
}

/**
 * The ledger lines of a content shard's text whose line starts with `start`: only those are parsed; a torn
 * line (a sealer cut short) is skipped: the ledger has it.
 */
function shardLinesOf(text: string, start: string): LedgerLine[] {
  const lines: LedgerLine[] = [];
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
  return lines;
}

/** The ledger lines of a file of JSON lines (the orphans, the damage file); a torn one is skipped. */
function jsonLines(bytes: Buffer | undefined): LedgerLine[] {
  const lines: LedgerLine[] = [];
  for (const raw of (bytes?.toString('utf8') ?? '').split('\n')) {
    const line = raw.trim() === '' ? undefined : parseLine(raw.trim());
    if (line) lines.push(line);
  }
  return lines;
}
