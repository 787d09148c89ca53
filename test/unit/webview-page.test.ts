// The page's data logic runs in Node as well as in the browser; these cover it without Chromium.
import { describe, it } from 'node:test';
import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import Papa from 'papaparse';
import { detectKind, sortIndices, sortKey, type ColumnKind } from '../../webview-ui/columnKinds';
import { CsvReader, pieceOfRows } from '../../webview-ui/csvReader';
import { Dataset, needleOf } from '../../webview-ui/dataset';
import { radixSortIndices } from '../../webview-ui/radixSort';
import { ColumnStore } from '../../webview-ui/store';
import { countText, emptyState, fitWidths } from '../../webview-ui/pageText';

const kindOf = (rows: string[][], col: number) => detectKind(rows.length, (r) => rows[r][col]);
function buildKeys(rows: string[][], col: number, kind: ColumnKind): Float64Array | string[] {
  return kind === 'text' ? rows.map((r) => (r[col] ?? '').toLowerCase()) : Float64Array.from(rows, (r) => sortKey(kind, r[col] ?? ''));
}
import { rowsToCsv } from '../../src/extension/results/exportRows';

describe('column kinds and sort keys', () => {
  it('recognises the sample report shapes', () => {
    const rows = [
      ['10.000', '2025-01-02 10:00:00', '02.01.2025', 'x'],
      ['9.500', '2024-12-31 23:59:59', '31.12.2024', '10'],
      ['', '', '', ''],
    ];
    assert.equal(kindOf(rows, 0), 'number');
    assert.equal(kindOf(rows, 1), 'datetime');
    assert.equal(kindOf(rows, 2), 'date-dmy');
    assert.equal(kindOf(rows, 3), 'text');
    assert.equal(kindOf([[''], ['']], 0), 'text');
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
    const keys = buildKeys(
      values.map((v) => [v]),
      0,
      'number',
    );
    assert.deepEqual([...sortIndices(values.length, keys, false)], [2, 4, 0, 5, 1, 3]);
    assert.deepEqual([...sortIndices(values.length, keys, true)], [5, 0, 2, 4, 1, 3]);
    const text = buildKeys([['b'], [''], ['A'], ['a']], 0, 'text');
    assert.deepEqual([...sortIndices(4, text, false)], [2, 3, 0, 1]);
  });

  it('sorted numeric keys agree with numeric order for any decimals (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: -1e9, max: 1e9 }), { maxLength: 50 }), (ints) => {
        const values = ints.map((n) => (n / 1000).toFixed(3));
        const order = sortIndices(
          values.length,
          buildKeys(
            values.map((v) => [v]),
            0,
            'number',
          ),
          false,
        );
        for (let i = 1; i < order.length; i++) assert.ok(Number(values[order[i - 1]]) <= Number(values[order[i]]));
      }),
    );
  });

  it('radix-sorts numeric keys exactly like the stable comparison sort, both directions (property)', () => {
    const key = fc.oneof(fc.double({ noNaN: false }), fc.integer({ min: -5, max: 5 }), fc.constant(NaN), fc.constant(-0), fc.constant(0));
    fc.assert(
      fc.property(fc.array(key, { maxLength: 200 }), fc.boolean(), (values, desc) => {
        const keys = Float64Array.from(values);
        assert.deepEqual([...radixSortIndices(keys.length, keys, desc)], [...sortIndices(keys.length, keys, desc)]);
      }),
    );
  });

  it('makes needles case-insensitive and ignores surrounding spaces', () => {
    assert.equal(needleOf('  VisA '), 'visa');
    assert.equal(needleOf('   '), '');
  });
});

function streamAll(text: string, pieces: number[], delimiter?: string): { header: string[]; rows: string[][]; errors: number } {
  let header: string[] = [];
  const store = new ColumnStore();
  const s = new CsvReader({
    delimiter,
    onHeader: (h) => {
      header = h;
      store.reset(h);
    },
    onPiece: (p) => store.add(p),
  });
  let at = 0;
  for (const n of pieces) {
    s.push(text.slice(at, at + n));
    at += n;
  }
  s.push(text.slice(at));
  s.end();
  const rows = Array.from({ length: store.rowCount }, (_, i) => store.row(i));
  return { header, rows, errors: s.errors };
}

