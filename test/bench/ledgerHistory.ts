import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { appendFileSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { GUARD_DIR } from '../../src/core/ledger/ledgerIndex';
import { checksum, Manifest, MANIFEST, shardLine, shardName, type FileEntry } from '../../src/core/ledger/indexManifest';
import { TAIL_CHECK } from '../../src/core/ledger/indexIo';
import type { LedgerLine, NewSubmission } from '../../src/core/ledger';
import { orderKey } from '../../src/core/ledger/rowKeys';
import { HASH_DIGITS, PENDING_LIMIT, rowShard } from '../../src/core/ledger/rowIndex';
import { LedgerSecret } from '../../src/core/ledger/secret';

// A ledger as years of use leave it, written straight to disk for the benches: 64 MiB archives and the live
// file, the guard's index (one generation: hash-prefixed content shards, the row index's shards and a
// pending file half full, as between two compactions, and the manifest that vouches for them up to the
// ledger's end) and the ledger's key. Each record's rows are the ids `rowIds(i)` gives.

export function benchEntry(i: number, tag: string, rowCount = 1): NewSubmission {
  return {
    face: 'cli',
    pid: 4242,
    host: 'bench',
    environment: 'local',
    production: false,
    endpointId: '1001',
    endpoint: 'http://127.0.0.1:8787/paygate/api/v4/create-recurring-payments/1001/',
    file: `/home/merchant/batches/${tag}-${i}.rpcsv`,
    rowCount,
    contentHash: createHash('sha256').update(`${tag}-${i}`).digest('hex'),
    signatureMethod: 'RSA-SHA256',
  };
}

class Buffered {
  private readonly files = new Map<string, string[]>();
  private size = 0;
  push(file: string, text: string): void {
    let list = this.files.get(file);
    if (!list) this.files.set(file, (list = []));
    list.push(text);
    this.size += text.length;
    if (this.size > 64 * 1024 * 1024) this.flush();
  }
  flush(): void {
    for (const [file, list] of this.files) appendFileSync(file, list.join(''));
    this.files.clear();
    this.size = 0;
  }
}

/** Writes `records` accepted submissions to `dir`; record i held the rows `rowIds(i)`. */
export function writeHistory(dir: string, records: number, rowIds: (i: number) => readonly string[]): void {
  const gen = `g-${randomUUID()}`;
  const pending = `rows-pending-${randomUUID()}.txt`;
  const guard = join(dir, GUARD_DIR, gen);
  mkdirSync(join(guard, 'content'), { recursive: true });
  mkdirSync(join(guard, 'rows'), { recursive: true });
  const keyHex = randomBytes(32).toString('hex');
  writeFileSync(join(dir, 'ledger.key'), `${keyHex}\n`, { mode: 0o600 });
  const secret = LedgerSecret.fromHex(keyHex)!;
  const index = new Buffered();
  let live = '';
  let archive = 0;
  let totalRows = 0;
  for (let i = 0; i < records; i++) totalRows += rowIds(i).length;
  // The newest entries wait in the pending file, as they do between two compactions (half full).
  const pendingFrom = totalRows - PENDING_LIMIT / 2;
  let row = 0;
  for (let i = 0; i < records; i++) {
    const ids = rowIds(i);
    const e = benchEntry(i, 'old', ids.length);
    const id = `00000000-0000-4000-8000-${i.toString().padStart(12, '0')}`;
    const time = new Date(Date.UTC(2020, 0, 1) + i * 60_000).toISOString();
    const begin: LedgerLine = {
      ledger: 1,
      op: 'begin',
      id,
      record: { ...e, id, time, state: 'sending', recurringPaymentIds: [], serialNumbers: [], statuses: [] },
    };
    const complete: LedgerLine = {
      ledger: 1,
      op: 'complete',
      id,
      contentHash: e.contentHash,
      completedAt: time,
      completion: {
        outcome: 'accepted',
        httpStatus: 200,
        recurringPaymentIds: [String(i)],
        serialNumbers: [`s-${i}`],
        statuses: ['active'],
      },
    };
    live += `\n${JSON.stringify(begin)}\n\n${JSON.stringify(complete)}\n`;
    const shard = join(guard, 'content', `${shardName(e.contentHash)}.txt`);
    index.push(shard, shardLine(e.contentHash, begin) + shardLine(e.contentHash, complete));
    for (const rowId of ids) {
      const key = orderKey(secret, rowId);
      const file = row++ >= pendingFrom ? join(guard, pending) : join(guard, rowShard(key));
      index.push(file, `\n${key} ${e.contentHash.slice(0, HASH_DIGITS)}\n`);
    }
    if (live.length > 64 * 1024 * 1024) {
      writeFileSync(join(dir, `ledger-2020-01-01T00-00-00-${String(archive++).padStart(3, '0')}Z.jsonl`), live);
      live = '';
    }
  }
  writeFileSync(join(dir, 'ledger.jsonl'), live);
  index.flush();
  const files = new Map<string, FileEntry>();
  for (const e of readdirSync(guard, { recursive: true, withFileTypes: true }))
    if (e.isFile()) {
      const bytes = readFileSync(join(e.parentPath, e.name));
      files.set(relative(guard, join(e.parentPath, e.name)), [bytes.length, checksum(bytes)]);
    }
  const size = Buffer.byteLength(live);
  const tail = checksum(Buffer.from(live).subarray(Math.max(0, size - TAIL_CHECK)));
  const ledger = { ino: statSync(join(dir, 'ledger.jsonl')).ino, size, tail };
  const head = { v: 3 as const, gen, ledger, pending, pendingEntries: Math.min(PENDING_LIMIT / 2, totalRows) };
  writeFileSync(join(dir, GUARD_DIR, MANIFEST), Manifest.of(head, files).bytes());
}
