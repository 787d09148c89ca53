import { ChunkedInt32 } from '../chunked';
import { eachPiece, fileOf } from './batchRows';
import type { DiffRow } from './diffShape';
import type { LedgerFs } from './ledgerFs';
import { CVV, type BatchRowKeys, type RowKey } from './rowKeys';
import { ROW_BYTES, rowKeyOfLine, type HeaderLine, type RowLine } from './rowLine';
import { digestWord } from './secret';

// A send's row keys as `paygate diff FILE --against last` compares FILE with them (sentDiff.ts), held
// compactly: per row its key as three 32-bit words, its line, its masked client-orderid and one 32-bit word
// per column (the 8 hex digits of its value hash: rowKeys.ts), in typed arrays, and the rows found by key
// through an open-addressed table, not a Map of a million strings. The file ledger's row records are read
// into it byte by byte (readSentTable), so a million rows are never a million objects and strings of
// hashes (the bytes around a line's values come from rowLine.ts, which owns the layout); a line of any
// other shape is parsed as JSON, as readBatchRows parses it, and a row that does not fit the compact form
// (a key that is not 24 hex digits, hashes of another shape, an odd line) is kept as read and compared as
// its text says (an old ledger's rows diff as they always did).

/** Each byte's value as a lowercase hex digit, -1 for any other byte. */
const HEX = new Int8Array(256).fill(-1);
for (let d = 0; d < 16; d++) HEX['0123456789abcdef'.charCodeAt(d)] = d;

/** The 8 lowercase hex digits at `at` as a number, -1 when they are not. */
function hexWord(buf: Buffer, at: number): number {
  let w = 0;
  for (let i = at; i < at + 8; i++) {
    const d = HEX[buf[i]];
    if (!(d >= 0)) return -1; // not a digit, or past the buffer's end
    w = w * 16 + d;
  }
  return w;
}

const KEY = /^[0-9a-f]{24}$/;
const ROW_HASH = /^[0-9a-f]{16}$/;
const WORD = /^[0-9a-f]{8}$/;
/** The bytes around a row line's values (rowLine.ts owns the layout). */
const { k: K, o: O, l: L, f: F, v: V } = ROW_BYTES.before;
const END = ROW_BYTES.end;
const R = ROW_BYTES.row;
const QUOTE = 34;

function isAt(buf: Buffer, at: number, literal: Buffer): boolean {
  for (let i = 0; i < literal.length; i++) if (buf[at + i] !== literal[i]) return false;
  return true;
}

export class SentTable {
  private readonly width: number;
  private readonly cvv: boolean[];
  private readonly keys = new ChunkedInt32();
  private readonly hashes = new ChunkedInt32();
  private readonly lines = new ChunkedInt32();
  /** Per row: 1 when it has a row hash (rowKeys.ts), then the hash's two words. */
  private readonly rowHashes = new ChunkedInt32();
  private readonly orderIds: string[] = [];
  /** Rows kept as read (not of the compact form), by row; those of them that no key of FILE can find. */
  private readonly odd = new Map<number, RowKey>();
  private readonly unkeyed = new Set<number>();
  private readonly scratch: Int32Array;
  /** Open-addressed by key: each slot's first row (-1: empty), the next row of that key, the next to take. */
  private head = new Int32Array(0);
  private next = new Int32Array(0);
  private cursor = new Int32Array(0);

  constructor(readonly columns: string[]) {
    this.width = columns.length;
    this.cvv = columns.map((c) => c === CVV);
    this.scratch = new Int32Array(this.width);
  }

  /** The row keys as a table (a send from the team ledger, the editor's, a test's). */
  static of(keys: BatchRowKeys): SentTable {
    const table = new SentTable(keys.columns);
    for (const r of keys.rows) table.add(r);
    return table.seal();
  }

  get rowCount(): number {
    return this.orderIds.length;
  }

