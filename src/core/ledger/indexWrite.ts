import { randomUUID } from 'node:crypto';
import * as path from 'node:path';
import { appendIndexFile, eachLimited, writeIndexFile } from './indexIo';
import {
  checksum,
  CONTENT,
  contentFile,
  DAMAGE,
  INDEX_VERSION,
  Manifest,
  MANIFEST,
  ORPHANS,
  shardLine,
  type FileEntry,
  type Watermark,
} from './indexManifest';
import type { IndexSources, IndexView } from './indexView';
import type { LedgerFs } from './ledgerFs';
import type { LedgerLine } from './records';
import { byRowShard, entriesOf, entryCount, PENDING_LIMIT, ROWS } from './rowIndex';

// How the guard's index (ledgerIndex.ts) is written, always under its lock: a new generation built whole
// from the ledger and the batches' row records (a rebuild), or a seal: what lookups read past the
// watermark appended to the generation's files and vouched for by a new manifest.

/** Files of this version's earlier layouts, removed by a rebuild. */
const LEGACY = ['content', 'rows', 'damage.jsonl', 'complete', 'rows-pending.txt', 'manifest.json'];
/** Row entries a rebuild holds in memory before it writes them to their shards. */
const SPREAD_ROUND = 200_000;

/** Writes a new generation (every file, then the manifest), then removes the older ones and older layouts. */
export async function buildGeneration(
  fs: LedgerFs,
  directory: string,
  sources: IndexSources,
  lines: readonly LedgerLine[],
  w: Watermark,
): Promise<void> {
  const gen = `g-${randomUUID()}`;
  const dir = path.join(directory, gen);
  const files = new Map<string, FileEntry>();
  await fs.mkdir(path.join(dir, CONTENT), { recursive: true, mode: 0o700 });
  await eachLimited([...derive(lines)], 8, async ([rel, text]) => {
    const bytes = Buffer.from(text, 'utf8');
    await writeIndexFile(fs, path.join(dir, rel), bytes);
    files.set(rel, [bytes.length, checksum(bytes)]);
  });
  for (const rel of await writeRowShards(fs, dir, sources)) files.set(rel, await entryOf(fs, path.join(dir, rel)));
  const head = { v: INDEX_VERSION, gen, ledger: w, pending: newPending(), pendingEntries: 0 };
  await writeManifest(fs, directory, Manifest.of(head, files));
  for (const name of await fs.readdir(directory).catch(() => [] as string[]))
    if ((name.startsWith('g-') && name !== gen) || LEGACY.includes(name) || name.startsWith('rows-pending'))
      await fs.removeTree(path.join(directory, name)).catch(() => undefined);
}

/** Every batch's row records into the row shards, in rounds (memory stays bounded); the shards written. */
async function writeRowShards(fs: LedgerFs, dir: string, sources: IndexSources): Promise<Set<string>> {
  await fs.mkdir(path.join(dir, ROWS), { recursive: true, mode: 0o700 });
  const touched = new Set<string>();
  let pending: Buffer[] = [];
  let held = 0;
  const spread = async () => {
    await eachLimited([...byRowShard(pending)], 8, async ([rel, bytes]) => {
      touched.add(rel);
      await appendIndexFile(fs, path.join(dir, rel), bytes);
    });
    pending = [];
    held = 0;
  };
  for (const hash of await sources.batchHashes()) {
    const entries = entriesOf((await sources.rowsOf(hash))?.rows ?? [], hash);
    pending.push(entries);
    held += entryCount(entries);
    if (held >= SPREAD_ROUND) await spread();
  }
  await spread();
  return touched;
}

/**
 * Appends what a view read past the watermark to the generation's files and vouches for them in a new
 * manifest. The caller holds the lock; another process sealed or rebuilt since the view was read: nothing
 * is done (the next lookup reads those lines from the ledger).
 */
