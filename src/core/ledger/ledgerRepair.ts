import { randomUUID } from 'node:crypto';
import * as path from 'node:path';
import { damageMark, readLedgerFile, stamp, type FileRead } from './files';
import type { LedgerFs } from './ledgerFs';
import { foldLines, marksOf, type Damage, type LedgerLine, type LedgerReading } from './records';

// The ledger's whole read (ledger.ts): every file's lines, and damage moved aside. A torn or unreadable
// line anywhere is damage: the file is moved aside whole (ledger.damaged-<time>), its readable lines are
// appended to a fresh ledger with a "damage" line that remembers what the damaged lines named. The one
// exception is a begin line whose own writer failed and said so with a "withdrawn" completion: that
// request was never sent.

/** What the whole read needs of the ledger: where it is, and how it appends. */
export interface LedgerWriter {
  fs: LedgerFs;
  directory: string;
  now(): Date;
  /** Appends text to the live file (lines each starting with a line break). */
  appendText(text: string): Promise<void>;
  /** Tells this process's listeners the ledger changed. */
  changed(): void;
}

/** Every line of `files` (archives first, then the live one), folded; damage found is moved aside and told. */
export async function readWholeLedger(w: LedgerWriter, files: readonly string[]): Promise<{ reading: LedgerReading; lines: LedgerLine[] }> {
  const lines: LedgerLine[] = [];
  const reads: [string, FileRead][] = [];
  for (const file of files) {
    const read = await readLedgerFile(w.fs, file);
    for (const line of read.lines) lines.push(line);
    reads.push([file, read]);
  }
  const withdrawn = new Set<string>();
  for (const l of lines) if (l.op === 'complete' && l.completion.outcome === 'withdrawn') withdrawn.add(l.id);
  let damage: Damage | undefined;
  let tornLines = 0;
  for (const [file, read] of reads) {
    // A begin cut short by its own writer, which then recorded it as withdrawn: never sent, not damage.
    const broken = read.broken.filter((b) => b.id === undefined || !withdrawn.has(b.id));
    tornLines += read.broken.length - broken.length;
    if (broken.length > 0) damage = (await moveAside(w, file, read, broken, lines)) ?? damage;
  }
  return { reading: { records: foldLines(lines), tornLines, ...marksOf(lines), ...(damage ? { damage } : {}) }, lines };
}

/**
 * Moves a damaged ledger file (the live one or an archive) aside whole and appends its readable lines,
 * and a "damage" line naming what the broken lines held, to the live ledger. Another process may be
 * doing the same: only the one that renames the very file it read does it (the others find the inode
 * changed and read the repaired ledger next time).
 */
async function moveAside(
  w: LedgerWriter,
  file: string,
  read: FileRead,
  broken: FileRead['broken'],
  all: LedgerLine[],
): Promise<Damage | undefined> {
  const movedTo = path.join(w.directory, `ledger.damaged-${stamp(w.now())}-${randomUUID().slice(0, 8)}`);
  try {
    if ((await w.fs.stat(file)).ino !== read.ino) return undefined;
    await w.fs.rename(file, movedTo);
  } catch {
    return undefined;
  }
  const damage = damageMark(read.lines, broken, movedTo, w.now());
  const mark: LedgerLine = { ledger: 1, op: 'damage', damage };
  await appendLines(w, read.lines);
  await w.appendText(`\n${JSON.stringify(mark)}\n`);
  all.push(mark);
  w.changed();
  return damage;
}

/** Appends lines in chunks of about 1 MiB (a repaired ledger may carry many). */
async function appendLines(w: LedgerWriter, lines: readonly LedgerLine[]): Promise<void> {
  let text = '';
  for (const l of lines) {
    text += `\n${JSON.stringify(l)}\n`;
    if (text.length >= 1 << 20) {
      await w.appendText(text);
      text = '';
    }
  }
  if (text !== '') await w.appendText(text);
}