  /** A row as read: kept compactly when it fits, else as it is. */
  add(r: RowKey): void {
    const n = this.rowCount;
    const fits = typeof r.orderId === 'string' && (r.line | 0) === r.line && typeof r.values === 'string' && this.split(r.values);
    const keyed = typeof r.key === 'string' && KEY.test(r.key);
    for (let w = 0; w < 3; w++) this.keys.push(keyed ? parseInt(r.key.slice(8 * w, 8 * w + 8), 16) | 0 : 0);
    if (!keyed) this.unkeyed.add(n);
    const row = fits && typeof r.row === 'string' && ROW_HASH.test(r.row) ? r.row : undefined;
    this.push(
      fits ? r.orderId : '',
      fits ? r.line : 0,
      row ? parseInt(row.slice(0, 8), 16) | 0 : NaN,
      row ? parseInt(row.slice(8), 16) | 0 : 0,
    );
    if (!fits) this.odd.set(n, r);
  }

  /** The hashes `values` into scratch when they are one 8-digit word per column (`-` for cvv2). */
  private split(values: string): boolean {
    const words = values.split(' ');
    if (words.length !== this.width) return false;
    for (let s = 0; s < this.width; s++) {
      if (WORD.test(words[s])) this.scratch[s] = parseInt(words[s], 16) | 0;
      else if (this.cvv[s] && words[s] === '-') this.scratch[s] = 0;
      else return false;
    }
    return true;
  }

  /** A row; `row0` NaN when it has no row hash. */
  private push(orderId: string, line: number, row0: number, row1: number): void {
    this.orderIds.push(orderId);
    this.lines.push(line);
    const hasRow = !Number.isNaN(row0);
    this.rowHashes.push(hasRow ? 1 : 0);
    this.rowHashes.push(hasRow ? row0 : 0);
    this.rowHashes.push(row1);
    for (let s = 0; s < this.width; s++) this.hashes.push(this.scratch[s]);
  }

  /**
   * A row line as recordBatchRows writes it, bytes [start, end) of `buf`, added without parsing it as JSON;
   * false (nothing added) for a line of any other shape, or one holding an escape or a control character.
   */
  addLine(buf: Buffer, start: number, end: number): boolean {
    if (!isAt(buf, start, K)) return false;
    const k = start + K.length;
    for (let w = 0; w < 3; w++) if (hexWord(buf, k + 8 * w) < 0) return false;
    let i = k + 24;
    if (!isAt(buf, i, O)) return false;
    const from = (i += O.length);
    let ascii = true;
    for (; i < end && buf[i] !== QUOTE; i++) {
      const b = buf[i];
      if (b === 92 || b < 32) return false;
      if (b > 127) ascii = false;
    }
    const to = i;
    if (!isAt(buf, i, L)) return false;
    i += L.length;
    let line = 0;
    const digits = i;
    for (; i < end && buf[i] >= 48 && buf[i] <= 57; i++) line = line * 10 + buf[i] - 48;
    if (i === digits || i - digits > 9 || (buf[digits] === 48 && i - digits > 1)) return false;
    if (!isAt(buf, i, F)) return false;
    for (i += F.length; i < end && buf[i] !== QUOTE; i++) if (HEX[buf[i]] < 0) return false;
    if (!isAt(buf, i, V)) return false;
    i += V.length;
    for (let s = 0; s < this.width; s++) {
      if (s > 0 && buf[i++] !== 32) return false;
      const w = i + 8 <= end ? hexWord(buf, i) : -1;
      if (w >= 0) {
        this.scratch[s] = w | 0;
        i += 8;
      } else if (this.cvv[s] && buf[i] === 45) {
        this.scratch[s] = 0;
        i++;
      } else return false;
    }
    // The row hash, in rows recorded since issue 40.
    let row0 = NaN;
    let row1 = 0;
    if (isAt(buf, i, R)) {
      i += R.length;
      row0 = i + 16 <= end ? hexWord(buf, i) : -1;
      row1 = row0 >= 0 ? hexWord(buf, i + 8) : -1;
      if (row0 < 0 || row1 < 0) return false;
      i += 16;
    }
    if (i + END.length !== end || !isAt(buf, i, END)) return false;
    for (let w = 0; w < 3; w++) this.keys.push(hexWord(buf, k + 8 * w) | 0);
    this.push(buf.toString(ascii ? 'latin1' : 'utf8', from, to), line, Number.isNaN(row0) ? NaN : row0 | 0, row1 | 0);
    return true;
  }

