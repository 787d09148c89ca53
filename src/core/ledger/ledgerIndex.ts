import * as path from 'node:path';
import { scanLines, writeFully, type LedgerFs } from './ledgerFs';
import { parseLine, type LedgerLine } from './records';

// The guard's index, so a submit does not read the whole history: every begin and completion line is
// also appended (fsynced, before the request leaves) to one of 4,096 shard files named by the first three
// hex digits of the content hash, and damage and acknowledgements to `damage.jsonl`. The guard reads one
// shard (about 1/4,096 of the history: some 250 records at a million) and the damage file. `complete` marks an index this version built;
// without it, or with an unreadable shard line, the guard reads the whole ledger and rebuilds the index.

export const INDEX_DIR = 'index';
const COMPLETE = 'complete';

export function shardName(contentHash: string): string {
  const hh = /^[0-9a-f]{3}/i.exec(contentHash)?.[0].toLowerCase();
  return hh ? `${hh}.jsonl` : 'other.jsonl';
}

export class LedgerIndex {
  readonly directory: string;

  constructor(
    ledgerDirectory: string,
    private readonly fs: LedgerFs,
  ) {
    this.directory = path.join(ledgerDirectory, INDEX_DIR);
  }

  async isComplete(): Promise<boolean> {
    return this.fs.stat(path.join(this.directory, COMPLETE)).then(
      () => true,
      () => false,
    );
  }

  /** Which index file a line belongs in (undefined: none). */
  fileFor(line: LedgerLine, contentHash?: string): string | undefined {
    if (line.op === 'damage' || line.op === 'ack') return 'damage.jsonl';
    const hash = line.op === 'begin' ? line.record.contentHash : (line.contentHash ?? contentHash);
    return hash === undefined ? undefined : shardName(hash);
  }

  async append(name: string, text: string): Promise<void> {
    await this.fs.mkdir(this.directory, { recursive: true, mode: 0o700 });
    const file = path.join(this.directory, name);
    const handle = await this.fs.open(file, 'a', 0o600);
    try {
      await writeFully(handle, Buffer.from(text, 'utf8'), file);
    } finally {
      await handle.close();
    }
  }

  /** The lines of one index file; undefined when one is unreadable (the caller reads the ledger instead). */
  async read(name: string): Promise<LedgerLine[] | undefined> {
    const lines: LedgerLine[] = [];
    let broken = false;
    await scanLines(this.fs, path.join(this.directory, name), (raw) => {
      const t = raw.trim();
      if (t === '') return;
      const line = parseLine(t);
      if (line) lines.push(line);
      else broken = true;
    });
    return broken ? undefined : lines;
  }

  /** Rebuilds the index from every line of the ledger (begins first, so completions find their hash). */
  async rebuild(lines: readonly LedgerLine[]): Promise<void> {
    const hashOf = new Map<string, string>();
    for (const l of lines) if (l.op === 'begin') hashOf.set(l.record.id, l.record.contentHash);
    const shards = new Map<string, string[]>();
    for (const l of lines) {
      const name = this.fileFor(l, l.op === 'complete' ? hashOf.get(l.id) : undefined);
      if (name === undefined) continue;
      let list = shards.get(name);
      if (!list) shards.set(name, (list = []));
      list.push(`\n${JSON.stringify(l)}\n`);
    }
    for (const [name, list] of shards) {
      // In slices, so one large shard is never one huge string.
      for (let i = 0; i < list.length; i += 10_000) await this.append(name, list.slice(i, i + 10_000).join(''));
    }
    await this.append(COMPLETE, `${new Date(0).toISOString()}\n`);
  }
}
