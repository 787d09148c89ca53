import * as path from 'node:path';
import { createOnce, readWhole, type LedgerFileHandle, type LedgerFs } from './ledgerFs';
import type { BatchRowKeys, RowKey } from './rowKeys';
import { ROW_LINE, rowKeyOfLine, rowLineText, type HeaderLine, type RowLine } from './rowLine';

// The row keys of every batch the ledger sent, one file per content (`batches/<first 2 hex>/<content
// hash>.jsonl`, so no folder holds more than a few thousand files at a million sends; a header line with
// the columns, then one line per row: rowKeys.ts says what a row keeps and why none of it is card data,
// rowLine.ts how a line is laid out).
// Written before the send's ledger line, and only once per content: a resend of the same file finds it
// there. `paygate diff` reads a submission's rows from here, and the guard's index derives its row entries
// from these files (ledgerIndex.ts).

export const BATCHES_DIR = 'batches';

/** The file of a batch's row keys, or undefined for a content hash of another shape. */
export function fileOf(directory: string, contentHash: string): string | undefined {
  return /^[0-9a-f]{64}$/.test(contentHash)
    ? path.join(directory, BATCHES_DIR, contentHash.slice(0, 2), `${contentHash}.jsonl`)
    : undefined;
}

/**
 * Records a batch's row keys: the batch's file (written whole under a unique name, fsynced, linked into
 * place). Nothing when the content's file is there already.
 */
export async function recordBatchRows(fs: LedgerFs, directory: string, contentHash: string, keys: BatchRowKeys): Promise<void> {
  const file = fileOf(directory, contentHash);
  if (file === undefined || keys.rows.length === 0) return;
  const exists = await fs.stat(file).then(
    () => true,
    () => false,
  );
  if (exists) return;
  const header: HeaderLine = { rows: 1, columns: keys.columns };
  const lines = [JSON.stringify(header)];
  for (const r of keys.rows) lines.push(rowLineText(r));
  await fs.mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
  await createOnce(fs, file, Buffer.from(`${lines.join('\n')}\n`, 'utf8'));
}

/** A sent batch's row keys; undefined when the ledger keeps none for it (sent before row keys, or unreadable). */
export async function readBatchRows(fs: LedgerFs, directory: string, contentHash: string): Promise<BatchRowKeys | undefined> {
  const file = fileOf(directory, contentHash);
  if (file === undefined) return undefined;
  // Read a piece at a time and parsed line by line: a million rows' file (some 360 MB) is never held whole
  // beside its rows. The first line that is not JSON makes the file unreadable, as a header of another shape.
  let header: Partial<HeaderLine> | undefined;
  const rows: RowKey[] = [];
  let readable = true;
  const found = await eachLine(fs, file, (l) => {
    if (l === '') return;
    try {
      if (header === undefined) header = JSON.parse(l) as Partial<HeaderLine>;
      else if (header.rows === 1 && Array.isArray(header.columns)) {
        rows.push(rowKeyOfLine(JSON.parse(l) as RowLine));
      } else return false;
    } catch {
      readable = false;
      return false;
    }
  });
  if (!found || !readable) return undefined;
  if (header?.rows !== 1 || !Array.isArray(header.columns)) return undefined;
  return { columns: header.columns.map(String), rows };
}

/** Bytes read at a time. */
const PIECE = 4 << 20;

/**
 * Every line of a file (without its \n), read a piece at a time, each piece's whole lines decoded as one
 * text; `onLine` returns false to stop. False when there is no such file.
 */
function eachLine(fs: LedgerFs, file: string, onLine: (line: string) => boolean | void): Promise<boolean> {
  return eachPiece(fs, file, (buffer, end) => {
    for (const l of buffer.toString('utf8', 0, end).split('\n')) if (onLine(l) === false) return false;
  });
}

/**
 * A file read a piece at a time: `onPiece` gets bytes [0, end) of `buffer`, whole lines without the \n
 * after the last (the last line of the file may have none), and returns false to stop. A line longer than
 * a piece grows the buffer. False when there is no such file.
 */
export async function eachPiece(fs: LedgerFs, file: string, onPiece: (buffer: Buffer, end: number) => boolean | void): Promise<boolean> {
  let handle: LedgerFileHandle;
  try {
    handle = await fs.open(file, 'r');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw err;
  }
  try {
    let buffer = Buffer.alloc(PIECE);
    let held = 0;
    for (let position = 0; ;) {
      if (held === buffer.length) buffer = Buffer.concat([buffer, Buffer.alloc(buffer.length)]);
      const { bytesRead } = await handle.read(buffer, held, buffer.length - held, position);
      if (bytesRead <= 0) {
        // The end of the file: the last line, when it has no \n.
        if (held > 0) onPiece(buffer, held);
        return true;
      }
      position += bytesRead;
      const filled = held + bytesRead;
      const end = buffer.lastIndexOf(10, filled - 1);
      if (end < 0) held = filled;
      else {
        if (onPiece(buffer, end) === false) return true;
        buffer.copy(buffer, 0, end + 1, filled);
        held = filled - end - 1;
      }
    }
  } finally {
    await handle.close();
  }
}

/**
 * readBatchRows with only the rows whose fingerprint is one of `fingerprints` (same-payer's lookup, which
 * may read a thousand batches of a hundred rows for one lint): a line of the usual shape is parsed only when
 * its fingerprint is wanted, any other is parsed as before, so the same files read (one line that is not
 * JSON: undefined, as readBatchRows says) and the same rows come out.
 */
export async function readPayerRows(
  fs: LedgerFs,
  directory: string,
  contentHash: string,
  fingerprints: ReadonlySet<string>,
): Promise<BatchRowKeys | undefined> {
  const file = fileOf(directory, contentHash);
  const text = file === undefined ? undefined : await readWhole(fs, file);
  if (text === undefined) return undefined;
  const [first, ...rest] = text.split('\n').filter((l) => l !== '');
  try {
    const header = JSON.parse(first ?? '') as Partial<HeaderLine>;
    if (header.rows !== 1 || !Array.isArray(header.columns)) return undefined;
    const rows: RowKey[] = [];
    for (const l of rest) {
      const f = ROW_LINE.exec(l)?.[1];
      if (f !== undefined && !fingerprints.has(f)) continue;
      const row = rowKeyOfLine(JSON.parse(l) as RowLine);
      if (fingerprints.has(row.fingerprint)) rows.push(row);
    }
    return { columns: header.columns.map(String), rows };
  } catch {
    return undefined;
  }
}

/** The content hashes of every batch with row records. */
export async function batchHashes(fs: LedgerFs, directory: string): Promise<string[]> {
  const out: string[] = [];
  const list = (dir: string) => fs.readdir(dir).catch(() => [] as string[]);
  for (const sub of await list(path.join(directory, BATCHES_DIR)))
    if (/^[0-9a-f]{2}$/.test(sub))
      for (const name of await list(path.join(directory, BATCHES_DIR, sub)))
        if (/^[0-9a-f]{64}\.jsonl$/.test(name)) out.push(name.slice(0, 64));
  return out;
}