describe('incremental CSV parsing', () => {
  const awkward =
    '"Merchant_Name","Amount","Order_description"\r\n"Shop, Inc.","10.000","line one\r\nline two"\r\n"Q ""R""","9.500","<img src=x onerror=alert(1)>"\r\n';

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
        assert.deepEqual(
          got.rows,
          [
            ['1', `x${br}y`],
            ['3', '4'],
          ],
          `break ${JSON.stringify(br)} cut ${cut}`,
        );
      }
    }
  });

  it('uses the delimiter it is given, or the one the header uses most', () => {
    assert.deepEqual(streamAll('a;b\n1,5;2\n', [], ';').rows, [['1,5', '2']]);
    assert.deepEqual(streamAll('"a,x";b;c\n1,5;2;3\n', [4]).rows, [['1,5', '2', '3']]);
    assert.deepEqual(streamAll('a\tb\n1\t2\n', []).rows, [['1', '2']]);
  });

  it('fills short records, drops extra fields, and counts an unclosed quote', () => {
    const got = streamAll('a,b,c\n1\n1,2,3,4\n"open,5\n', [5]);
    assert.deepEqual(got.rows, [
      ['1', '', ''],
      ['1', '2', '3'],
      ['open,5\n', '', ''],
    ]);
    assert.equal(got.errors, 1);
  });

  it('drops a BOM and reads a last record without a line break', () => {
    const got = streamAll('\uFEFFa,b\n1,2\n3,4', [3]);
    assert.deepEqual(got.header, ['a', 'b']);
    assert.deepEqual(got.rows, [
      ['1', '2'],
      ['3', '4'],
    ]);
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

describe('search over the column store', () => {
  it('finds a needle only inside one value, in any column or in one (property)', () => {
    // Where the regular expression's `i` flag and lower-casing disagree (the Kelvin sign and k, Å and å,
    // Greek mu and µ, ẞ and ß) or lower-casing changes the length (İ), a case-insensitive match must still
    // be exactly what lower-casing each value finds. Those are rare, so most tables take the fast path.
    const unit = fc.oneof(
      { arbitrary: fc.constantFrom('a', 'B', ',', '"', '\n', ' ', '1', 'é', 'É', 'k', 'K', 'I', '.', 'ß', 'µ', 'Å', 'å', 'ÿ'), weight: 60 },
      { arbitrary: fc.constantFrom('\u212a', '\u0130', '\u212b', '\u039c', '\u03bc', '\u1e9e', '\u0416'), weight: 1 },
    );
    const cell = fc.string({ unit, maxLength: 6 });
    fc.assert(
      fc.property(
        fc.array(fc.array(cell, { minLength: 3, maxLength: 3 }), { minLength: 1, maxLength: 12 }),
        fc.string({
          unit: fc.constantFrom('a', 'b', ',', '"', '1', ' ', 'k', 'i', 'é', '.', '-', 'ß', 'µ', 'å', 'ÿ', '\u0436'),
          minLength: 1,
          maxLength: 3,
        }),
        fc.integer({ min: -1, max: 2 }),
        (rows, raw, col) => {
          const needle = needleOf(raw);
          fc.pre(needle !== '');
          const csv = rowsToCsv(['h1', 'h2', 'h3'], rows, { neutraliseFormulas: false });
          const store = new ColumnStore();
          const reader = new CsvReader({ onHeader: (h) => store.reset(h), onPiece: (p) => store.add(p) });
          reader.push(csv);
          reader.end();
          const hits = new Uint8Array(store.rowCount);
          for (let k = 0; k < store.pieceCount; k++) store.matchPiece(k, needle, col, hits);
          const expected = rows.map((r) => ((col < 0 ? r : [r[col]]).some((v) => v.toLowerCase().includes(needle)) ? 1 : 0));
          assert.deepEqual([...hits], expected);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('reads numeric sort keys from the text exactly as from the values (property)', () => {
    const value = fc.oneof(
      fc.double({ noNaN: true, noDefaultInfinity: true }).map(String),
      fc.integer({ min: -1e7, max: 1e7 }).map((n) => (n / 1000).toFixed(3)),
      fc.string({ unit: fc.constantFrom('1', '9', '.', '-', '+', ' ', '\t', 'e', '0'), maxLength: 20 }),
    );
    fc.assert(
      fc.property(fc.array(value, { minLength: 1, maxLength: 30 }), (values) => {
        const store = new ColumnStore();
        store.reset(['v']);
        store.addRows(values.map((v) => [v]));
        const keys = new Float64Array(values.length);
        store.numberKeys(0, 0, values.length, keys);
        assert.deepEqual(
          [...keys],
          values.map((v) => sortKey('number', v)),
        );
      }),
    );
  });

  it('searches the masked value of a card column, not the card number', () => {
    const store = new ColumnStore();
    store.reset(['credit-card-number', 'amount']);
    store.addRows([['4111111111111111', '1.00']], (row) => (row[0] = `${row[0].slice(0, 6)}******${row[0].slice(-4)}`));
    const hits = new Uint8Array(1);
    store.matchPiece(0, '1111111111', -1, hits);
    assert.equal(hits[0], 0);
    assert.deepEqual(store.row(0), ['411111******1111', '1.00']);
    assert.equal(pieceOfRows([['x', 'y']], 2).text, 'xy');
  });
});

describe('dataset view', () => {
  const ds = new Dataset();
  ds.reset(['Amount', 'Created_date', 'Date_of_report', 'Order_description']);
  ds.append([
    ['10.000', '2025-01-02 10:00:00', '02.01.2025', 'Visa order'],
    ['9.500', '2024-12-31 23:59:59', '31.12.2024', 'mastercard'],
  ]);
  ds.append([['100.000', '2025-01-01 00:00:00', '01.01.2025', 'VISA refund']]);
  ds.finish();
  const rowsOf = (order: Uint32Array | null) => [...(order ?? [])].map((i) => ds.row(i)[0]);

  it('sorts Amount numerically and dates chronologically', async () => {
    const always = () => true;
    assert.deepEqual(rowsOf(await ds.view({ sorting: { column: 0, desc: false }, filters: new Map(), search: '' }, always)), [
      '9.500',
      '10.000',
      '100.000',
    ]);
    assert.deepEqual(rowsOf(await ds.view({ sorting: { column: 1, desc: true }, filters: new Map(), search: '' }, always)), [
      '10.000',
      '100.000',
      '9.500',
    ]);
    assert.deepEqual(rowsOf(await ds.view({ sorting: { column: 2, desc: false }, filters: new Map(), search: '' }, always)), [
      '9.500',
      '100.000',
      '10.000',
    ]);
  });

  it('combines a column filter, the global search and the sort', async () => {
    const always = () => true;
    assert.deepEqual(rowsOf(await ds.view({ sorting: null, filters: new Map([[3, 'visa']]), search: '' }, always)), ['10.000', '100.000']);
    assert.deepEqual(rowsOf(await ds.view({ sorting: { column: 0, desc: true }, filters: new Map([[3, 'visa']]), search: '' }, always)), [
      '100.000',
      '10.000',
    ]);
    assert.deepEqual(rowsOf(await ds.view({ sorting: null, filters: new Map(), search: '31.12' }, always)), ['9.500']);
    assert.deepEqual(rowsOf(await ds.view({ sorting: null, filters: new Map([[3, 'visa']]), search: 'refund' }, always)), ['100.000']);
  });

  it('extends a view with rows that arrive later, and sorts the rows so far', async () => {
    const live = new Dataset();
    live.reset(['v', 'w']);
    live.append([
      ['b1', '3'],
      ['a2', '1'],
    ]);
    const always = () => true;
    const first = await live.view({ sorting: null, filters: new Map(), search: 'a' }, always);
    assert.deepEqual([...first!], [1]);
    assert.deepEqual([...(await live.view({ sorting: { column: 1, desc: false }, filters: new Map(), search: '' }, always))!], [1, 0]);
    live.append([
      ['a3', '2'],
      ['c4', '0'],
    ]);
    assert.deepEqual([...(await live.view({ sorting: null, filters: new Map(), search: 'a' }, always, 2))!], [2]);
    assert.deepEqual(
      [...(await live.view({ sorting: { column: 1, desc: false }, filters: new Map(), search: '' }, always))!],
      [3, 1, 2, 0],
    );
  });

  it('sorts again by the whole column when the last rows change its shape', async () => {
    const live = new Dataset();
    live.reset(['v']);
    live.append([['10'], ['9'], ['100']]);
    const byV = { sorting: { column: 0, desc: false }, filters: new Map(), search: '' };
    assert.deepEqual([...(await live.view(byV, () => true))!], [1, 0, 2], 'numbers so far');
    live.append([['n/a']]);
    assert.deepEqual([...(await live.view(byV, () => true))!], [1, 0, 2, 3], 'still read as numbers while loading: n/a last');
    live.finish();
    // The whole column is text: "10" < "100" < "9" < "n/a".
    assert.deepEqual([...(await live.view(byV, () => true))!], [0, 2, 1, 3]);
  });

  it('abandons a filter pass when a newer query supersedes it', async () => {
    const big = new Dataset();
    big.reset(['v']);
    for (let k = 0; k < 40; k++) big.append(Array.from({ length: 25_000 }, (_, i) => [`value ${k * 25_000 + i}`]));
    big.finish();
    let current = true;
    const pending = big.view({ sorting: null, filters: new Map([[0, '7']]), search: '' }, () => current);
    current = false;
    assert.equal(await pending, null);
  });
});

describe('what the page says about the view', () => {
  it('counts shown of total, and rows so far while loading', () => {
    assert.equal(countText({ loading: false, filtered: true, shown: 2, total: 1200 }), '2 of 1,200 rows');
    assert.equal(countText({ loading: true, filtered: false, shown: 5000, total: 5000, percent: 40 }), 'Loading… 5,000 rows (40 %)');
    assert.equal(countText({ loading: true, filtered: true, shown: 1668, total: 5001 }), 'Loading… 1,668 of 5,001 rows so far');
  });

  it('says row, not rows, after a total of one', () => {
    assert.equal(countText({ loading: false, filtered: false, shown: 1, total: 1 }), '1 of 1 row');
    assert.equal(countText({ loading: false, filtered: true, shown: 0, total: 1 }), '0 of 1 row');
    assert.equal(countText({ loading: true, filtered: false, shown: 1, total: 1 }), 'Loading… 1 row');
  });

  it('says why nothing is shown and offers the way out', () => {
    assert.equal(emptyState({ shown: 3, total: 3, complete: true, search: 'x', filters: 0 }), null);
    assert.equal(emptyState({ shown: 0, total: 0, complete: false, search: '', filters: 0 }), null, 'nothing to say before the first rows');
    assert.deepEqual(emptyState({ shown: 0, total: 0, complete: true, search: '', filters: 0 }), { message: 'This table has no rows.' });
    assert.deepEqual(emptyState({ shown: 0, total: 9, complete: true, search: ' refund ', filters: 0 }), {
      message: 'No rows match the search “refund”. Press Escape in the search box to clear it, or:',
      action: 'Clear search',
    });
    assert.deepEqual(emptyState({ shown: 0, total: 9, complete: false, search: 'a', filters: 2 }), {
      message: 'No rows match the search “a” and 2 column filters so far. Press Escape in the search box to clear it, or:',
      action: 'Clear search and column filters',
    });
  });

  it('names the filter box expression and the group that hide every row, and points at the box that holds them (issue 43)', () => {
    // It said "No rows match . Press Escape in the search box" for an expression typed in the filter box.
    assert.deepEqual(emptyState({ shown: 0, total: 80, complete: true, search: '', filters: 0, where: 'Amount > 1000' }), {
      message: 'No rows match the filter “Amount > 1000”. Press Escape in the filter box to clear it, or:',
      action: 'Clear filter',
    });
    assert.deepEqual(emptyState({ shown: 0, total: 80, complete: true, search: 'x', filters: 1, where: 'Amount > 5' }), {
      message:
        'No rows match the search “x” and the column filter and the filter “Amount > 5”. Press Escape in the search box or in the filter box to clear it, or:',
      action: 'Clear search and column filters and filter',
    });
    assert.deepEqual(emptyState({ shown: 0, total: 80, complete: true, search: '', filters: 1 }), {
      message: 'No rows match the column filter. Or:',
      action: 'Clear column filters',
    });
    const group = emptyState({ shown: 0, total: 80, complete: true, search: '', filters: 0, group: 'EUR · sale' });
    assert.equal(group?.message, 'No rows match the group EUR · sale. Back to groups shows them all.');
    for (const s of [group!, emptyState({ shown: 0, total: 9, complete: true, search: '', filters: 0, where: 'x = 1' })!])
      assert.doesNotMatch(s.message, /match \.|search box/, s.message);
  });

  it('fits columns between 64 and 420 pixels, by the longer of name and values', () => {
    const measure = (t: string, bold: boolean) => t.length * (bold ? 8 : 7);
    assert.deepEqual(fitWidths(['id', 'Order_description', 'x'], [['1', 'a'.repeat(100), '']], measure), [64, 420, 64]);
  });
});
