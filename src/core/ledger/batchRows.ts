import * as path from 'node:path';
import { createOnce, readWhole, type LedgerFs } from './ledgerFs';
import { gatewayKeyOfOldRow, type BatchRowKeys, type RowKey } from './rowKeys';
import { HASH_DIGITS, type RowIndex } from './rowIndex';
import type { LedgerSecret } from './secret';

// The row keys of every batch the ledger sent, one file per content (`batches/<first 2 hex>/<content
// hash>.jsonl`, so no folder holds more than a few thousand files at a million sends; a header line with
// the columns, then one line per row: rowKeys.ts says what a row keeps and why none of it is card data). Written before the send's ledger line, with the row index's entries, and only once per
// content: a resend of the same file finds both there. `paygate diff` reads a submission's rows from here,
// and a rebuild of the row index reads every file.

export const BATCHES_DIR = 'batches';

interface HeaderLine {
  rows: 1;
  columns: string[];
}

interface RowLine {
  k: string;
  o: string;
  l: number;
  f: string;
  v: string;
}

function fileOf(directory: string, contentHash: string): string | undefined {
  return /^[0-9a-f]{64}$/.test(contentHash)
    ? path.join(directory, BATCHES_DIR, contentHash.slice(0, 2), `${contentHash}.jsonl`)
    : undefined;
}

/**
 * Records a batch's row keys: the index entries first (fsynced), then the batch's file (written whole
 * under a unique name, fsynced, linked into place). Nothing when the content's file is there already.
 */
export async function recordBatchRows(
  fs: LedgerFs,
  directory: string,
  index: RowIndex,
  contentHash: string,
  keys: BatchRowKeys,
): Promise<void> {
  const file = fileOf(directory, contentHash);
  if (file === undefined || keys.rows.length === 0) return;
  const exists = await fs.stat(file).then(
    () => true,
    () => false,
  );
  if (exists) return;
  await index.add(keys.rows.map((r) => ({ key: r.key, contentHash })));
  const header: HeaderLine = { rows: 1, columns: keys.columns };
  const lines = [JSON.stringify(header)];
  for (const r of keys.rows)
    lines.push(JSON.stringify({ k: r.key, o: r.orderId, l: r.line, f: r.fingerprint, v: r.values } satisfies RowLine));
  await fs.mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
  await createOnce(fs, file, Buffer.from(`${lines.join('\n')}\n`, 'utf8'));
}

/** A sent batch's row keys; undefined when the ledger keeps none for it (sent before row keys, or unreadable). */
export async function readBatchRows(fs: LedgerFs, directory: string, contentHash: string): Promise<BatchRowKeys | undefined> {
  const file = fileOf(directory, contentHash);
  const text = file === undefined ? undefined : await readWhole(fs, file);
  if (text === undefined) return undefined;
  const [first, ...rest] = text.split('\n').filter((l) => l !== '');
  try {
    const header = JSON.parse(first ?? '') as Partial<HeaderLine>;
    if (header.rows !== 1 || !Array.isArray(header.columns)) return undefined;
    const rows: RowKey[] = rest.map((l) => {
      const r = JSON.parse(l) as RowLine;
      return { key: r.k, orderId: r.o, line: r.l, fingerprint: r.f, values: r.v };
    });
    return { columns: header.columns.map(String), rows };
  } catch {
    return undefined;
  }
}

/** The content hash of every batch file the ledger keeps. */
async function batchHashes(fs: LedgerFs, directory: string): Promise<string[]> {
  const hashes: string[] = [];
  const list = (dir: string) => fs.readdir(dir).catch(() => [] as string[]);
  for (const sub of await list(path.join(directory, BATCHES_DIR)))
    if (/^[0-9a-f]{2}$/.test(sub))
      for (const name of await list(path.join(directory, BATCHES_DIR, sub)))
        if (/^[0-9a-f]{64}\.jsonl$/.test(name)) hashes.push(name.slice(0, 64));
  return hashes;
}

/**
 * Every batch's entries spread into the row index's shards again (a rebuild of the index). With the
 * ledger's key, a row an older version keyed by its cell as written gets its gateway key too (rowKeys.ts).
 */
export async function reindexBatchRows(fs: LedgerFs, directory: string, index: RowIndex, secret?: LedgerSecret): Promise<void> {
  // Spread in rounds of some 200,000 entries: each round writes every shard once, and memory stays bounded.
  let lines: string[] = [];
  for (const hash of await batchHashes(fs, directory)) {
    const rows = await readBatchRows(fs, directory, hash);
    for (const r of rows?.rows ?? []) {
      lines.push(`${r.key} ${hash.slice(0, HASH_DIGITS)}`);
      const gateway = secret && gatewayKeyOfOldRow(secret, r);
      if (gateway) lines.push(`${gateway} ${hash.slice(0, HASH_DIGITS)}`);
    }
    if (lines.length >= 200_000) {
      await index.spread(lines);
      lines = [];
    }
  }
  await index.spread(lines);
}

/** Marks a row index that holds the gateway's keys of rows older versions kept by their cells as written. */
export const GATEWAY_KEYS_MARK = 'gateway-keys';

/**
 * Once per ledger: the gateway's keys of rows sent before ids were read as the gateway reads them, added
 * to the row index, so a row sent as `GYM-0001 ` is found when `GYM-0001` comes (and the reverse). Only
 * rows whose cell differs from its reading get an entry; most ledgers get none. Then the mark, in the
 * index's folder: a rebuild of the index (reindexBatchRows with the key) adds them again by itself.
 */
export async function addGatewayKeys(
  fs: LedgerFs,
  directory: string,
  indexDir: string,
  index: RowIndex,
  secret: LedgerSecret,
): Promise<void> {
  const mark = path.join(indexDir, GATEWAY_KEYS_MARK);
  if (
    await fs.stat(mark).then(
      () => true,
      () => false,
    )
  )
    return;
  const lines: string[] = [];
  for (const hash of await batchHashes(fs, directory))
    for (const r of (await readBatchRows(fs, directory, hash))?.rows ?? []) {
      const gateway = gatewayKeyOfOldRow(secret, r);
      if (gateway) lines.push(`${gateway} ${hash.slice(0, HASH_DIGITS)}`);
    }
  await index.spread(lines);
  await markGatewayKeys(fs, indexDir);
}

/** Leaves the mark: the row index holds the gateway's keys of every older row it can tell. */
export async function markGatewayKeys(fs: LedgerFs, indexDir: string): Promise<void> {
  await fs.mkdir(indexDir, { recursive: true, mode: 0o700 });
  await createOnce(fs, path.join(indexDir, GATEWAY_KEYS_MARK), Buffer.from(`${new Date().toISOString()}\n`, 'utf8'));
}