  /** Builds the table by key: called once, after the last row. */
  seal(): this {
    const n = this.rowCount;
    let size = 16;
    while (size < 2 * n) size *= 2;
    const mask = size - 1;
    this.head = new Int32Array(size).fill(-1);
    const tail = new Int32Array(size);
    this.next = new Int32Array(n).fill(-1);
    for (let r = 0; r < n; r++) {
      if (this.unkeyed.has(r)) continue;
      const slot = this.slotOf(this.keys.get(3 * r), this.keys.get(3 * r + 1), this.keys.get(3 * r + 2), mask);
      if (this.head[slot] === -1) this.head[slot] = r;
      else this.next[tail[slot]] = r;
      tail[slot] = r;
    }
    this.cursor = this.head.slice();
    return this;
  }

  /** The slot of a key: its own, or the empty one where it would go. */
  private slotOf(k0: number, k1: number, k2: number, mask: number): number {
    for (let slot = k0 & mask; ; slot = (slot + 1) & mask) {
      const r = this.head[slot];
      if (r === -1) return slot;
      if (this.keys.get(3 * r) === k0 && this.keys.get(3 * r + 1) === k1 && this.keys.get(3 * r + 2) === k2) return slot;
    }
  }

  /**
   * The next row not yet taken with the key whose digest is `digest` (orderKeyDigest), in the send's order
   * (a key used twice is matched in order of use); -1 when none is left.
   */
  take(digest: string): number {
    const slot = this.slotOf(digestWord(digest, 0), digestWord(digest, 4), digestWord(digest, 8), this.head.length - 1);
    const r = this.cursor[slot];
    if (r !== -1) this.cursor[slot] = this.next[r];
    return r;
  }

  /** The hashes of row `r` as read, when it is not of the compact form. */
  oddValues(r: number): string | undefined {
    if (this.odd.size === 0) return undefined;
    const o = this.odd.get(r);
    return o && (typeof o.values === 'string' ? o.values : '');
  }

  /**
   * Has row `r` the row hash whose keyedDigest is `digest` (its first 8 bytes, as rowKeys.ts keeps 16 hex
   * digits)? False for a row recorded without one.
   */
  sameRow(r: number, digest: string): boolean {
    const at = 3 * r;
    return (
      this.rowHashes.get(at) === 1 &&
      this.rowHashes.get(at + 1) === digestWord(digest, 0) &&
      this.rowHashes.get(at + 2) === digestWord(digest, 4)
    );
  }

  /** The word of column slot `s` of row `r` (a row of the compact form). */
  word(r: number, s: number): number {
    return this.hashes.get(r * this.width + s);
  }

  /** Row `r` as the diff lists a removed row. */
  removed(r: number): DiffRow {
    const o = this.odd.get(r);
    return o ? { 'client-orderid': o.orderId, line: o.line } : { 'client-orderid': this.orderIds[r], line: this.lines.get(r) };
  }
}

/** A sent batch's row keys as a table; undefined where readBatchRows gives undefined (none, or unreadable). */
export async function readSentTable(fs: LedgerFs, directory: string, contentHash: string): Promise<SentTable | undefined> {
  const file = fileOf(directory, contentHash);
  if (file === undefined) return undefined;
  let header: Partial<HeaderLine> | null | undefined;
  let table: SentTable | undefined;
  let readable = true;
  const found = await eachPiece(fs, file, (buf, end) => {
    for (let start = 0; start <= end;) {
      const stop = buf.indexOf(10, start);
      const to = stop === -1 || stop > end ? end : stop;
      if (to > start && !(table?.addLine(buf, start, to) ?? false)) {
        try {
          const value = JSON.parse(buf.toString('utf8', start, to)) as unknown;
          if (header === undefined) {
            header = value as Partial<HeaderLine> | null;
            if (header?.rows === 1 && Array.isArray(header.columns)) table = new SentTable(header.columns.map(String));
          } else if (!table) return false;
          else {
            table.add(rowKeyOfLine(value as RowLine));
          }
        } catch {
          readable = false;
          return false;
        }
      }
      start = to + 1;
    }
  });
  return found && readable && table ? table.seal() : undefined;
}