export async function sealView(fs: LedgerFs, directory: string, view: IndexView, sources: IndexSources): Promise<void> {
  const { manifest, manifestBytes, tail, end } = view.parts;
  if (!manifest || !manifestBytes) return;
  const now = await fs.readFile(path.join(directory, MANIFEST)).catch(() => undefined);
  if (!now?.equals(manifestBytes)) return;
  const dir = path.join(directory, manifest.head.gen);
  const texts = derive(tail, true);
  const entries = await tailEntries(tail, sources);
  const head = { ...manifest.head, ledger: end, pendingEntries: manifest.head.pendingEntries + entryCount(entries) };
  const changes = new Map<string, FileEntry | undefined>();
  const rowFiles = new Map<string, Buffer>();
  let old: string | undefined;
  if (head.pendingEntries <= PENDING_LIMIT) {
    if (entries.length > 0) rowFiles.set(head.pending, entries);
  } else {
    // Compaction: the pending entries spread into their shards, and a new pending file begun.
    const sealed = (await view.sealed(head.pending)) ?? Buffer.alloc(0);
    for (const [rel, bytes] of byRowShard([sealed, entries])) rowFiles.set(rel, bytes);
    changes.set((old = head.pending), undefined);
    Object.assign(head, { pending: newPending(), pendingEntries: 0 });
  }
  await fs.mkdir(path.join(dir, ROWS), { recursive: true, mode: 0o700 });
  await fs.mkdir(path.join(dir, CONTENT), { recursive: true, mode: 0o700 });
  await eachLimited([...texts], 8, async ([rel, text]) => {
    const file = path.join(dir, rel);
    await appendIndexFile(fs, file, Buffer.from(text, 'utf8'));
    changes.set(rel, await entryOf(fs, file));
  });
  await eachLimited([...rowFiles], 8, async ([rel, bytes]) => {
    changes.set(rel, await appendEntries(fs, dir, view, rel, bytes));
  });
  // The old pending file's entry is dropped under the old head (its name has no place under the new one).
  await writeManifest(fs, directory, manifest.with(manifest.head, changes).with(head, new Map()));
  if (old) await fs.unlink(path.join(dir, old)).catch(() => undefined);
}

/** The row entries of the batches the tail began. */
async function tailEntries(tail: readonly LedgerLine[], sources: IndexSources): Promise<Buffer> {
  const entries: Buffer[] = [];
  const hashes = new Set<string>();
  for (const l of tail) if (l.op === 'begin') hashes.add(l.record.contentHash);
  for (const hash of hashes) entries.push(entriesOf((await sources.rowsOf(hash))?.rows ?? [], hash));
  return Buffer.concat(entries);
}

/**
 * Adds entries to a row file of the generation and returns its manifest entry. The entries are appended
 * only right after the bytes the manifest vouches for: a sealer killed midway may have left part of an
 * entry past them, and an entry appended after that would be read out of step. So when the file is not
 * exactly its vouched bytes, it is written anew (the vouched bytes, then the entries) under another name
 * and renamed into place; either way its vouched bytes stay its first bytes, so a lookup of the older
 * manifest still reads them. The manifest's entry is made of the bytes meant, not read back: a file that
 * is not those bytes fails its checksum at the next read, and the index is rebuilt.
 */
async function appendEntries(fs: LedgerFs, dir: string, view: IndexView, rel: string, bytes: Buffer): Promise<FileEntry> {
  const file = path.join(dir, rel);
  const vouched = (await view.sealed(rel)) ?? Buffer.alloc(0);
  const size = await fs.stat(file).then(
    (s) => s.size,
    () => 0,
  );
  const whole = Buffer.concat([vouched, bytes]);
  if (size === vouched.length) await appendIndexFile(fs, file, bytes);
  else {
    const tmp = `${file}.${randomUUID()}.tmp`;
    await writeIndexFile(fs, tmp, whole);
    await fs.rename(tmp, file);
  }
  return [whole.length, checksum(whole)];
}

/** A file's entry for the manifest: its size and checksum as it is now. */
async function entryOf(fs: LedgerFs, file: string): Promise<FileEntry> {
  const bytes = await fs.readFile(file);
  return [bytes.length, checksum(bytes)];
}

const newPending = () => `rows-pending-${randomUUID()}.bin`;

async function writeManifest(fs: LedgerFs, directory: string, m: Manifest): Promise<void> {
  const file = path.join(directory, MANIFEST);
  const tmp = `${file}.${randomUUID()}.tmp`;
  await writeIndexFile(fs, tmp, m.bytes());
  await fs.rename(tmp, file);
}

/**
 * The index files' texts for ledger lines: begins and completions to their content's shard, damage and
 * acknowledgements to the damage file; a completion whose begin is not among the lines goes to the orphans
 * (`sealing`: its begin was sealed earlier) or, in a rebuild, nowhere (its record does not exist).
 */
function derive(lines: readonly LedgerLine[], sealing = false): Map<string, string> {
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
  return new Map([...parts].map(([rel, list]) => [rel, list.join('')]));
}
