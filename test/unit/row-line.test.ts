import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ROW_BYTES, ROW_LINE, rowKeyOfLine, rowLineText, type RowLine } from '../../src/core/ledger/rowLine';
import { SentTable } from '../../src/core/ledger/sentTable';

// The row record's layout is spelled once (rowLine.ts): the writer, the strict regex of readPayerRows and the
// byte literals of the compact reader (sentTable.ts) are built from one field table. These tests tie the three
// together: whatever the writer writes, both readers take as the usual shape, with the same values, and a line
// whose fields come in another order is the usual shape for neither (so both fall back to JSON.parse).

const ROWS = [
  { key: 'ab'.repeat(12), orderId: 'ORD-1', line: 2, fingerprint: '0f'.repeat(16), values: '01234567 -' },
  { key: '00'.repeat(12), orderId: '411111******1111', line: 123456789, fingerprint: '', values: 'ffffffff -' },
  { key: 'cd'.repeat(12), orderId: 'é-5 ✓', line: 1, fingerprint: 'a'.repeat(32), values: '00000000 -' },
];

describe('the row record layout (rowLine.ts)', () => {
  it('writes each field after the bytes the layout names, in order, as JSON.stringify does', () => {
    for (const r of ROWS) {
      const { before, end } = ROW_BYTES;
      const spelled = `${before.k}${r.key}${before.o}${r.orderId}${before.l}${r.line}${before.f}${r.fingerprint}${before.v}${r.values}${end}`;
      assert.equal(rowLineText(r), spelled);
      assert.deepEqual(rowKeyOfLine(JSON.parse(spelled) as RowLine), r);
    }
  });

  it('is read as the usual shape by the strict regex and by the compact reader alike', () => {
    const table = new SentTable(['amount', 'cvv2']);
    for (const r of ROWS) {
      const text = rowLineText(r);
      assert.equal(ROW_LINE.exec(text)?.[1], r.fingerprint);
      const buf = Buffer.from(`${text}\n`, 'utf8');
      assert.equal(table.addLine(buf, 0, buf.length - 1), true, text);
    }
    table.seal();
    ROWS.forEach((r, i) => assert.deepEqual(table.removed(i), { 'client-orderid': r.orderId, line: r.line }));
  });

  it('writes a row hash after the values, where a row has one, and both readers take the line as the usual shape', () => {
    const table = new SentTable(['amount', 'cvv2']);
    for (const r of ROWS.map((x, i) => ({ ...x, row: `${i}`.repeat(16) }))) {
      const { before, row, end } = ROW_BYTES;
      const text = `${before.k}${r.key}${before.o}${r.orderId}${before.l}${r.line}${before.f}${r.fingerprint}${before.v}${r.values}${row}${r.row}${end}`;
      assert.equal(rowLineText(r), text);
      assert.deepEqual(rowKeyOfLine(JSON.parse(text) as RowLine), r);
      assert.equal(ROW_LINE.exec(text)?.[1], r.fingerprint);
      const buf = Buffer.from(text, 'utf8');
      assert.equal(table.addLine(buf, 0, buf.length), true, text);
    }
  });

  it('is the usual shape for neither reader when the fields come in another order', () => {
    const table = new SentTable(['amount', 'cvv2']);
    for (const r of ROWS) {
      const line = { k: r.key, o: r.orderId, l: r.line, f: r.fingerprint, v: r.values };
      const { k, ...rest } = line;
      for (const text of [JSON.stringify({ ...rest, k }), JSON.stringify({ o: line.o, k, l: line.l, f: line.f, v: line.v })]) {
        assert.equal(ROW_LINE.test(text), false, text);
        const buf = Buffer.from(text, 'utf8');
        assert.equal(table.addLine(buf, 0, buf.length), false, text);
      }
    }
  });
});
