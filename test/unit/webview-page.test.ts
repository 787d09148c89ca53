// The page's data logic runs in Node as well as in the browser; these cover it without Chromium.
import { describe, it } from 'node:test';
import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import Papa from 'papaparse';
import { detectKind, makeMatcher, sortIndices, sortKey, buildKeys } from '../../webview-ui/columnKinds';
import { CsvStream } from '../../webview-ui/csvStream';
import { Dataset } from '../../webview-ui/dataset';
import { rowsToCsv } from '../../src/extension/results/exportRows';

describe('column kinds and sort keys', () => {
  it('recognises the sample report shapes', () => {
    const rows = [
      ['10.000', '2025-01-02 10:00:00', '02.01.2025', 'x'],
      ['9.500', '2024-12-31 23:59:59', '31.12.2024', '10'],
      ['', '', '', ''],
    ];
    assert.equal(detectKind(rows, 0), 'number');
    assert.equal(detectKind(rows, 1), 'datetime');
    assert.equal(detectKind(rows, 2), 'date-dmy');
    assert.equal(detectKind(rows, 3), 'text');
    assert.equal(detectKind([[''], ['']], 0), 'text');
  });

  it('orders keys like the values they stand for', () => {
    assert.ok(sortKey('number', '9.500') < sortKey('number', '10.000'));
    assert.ok(sortKey('number', '-1.000') < sortKey('number', '0.001'));
    assert.ok(sortKey('datetime', '2024-12-31 23:59:59') < sortKey('datetime', '2025-01-01 00:00:00'));
    assert.ok(sortKey('datetime', '2025-01-01 00:00:09') < sortKey('datetime', '2025-01-01 00:00:10'));
    assert.ok(sortKey('date-dmy', '31.12.2024') < sortKey('date-dmy', '01.01.2025'));
    assert.ok(sortKey('date-dmy', '01.02.2025') > sortKey('date-dmy', '31.01.2025'));
    assert.ok(Number.isNaN(sortKey('number', '1,5')));
    assert.ok(Number.isNaN(sortKey('date-dmy', '2025-01-01')));
  });

  it('sorts stably, with unshaped and empty values last in both directions', () => {
    const values = ['10.000', '', '9.500', 'n/a', '9.500', '100.000'];
    const keys = buildKeys(values.map((v) => [v]), 0, 'number');
    assert.deepEqual([...sortIndices(values.length, keys, false)], [2, 4, 0, 5, 1, 3]);
    assert.deepEqual([...sortIndices(values.length, keys, true)], [5, 0, 2, 4, 1, 3]);
    const text = buildKeys([['b'], [''], ['A'], ['a']], 0, 'text');
    assert.deepEqual([...sortIndices(4, text, false)], [2, 3, 0, 1]);
  });

  it('sorted numeric keys agree with numeric order for any decimals (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: -1e9, max: 1e9 }), { maxLength: 50 }), (ints) => {
        const values = ints.map((n) => (n / 1000).toFixed(3));
        const order = sortIndices(values.length, buildKeys(values.map((v) => [v]), 0, 'number'), false);
        for (let i = 1; i < order.length; i++) assert.ok(Number(values[order[i - 1]]) <= Number(values[order[i]]));
      }),
    );
  });

  it('matches case-insensitively', () => {
    const m = makeMatcher('  VisA ')!;
    assert.ok(m('Paid by visa card'));
    assert.ok(!m('mastercard'));
    assert.ok(makeMatcher('411')!('x4111'));
    assert.equal(makeMatcher('   '), null);
  });
});

function streamAll(text: string, pieces: number[]): { header: string[]; rows: string[][] } {
  let header: string[] = [];
  const rows: string[][] = [];
  const s = new CsvStream({ onHeader: (h) => (header = h), onRows: (r) => rows.push(...r) });
  let at = 0;
  for (const n of pieces) {
    s.push(text.slice(at, at + n));
    at += n;
  }
  s.push(text.slice(at));
  s.end();
  return { header, rows };
}

