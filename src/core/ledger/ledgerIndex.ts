import * as path from 'node:path';
import { readWhole, writeFully, type LedgerFs } from './ledgerFs';
import { parseLine, type LedgerLine } from './records';

// The guard's index, so a submit does not read the whole history. Every begin and completion line is also
// appended (fsynced, before the request leaves) to one of 4,096 shard files named by the first three hex
// digits of the content hash, `guard/content/<abc>.txt`, and damage and acknowledgements to
// `guard/damage.jsonl`. Each shard line starts with its content hash and a tab, so a read picks the lines
// of one hash by that prefix and parses only them: about 1/4,096 of the history is read (some 250 records
// at a million) and a handful of lines parsed, however long the history.
//
// `guard/complete` marks an index this version built. Without it (a new ledger, the 0.1 index in `index/`,
// or an index a 0.1 process rebuilt since: its `index/complete` reappears), or with a line of the shard
// read that cannot be attributed or parsed, the guard reads the whole ledger and builds the index again;
// the 0.1 index is then removed. A rebuild appends every line of the ledger, so nothing is lost (the
// migration test reads every record of an 0.1 ledger back through the new index).

export const GUARD_DIR = 'guard';
/** Where version 0.1 kept its index (whole ledger lines, no prefix); removed once this one is built. */
export const OLD_INDEX_DIR = 'index';
const COMPLETE = 'complete';
const DAMAGE = 'damage.jsonl';
const CONTENT = 'content';
/** The prefix of the mark a rebuild leaves at the end of every shard. */
const REBUILT = 'rebuilt';

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

/** Appends text to a file of the index (created 0600), every byte written and fsynced. */
export async function appendIndexFile(fs: LedgerFs, file: string, text: string): Promise<void> {
  await fs.mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
  const handle = await fs.open(file, 'a', 0o600);
  try {
    await writeFully(handle, Buffer.from(text, 'utf8'), file);
  } finally {
    await handle.close();
  }
}

export class LedgerIndex {
  readonly directory: string;

  constructor(
    private readonly ledgerDirectory: string,
    private readonly fs: LedgerFs,
  ) {
    this.directory = path.join(ledgerDirectory, GUARD_DIR);
  }

  /** Built by this version, and no 0.1 process has rebuilt its own index since (it would lack that send). */
  async isComplete(): Promise<boolean> {
    const exists = (p: string) =>
      this.fs.stat(p).then(
        () => true,
        () => false,
      );
    if (!(await exists(path.join(this.directory, COMPLETE)))) return false;
    return !(await exists(path.join(this.ledgerDirectory, OLD_INDEX_DIR, COMPLETE)));
  }

  /** Appends a ledger line to its index file; `contentHash` names a completion's shard when the line does not. */
  async add(line: LedgerLine, contentHash?: string): Promise<void> {
    if (line.op === 'damage' || line.op === 'ack')
      return appendIndexFile(this.fs, path.join(this.directory, DAMAGE), `\n${JSON.stringify(line)}\n`);
    const hash = line.op === 'begin' ? line.record.contentHash : (line.contentHash ?? contentHash);
    if (hash === undefined) return;
    await appendIndexFile(this.fs, this.shardFile(hash), shardLine(hash, line));
  }

  private shardFile(contentHash: string): string {
    return path.join(this.directory, CONTENT, `${shardName(contentHash)}.txt`);
  }

  /**
   * The lines of one content hash (or of the hashes starting with `contentHash`, when `prefix`), in append
   * order; undefined when the shard holds a line that cannot be read (cut before its hash, or a line of
   * this hash that does not parse): the caller reads the ledger.
   */
  async linesOf(contentHash: string, prefix = false): Promise<LedgerLine[] | undefined> {
    const text = await readWhole(this.fs, this.shardFile(contentHash));
    if (text === undefined) return [];
    const start = prefix ? contentHash : `${prefixOf(contentHash)}\t`;
    const lines: LedgerLine[] = [];
    // A torn line is damage until a rebuild's mark follows it (the rebuild appended every whole line again).
    // Every line is looked at, without cutting the others out of the text: only this hash's are parsed.
    let torn = false;
    for (let at = 0; at < text.length;) {
      const end = text.indexOf('\n', at);
      const next = end < 0 ? text.length : end;
      if (next > at) {
        const tab = text.indexOf('\t', at);
        if (tab < 0 || tab > next) torn = true;
        else if (tab === at + REBUILT.length && text.startsWith(REBUILT, at)) torn = false;
        else if (text.startsWith(start, at)) {
          const line = parseLine(text.slice(tab + 1, next));
          if (line) lines.push(line);
          else torn = true;
        }
      }
      at = next + 1;
    }
    return torn ? undefined : lines;
  }

  /** Damage and acknowledgement lines; undefined when one is unreadable. */
  async damageLines(): Promise<LedgerLine[] | undefined> {
    const text = await readWhole(this.fs, path.join(this.directory, DAMAGE));
    const lines: LedgerLine[] = [];
    for (const raw of (text ?? '').split('\n')) {
      const t = raw.trim();
      if (t === '') continue;
      const line = parseLine(t);
      if (!line) return undefined;
      lines.push(line);
    }
    return lines;
  }

  /**
   * Builds the index again from every line of the ledger (begins first, so completions find their hash),
   * in place: lines are appended to the shards as they stand (a line twice folds into one record), and a
   * writer appending meanwhile loses nothing. Every shard then ends with a `rebuilt` mark: a torn line
   * before it is covered by the whole lines the rebuild appended after it. `more` adds the row keys'
   * index (rowIndex.ts). Last, the 0.1 index is removed.
   */
  async rebuild(lines: readonly LedgerLine[], more?: () => Promise<void>): Promise<void> {
    const hashOf = new Map<string, string>();
    for (const l of lines) if (l.op === 'begin') hashOf.set(l.record.id, l.record.contentHash);
    const files = new Map<string, string[]>();
    const push = (file: string, text: string) => {
      let list = files.get(file);
      if (!list) files.set(file, (list = []));
      list.push(text);
    };
    const contentDir = path.join(this.directory, CONTENT);
    await this.fs.mkdir(contentDir, { recursive: true, mode: 0o700 });
    for (const name of await this.fs.readdir(contentDir)) push(path.join(contentDir, name), '');
    for (const l of lines) {
      if (l.op === 'damage' || l.op === 'ack') push(path.join(this.directory, DAMAGE), `\n${JSON.stringify(l)}\n`);
      else {
        const hash = l.op === 'begin' ? l.record.contentHash : (l.contentHash ?? hashOf.get(l.id));
        if (hash !== undefined) push(this.shardFile(hash), shardLine(hash, l));
      }
    }
    const mark = `\n${REBUILT}\t${new Date().toISOString()}\n`;
    // Several files at a time: fsyncs of different files overlap (a 1M-record ledger has 4,096 shards).
    await eachLimited([...files], 8, async ([file, list]) => {
      for (let i = 0; i < list.length; i += 10_000) await appendIndexFile(this.fs, file, list.slice(i, i + 10_000).join(''));
      if (path.dirname(file) === contentDir) await appendIndexFile(this.fs, file, mark);
    });
    if (more) await more();
    await appendIndexFile(this.fs, path.join(this.directory, COMPLETE), `${new Date(0).toISOString()}\n`);
    await this.fs.removeTree(path.join(this.ledgerDirectory, OLD_INDEX_DIR));
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
