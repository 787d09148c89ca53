import { gatewayOrderId } from '../orderId';
import { maskText } from '../output';
import type { Batch } from '../rules/batch';
import type { BatchDiff } from './diffShape';
import { forEachKeyedRow, takeOlder } from './fileDiff';
import { CVV, orderKey, valueHash, type BatchRowKeys } from './rowKeys';
import type { LedgerSecret } from './secret';

// `paygate diff FILE` against a send (--against last, or a serial-number): the send is what the ledger
// kept of it (its row keys, rowKeys.ts), and FILE is walked record by record in place, as a file is
// against another (fileDiff.ts): no row objects and no row keys of FILE are kept (each row's id is hashed
// under the ledger's key to look it up, then dropped), and a column's value is hashed only for the rows
// the send holds, each distinct value once (up to a bound). The answer is the one a whole comparison of
// both sides' row keys gives (test/fixtures/ledger/rowKeysDiff.ts, the reference the tests hold it to):
// rows keyed by the gateway's reading of client-orderid (a key used twice is matched in order of use),
// added and changed in FILE's order, removed in the send's, a column one side lacks counting as empty
// there, cvv2 never compared.

/** How many distinct values of a column keep their hash (a column of ids would otherwise keep every one). */
const CACHED_VALUES = 10_000;

/** FILE (`batch`) against a send's row keys `sent`, both under the ledger's `secret`. */
export function diffAgainstSend(secret: LedgerSecret, sent: BatchRowKeys, batch: Batch): BatchDiff {
  const byKey = new Map<string, number | number[]>();
  sent.rows.forEach((r, n) => {
    const seen = byKey.get(r.key);
    if (seen === undefined) byKey.set(r.key, n);
    else if (typeof seen === 'number') byKey.set(r.key, [seen, n]);
    else seen.push(n);
  });
  const now = batch.headerCells.map((cell) => cell.column ?? cell.raw);
  const nowCell = new Map(now.map((c, i) => [c, i]));
  const sentSlot = new Map(sent.columns.map((c, i) => [c, i]));
  // The columns compared as the reference names them: FILE's in header order, then the send's it lacks.
  const compared = [...now, ...sent.columns.filter((c) => !now.includes(c))].filter((c) => c !== CVV);
  const cellOf = compared.map((c) => nowCell.get(c) ?? -1);
  const slotOf = compared.map((c) => sentSlot.get(c) ?? -1);
  const cache = compared.map(() => new Map<string, string>());
  // Lookups of a column after its cache filled, and how many found their value: a column of a value per
  // row (a name, an email) stops looking up once it has shown it finds almost none.
  const late = new Int32Array(compared.length);
  const lateHits = new Int32Array(compared.length);
  const hashOf = (c: number, value: string) => {
    const m = cache[c];
    if (m.size >= CACHED_VALUES && late[c] >= CACHED_VALUES && lateHits[c] < late[c] >> 4) return valueHash(secret, compared[c], value);
    let h = m.get(value);
    if (m.size >= CACHED_VALUES) {
      late[c]++;
      if (h !== undefined) lateHits[c]++;
    }
    if (h === undefined) {
      h = valueHash(secret, compared[c], value);
      if (m.size < CACHED_VALUES) m.set(value, h);
    }
    return h;
  };
  const at = new Int32Array(sent.columns.length + 1);
  const matched = new Uint8Array(sent.rows.length);
  const used = new Map<string, number>();
  const diff: BatchDiff = { added: [], removed: [], changed: [], unchanged: 0 };
  forEachKeyedRow(batch, (row, id, line) => {
    if (gatewayOrderId(id) === '') return;
    const key = orderKey(secret, id);
    const old = takeOlder(byKey.get(key), key, matched, used);
    if (old === -1) {
      diff.added.push({ 'client-orderid': maskText(id), line });
      return;
    }
    matched[old] = 1;
    const hashes = sent.rows[old].values;
    const slots = slotsOf(hashes, at);
    let columns: string[] | undefined;
    for (let c = 0; c < compared.length; c++) {
      const i = cellOf[c];
      const s = slotOf[c];
      const x = hashOf(c, i === -1 ? '' : row.value(i));
      // The send's hash of this column, read in place (hashes[s], or '' past the last).
      const same = s === -1 ? x === hashOf(c, '') : sameAt(hashes, at, s, slots, x);
      if (!same) (columns ??= []).push(compared[c]);
    }
    if (columns) diff.changed.push({ 'client-orderid': maskText(id), line, columns });
    else diff.unchanged++;
  });
  sent.rows.forEach((r, n) => {
    if (!matched[n]) diff.removed.push({ 'client-orderid': r.orderId, line: r.line });
  });
  return diff;
}

/**
 * Where each of the space-separated hashes of `values` starts, in `at` (at[n] is one past the end of the
 * last, as if a space followed it): how many there are, at most at.length - 1 (more are not compared).
 */
function slotsOf(values: string, at: Int32Array): number {
  let n = 0;
  let from = 0;
  at[0] = 0;
  while (n < at.length - 1) {
    const space = values.indexOf(' ', from);
    n++;
    if (space === -1) {
      at[n] = values.length + 1;
      break;
    }
    at[n] = from = space + 1;
  }
  return n;
}

/** Whether the hash in slot `s` of `values` (slotsOf) is `x`: an absent slot reads as ''. */
function sameAt(values: string, at: Int32Array, s: number, slots: number, x: string): boolean {
  if (s >= slots) return x === '';
  const start = at[s];
  return at[s + 1] - 1 - start === x.length && values.startsWith(x, start);
}
