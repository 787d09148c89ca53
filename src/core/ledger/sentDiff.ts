import type { RowCells } from '../csv/rowCells';
import { gatewayOrderId } from '../orderId';
import { maskText } from '../output';
import type { Batch } from '../rules/batch';
import type { BatchDiff } from './diffShape';
import { forEachKeyedRow, spanHash } from './fileDiff';
import { CVV, orderKeyDigest, rowHashText, valueHead, type BatchRowKeys } from './rowKeys';
import { digestWord, type LedgerSecret } from './secret';
import { SentTable } from './sentTable';

// `paygate diff FILE` against a send (--against last, or a serial-number): the send is what the ledger
// kept of it (its row keys, rowKeys.ts), held as a compact table (sentTable.ts), and FILE is walked record
// by record in place, as a file is against another (fileDiff.ts): no row objects and no row keys of FILE
// are kept (each row's id is hashed under the ledger's key to look it up, then dropped), and a column's
// value is hashed only for the rows the send holds, as a 32-bit word (the 8 hex digits the ledger keeps),
// a value seen lately in that column once (ValueWords). The answer is the one a whole comparison of both
// sides' row keys gives (test/fixtures/ledger/rowKeysDiff.ts, the reference the tests hold it to): rows
// keyed by the gateway's reading of client-orderid (a key used twice is matched in order of use), added
// and changed in FILE's order, removed in the send's, a column one side lacks counting as empty there,
// cvv2 never compared.

/** Slots of a column's table of values (a power of two), and how many values it keeps at most. */
const SLOTS = 16_384;
const KEPT_VALUES = 10_000;

/**
 * The keyed hash of a column's values as the ledger's first 32 bits (valueHash). The first KEPT_VALUES
 * distinct values keep theirs, in a table open-addressed by a cheap hash of their characters, found again
 * without cutting the value out of the row: a column of few values (currency, period, an empty cell) is
 * hashed once per value. A column that stops finding its values once the table is full (fewer than 1 in
 * 16: a value per row, a name, an email) stops looking and is hashed once per row.
 */
class ValueWords {
  private readonly values: (string | undefined)[] = new Array<string | undefined>(SLOTS);
  private readonly hashes = new Int32Array(SLOTS);
  private readonly words = new Int32Array(SLOTS);
  private size = 0;
  /** Lookups once the table is full, and how many found their value. */
  private late = 0;
  private lateHits = 0;
  private readonly head: string;
  constructor(
    private readonly secret: LedgerSecret,
    column: string,
  ) {
    this.head = valueHead(column);
  }

  of(value: string): number {
    return digestWord(this.secret.keyedDigest(this.head + value), 0);
  }

  /** The word of cell `i` of `row`. */
  ofCell(row: RowCells, i: number): number {
    const source = row.source;
    const from = row.from(i);
    const to = row.to(i);
    const full = this.size >= KEPT_VALUES;
    if (full && this.late >= KEPT_VALUES && this.lateHits < this.late >> 4) return this.of(source.slice(from, to));
    const h = spanHash(0, source, from, to);
    let slot = h & (SLOTS - 1);
    for (let kept = this.values[slot]; kept !== undefined; kept = this.values[(slot = (slot + 1) & (SLOTS - 1))]) {
      if (this.hashes[slot] !== h || kept.length !== to - from) continue;
      let k = 0;
      while (k < kept.length && kept.charCodeAt(k) === source.charCodeAt(from + k)) k++;
      if (k < kept.length) continue;
      if (full) {
        this.late++;
        this.lateHits++;
      }
      return this.words[slot];
    }
    const value = source.slice(from, to);
    const word = this.of(value);
    if (full) this.late++;
    else {
      this.values[slot] = value;
      this.hashes[slot] = h;
      this.words[slot] = word;
      this.size++;
    }
    return word;
  }
}

/** A hash the ledger keeps (8 hex digits) as its word. */
const hex8 = (word: number) => (word >>> 0).toString(16).padStart(8, '0');

/** FILE (`batch`) against a send's row keys `sent`, both under the ledger's `secret`. */
export function diffAgainstSend(secret: LedgerSecret, sentRows: SentTable | BatchRowKeys, batch: Batch): BatchDiff {
  const sent = sentRows instanceof SentTable ? sentRows : SentTable.of(sentRows);
  const now = batch.headerCells.map((cell) => cell.column ?? cell.raw);
  const nowCell = new Map(now.map((c, i) => [c, i]));
  const sentSlot = new Map(sent.columns.map((c, i) => [c, i]));
  // The columns compared as the reference names them: FILE's in header order, then the send's it lacks.
  const compared = [...now, ...sent.columns.filter((c) => !now.includes(c))].filter((c) => c !== CVV);
  const cellOf = compared.map((c) => nowCell.get(c) ?? -1);
  const slotOf = compared.map((c) => sentSlot.get(c) ?? -1);
  const words = compared.map((c) => new ValueWords(secret, c));
  const empty = words.map((w) => w.of(''));
  const matched = new Uint8Array(sent.rowCount);
  // FILE under the send's very header: a row whose row hash the send kept unchanged is unchanged.
  const sameHeader = now.length === sent.columns.length && now.every((c, i) => c === sent.columns[i]);
  const cvv = now.flatMap((c, i) => (c === CVV ? [i] : []));
  const text = batch.csv.text;
  const diff: BatchDiff = { added: [], removed: [], changed: [], unchanged: 0 };
  forEachKeyedRow(batch, (row, id, line) => {
    if (gatewayOrderId(id) === '') return;
    const old = sent.take(orderKeyDigest(secret, id));
    if (old === -1) {
      diff.added.push({ 'client-orderid': maskText(id), line });
      return;
    }
    matched[old] = 1;
    if (sameHeader && sent.sameRow(old, secret.keyedDigest(rowHashText(text, row.bounds, row.count, cvv)))) {
      diff.unchanged++;
      return;
    }
    // A row of another shape (an old ledger's) is compared as the reference splits it.
    const odd = sent.oddValues(old)?.split(' ');
    let columns: string[] | undefined;
    for (let c = 0; c < compared.length; c++) {
      const i = cellOf[c];
      const s = slotOf[c];
      const x = i === -1 ? empty[c] : words[c].ofCell(row, i);
      let same: boolean;
      if (s === -1) same = x === empty[c];
      else same = odd ? odd[s] === hex8(x) : sent.word(old, s) === x;
      if (!same) (columns ??= []).push(compared[c]);
    }
    if (columns) diff.changed.push({ 'client-orderid': maskText(id), line, columns });
    else diff.unchanged++;
  });
  for (let r = 0; r < sent.rowCount; r++) if (!matched[r]) diff.removed.push(sent.removed(r));
  return diff;
}
