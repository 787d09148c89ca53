import { randomUUID } from 'node:crypto';
import * as path from 'node:path';
import { scanLines, writeFully, type LedgerFs } from './ledgerFs';
import { parseLine, type DamageMark, type LedgerLine } from './records';

// The ledger's writer and its files: appends that land in the live file even while another process
// rotates it or moves it aside, the archives in time order, and what a damaged file's broken lines named.

export const LEDGER_FILE = 'ledger.jsonl';
const ARCHIVE = /^ledger-[\dTZ-]+\.jsonl$/;

export function stamp(d: Date): string {
  return d.toISOString().replace(/[:.]/g, '-');
}

/** Archives in name (time) order, then the current file. */
export async function ledgerFiles(fs: LedgerFs, directory: string): Promise<string[]> {
  let names: string[];
  try {
    names = await fs.readdir(directory);
  } catch {
    return [];
  }
  const files = names
    .filter((n) => ARCHIVE.test(n))
    .sort()
    .map((n) => path.join(directory, n));
  if (names.includes(LEDGER_FILE)) files.push(path.join(directory, LEDGER_FILE));
  return files;
}

/** A damaged file's mark: the content hashes its broken lines still name, and how many name nothing. */
export function damageMark(
  lines: readonly LedgerLine[],
  broken: readonly { id?: string; contentHash?: string }[],
  movedTo: string,
  at: Date,
): DamageMark {
  const begun = new Set(lines.filter((l) => l.op === 'begin').map((l) => (l as { record: { id: string } }).record.id));
  const hashes = new Set<string>();
  let unidentified = 0;
  for (const b of broken) {
    if (b.contentHash !== undefined) hashes.add(b.contentHash);
    // A cut completion of a readable record leaves that record "sending": the guard holds it already.
    else if (b.id === undefined || !begun.has(b.id)) unidentified++;
  }
  return {
    id: randomUUID(),
    at: at.toISOString(),
    movedTo,
    unreadableLines: broken.length,
    keptLines: lines.length,
    contentHashes: [...hashes],
    unidentified,
  };
}

const ID_IN_TEXT = /"id":"([^"]{1,80})"/;
// Only a whole SHA-256 names a batch: a hash damaged with its line names none (the line counts as unidentified).
const HASH_IN_TEXT = /"contentHash":"([0-9a-f]{64})"/;

export interface FileRead {
  lines: LedgerLine[];
  /** Unparseable lines with what could be read of them. */
  broken: { id?: string; contentHash?: string }[];
  ino?: number;
}

/** One ledger file's readable lines, and what can be read of its broken ones. */
export async function readLedgerFile(fs: LedgerFs, file: string): Promise<FileRead> {
  const lines: LedgerLine[] = [];
  const broken: FileRead['broken'] = [];
  const { ino, size } = await scanLines(fs, file, (raw) => {
    const t = raw.trim();
    if (t === '') return;
    const line = parseLine(t);
    if (line) lines.push(line);
    else broken.push({ id: ID_IN_TEXT.exec(t)?.[1], contentHash: HASH_IN_TEXT.exec(t)?.[1] });
  });
  // Bytes but not one line: a file cut inside its first line (the writer never leaves that).
  if ((size ?? 0) > 0 && lines.length === 0 && broken.length === 0) broken.push({});
  return { lines, broken, ino };
}

export class Appender {
  constructor(
    private readonly fs: LedgerFs,
    private readonly directory: string,
    private readonly file: string,
    private readonly rotateBytes: number,
    private readonly now: () => Date,
  ) {}

  async appendText(text: string): Promise<void> {
    await this.fs.mkdir(this.directory, { recursive: true, mode: 0o700 });
    const bytes = Buffer.from(text, 'utf8');
    // Bounded: the file is moved (rotation, repair) rarely, so two attempts in a row are already unusual.
    for (let attempt = 0; attempt < 5; attempt++) {
      const handle = await this.fs.open(this.file, 'a', 0o600);
      let written: number;
      try {
        await writeFully(handle, bytes, this.file);
        const stat = await handle.stat();
        written = stat.ino;
        if (stat.size > this.rotateBytes) await this.rotate(written);
      } finally {
        await handle.close();
      }
      // The file moved between open and write (rotated or moved aside): the line is in an archive or the
      // damaged copy; append again so the live ledger has it (a repeated line folds into the same record).
      const current = await this.fs.stat(this.file).catch(() => undefined);
      if (current === undefined || current.ino === written || (await this.isArchive(written))) return;
    }
    throw new Error(`cannot append to the submission ledger ${this.file}: it keeps being moved`);
  }

  private async isArchive(ino: number): Promise<boolean> {
    for (const f of await ledgerFiles(this.fs, this.directory)) {
      if (f !== this.file && (await this.fs.stat(f).catch(() => undefined))?.ino === ino) return true;
    }
    return false;
  }

  private async rotate(ino: number): Promise<void> {
    const target = path.join(this.directory, `ledger-${stamp(this.now())}.jsonl`);
    try {
      if ((await this.fs.stat(this.file)).ino !== ino) return;
      await this.fs.rename(this.file, target);
    } catch {
      /* another process rotated it first */
    }
  }
}