describe('incremental CSV parsing', () => {
  const awkward = '"Merchant_Name","Amount","Order_description"\r\n"Shop, Inc.","10.000","line one\r\nline two"\r\n"Q ""R""","9.500","<img src=x onerror=alert(1)>"\r\n';

  it('reads quoted line breaks, quotes and delimiters split at every position', () => {
    const whole = Papa.parse<string[]>(awkward, { skipEmptyLines: true }).data;
    for (let cut = 0; cut <= awkward.length; cut++) {
      const got = streamAll(awkward, [cut]);
      assert.deepEqual([got.header, ...got.rows], whole, `cut at ${cut}`);
    }
  });

  it('reads LF-only and CR-only files, split anywhere', () => {
    for (const br of ['\n', '\r']) {
      const text = `a,b${br}1,"x${br}y"${br}3,4${br}`;
      for (let cut = 0; cut <= text.length; cut++) {
        const got = streamAll(text, [cut]);
        assert.deepEqual(got.header, ['a', 'b'], `break ${JSON.stringify(br)} cut ${cut}`);
        assert.deepEqual(got.rows, [['1', `x${br}y`], ['3', '4']], `break ${JSON.stringify(br)} cut ${cut}`);
      }
    }
  });

  it('uses the delimiter it is given', () => {
    const rows: string[][] = [];
    const s = new CsvStream({ delimiter: ';', onHeader: () => undefined, onRows: (r) => rows.push(...r) });
    s.push('a;b\n1,5;2\n');
    s.end();
    assert.deepEqual(rows, [['1,5', '2']]);
  });

  it('drops a BOM and reads a last record without a line break', () => {
    const got = streamAll('\uFEFFa,b\n1,2\n3,4', [3]);
    assert.deepEqual(got.header, ['a', 'b']);
    assert.deepEqual(got.rows, [['1', '2'], ['3', '4']]);
  });

  it('matches one-shot parsing for random tables cut at random places (property)', () => {
    const cell = fc.string({ unit: fc.constantFrom('a', 'Z', ',', '"', '\n', '\r\n', ' ', '1', 'é', '😀') });
    fc.assert(
      fc.property(
        fc.array(fc.array(cell, { minLength: 3, maxLength: 3 }), { minLength: 1, maxLength: 8 }),
        fc.array(fc.integer({ min: 1, max: 40 }), { maxLength: 6 }),
        (rows, cuts) => {
          const csv = rowsToCsv(['h1', 'h2', 'h3'], rows, { neutraliseFormulas: false });
          const got = streamAll(csv, cuts);
          assert.deepEqual(got.header, ['h1', 'h2', 'h3']);
          // skipEmptyLines drops records that are a single empty line; a 3-column record never is.
          assert.deepEqual(got.rows, rows);
        },
      ),
    );
  });
});

describe('dataset view', () => {
  const ds = new Dataset();
  ds.reset(['Amount', 'Created_date', 'Date_of_report', 'Order_description']);
  ds.append([
    ['10.000', '2025-01-02 10:00:00', '02.01.2025', 'Visa order'],
    ['9.500', '2024-12-31 23:59:59', '31.12.2024', 'mastercard'],
    ['100.000', '2025-01-01 00:00:00', '01.01.2025', 'VISA refund'],
  ]);
  ds.complete = true;
  const rowsOf = (order: Uint32Array | null) => [...(order ?? [])].map((i) => ds.rows[i][0]);

  it('sorts Amount numerically and dates chronologically', async () => {
    const always = () => true;
    assert.deepEqual(rowsOf(await ds.view({ sorting: { column: 0, desc: false }, filters: new Map(), search: '' }, always)), ['9.500', '10.000', '100.000']);
    assert.deepEqual(rowsOf(await ds.view({ sorting: { column: 1, desc: true }, filters: new Map(), search: '' }, always)), ['10.000', '100.000', '9.500']);
    assert.deepEqual(rowsOf(await ds.view({ sorting: { column: 2, desc: false }, filters: new Map(), search: '' }, always)), ['9.500', '100.000', '10.000']);
  });

  it('combines a column filter, the global search and the sort', async () => {
    const always = () => true;
    assert.deepEqual(rowsOf(await ds.view({ sorting: null, filters: new Map([[3, 'visa']]), search: '' }, always)), ['10.000', '100.000']);
    assert.deepEqual(rowsOf(await ds.view({ sorting: { column: 0, desc: true }, filters: new Map([[3, 'visa']]), search: '' }, always)), ['100.000', '10.000']);
    assert.deepEqual(rowsOf(await ds.view({ sorting: null, filters: new Map(), search: '31.12' }, always)), ['9.500']);
    assert.deepEqual(rowsOf(await ds.view({ sorting: null, filters: new Map([[3, 'visa']]), search: 'refund' }, always)), ['100.000']);
  });

  it('abandons a filter pass when a newer query supersedes it', async () => {
    const big = new Dataset();
    big.reset(['v']);
    big.append(Array.from({ length: 250_000 }, (_, i) => [String(i)]));
    big.complete = true;
    let current = true;
    const pending = big.view({ sorting: null, filters: new Map([[0, '7']]), search: '' }, () => current);
    current = false;
    assert.equal(await pending, null);
  });
});
