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
  const hashOf = (c: number, value: string) => {
    let h = cache[c].get(value);
    if (h === undefined) {
      h = valueHash(secret, compared[c], value);
      if (cache[c].size < CACHED_VALUES) cache[c].set(value, h);
    }
    return h;
  };
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
    const hashes = sent.rows[old].values.split(' ');
    let columns: string[] | undefined;
    for (let c = 0; c < compared.length; c++) {
      const i = cellOf[c];
      const s = slotOf[c];
      const x = hashOf(c, i === -1 ? '' : row.value(i));
      const y = s === -1 ? hashOf(c, '') : (hashes[s] ?? '');
      if (x !== y) (columns ??= []).push(compared[c]);
    }
    if (columns) diff.changed.push({ 'client-orderid': maskText(id), line, columns });
    else diff.unchanged++;
  });
  sent.rows.forEach((r, n) => {
    if (!matched[n]) diff.removed.push({ 'client-orderid': r.orderId, line: r.line });
  });
  return diff;
}
