import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { appendFileSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { GUARD_DIR } from '../../src/core/ledger/ledgerIndex';
import { checksum, INDEX_VERSION, Manifest, MANIFEST, shardLine, shardName, type FileEntry } from '../../src/core/ledger/indexManifest';
import { TAIL_CHECK } from '../../src/core/ledger/indexIo';
import type { LedgerLine, NewSubmission } from '../../src/core/ledger';
import { BATCHES_DIR } from '../../src/core/ledger/batchRows';
import { maskText } from '../../src/core/output';
import { orderKey } from '../../src/core/ledger/rowKeys';
import { payerKey } from '../../src/core/ledger/samePayer';
import { byRowShard, entriesOf, PENDING_LIMIT } from '../../src/core/ledger/rowIndex';
import { LedgerSecret } from '../../src/core/ledger/secret';

// A ledger as years of use leave it, written straight to disk for the benches: 64 MiB archives and the live
// file, the guard's index (one generation: hash-prefixed content shards, the row index's shards and a
// pending file half full, as between two compactions, and the manifest that vouches for them up to the
// ledger's end) and the ledger's key. Each record's rows are those `rowIds(i)` gives: an id, and the
// fingerprint of its card and schedule (one of its own when only the id is given); the index holds a
// payer entry per distinct fingerprint of a record, as a send leaves it (samePayer.ts). With `rowRecords`,
// each record's row records too (batches/: what a rebuild and the same-payer lookup read), as a real
// ledger has them; without, the index alone (a million one-row files would be most of the set-up).

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
  private readonly files = new Map<string, (string | Buffer)[]>();
  private size = 0;
  push(file: string, text: string | Buffer): void {
    let list = this.files.get(file);
    if (!list) this.files.set(file, (list = []));
    list.push(text);
    this.size += text.length;
    if (this.size > 64 * 1024 * 1024) this.flush();
  }
  flush(): void {
    for (const [file, list] of this.files)
      appendFileSync(file, Buffer.concat(list.map((t) => (typeof t === 'string' ? Buffer.from(t) : t))));
    this.files.clear();
    this.size = 0;
  }
}

/** A row of the history: its client-orderid, and its fingerprint (card and schedule) when it matters. */
export interface HistoryRow {
  id: string;
  fingerprint?: string;
}

interface HistoryOptions {
  /** Writes each record's row records (batches/). */
  rowRecords?: boolean;
}

const COLUMNS = ['client-orderid', 'credit-card-number'];

/** Writes `records` accepted submissions to `dir`; record i held the rows `rowIds(i)` (ids, or ids with fingerprints). */
export function writeHistory(
  dir: string,
  records: number,
  rowIds: (i: number, secret: LedgerSecret) => readonly (string | HistoryRow)[],
  options: HistoryOptions = {},
): void {
  const gen = `g-${randomUUID()}`;
  const pending = `rows-pending-${randomUUID()}.bin`;
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
  const rowsOf = (i: number): HistoryRow[] =>
    rowIds(i, secret).map((r) => {
      const row = typeof r === 'string' ? { id: r } : r;
      return { id: row.id, fingerprint: row.fingerprint ?? secret.keyedHash(`bench payer\0${row.id}`, 32) };
    });
  // Index entries: each row's, and one per distinct fingerprint of a record.
  for (let i = 0; i < records; i++) {
    const rows = rowsOf(i);
    totalRows += rows.length + new Set(rows.map((r) => r.fingerprint)).size;
  }
  // The newest entries wait in the pending file, as they do between two compactions (half full).
  const pendingFrom = totalRows - PENDING_LIMIT / 2;
  let row = 0;
  for (let i = 0; i < records; i++) {
    const rows = rowsOf(i);
    const e = benchEntry(i, 'old', rows.length);
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
    const keys = rows.map((r) => orderKey(secret, r.id));
    const payers = new Set(rows.map((r) => payerKey(r.fingerprint!)));
    for (const key of [...keys, ...payers]) {
      const bytes = entriesOf([{ key }], e.contentHash);
      if (row++ >= pendingFrom) index.push(join(guard, pending), bytes);
      else for (const [shard, entry] of byRowShard([bytes])) index.push(join(guard, shard), entry);
    }
    if (options.rowRecords) {
      const lines = [JSON.stringify({ rows: 1, columns: COLUMNS })];
      rows.forEach((r, n) => lines.push(JSON.stringify({ k: keys[n], o: maskText(r.id), l: n + 2, f: r.fingerprint, v: '0 0' })));
      const folder = join(dir, BATCHES_DIR, e.contentHash.slice(0, 2));
      mkdirSync(folder, { recursive: true });
      writeFileSync(join(folder, `${e.contentHash}.jsonl`), `${lines.join('\n')}\n`);
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
  const head = { v: INDEX_VERSION, gen, ledger, pending, pendingEntries: Math.min(PENDING_LIMIT / 2, totalRows) };
  writeFileSync(join(dir, GUARD_DIR, MANIFEST), Manifest.of(head, files).bytes());
}
