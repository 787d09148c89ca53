import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { pieceOfRows } from '../../src/core/csv/reportReader';
import { compileFilter } from '../../src/core/query/filter';
import { describeProblem, parseExpression } from '../../src/core/query';
import type { QueryProblem } from '../../src/core/query/problem';

const COLUMNS = [
  'Merchant_Name',
  'Transaction_id',
  'Created_date',
  'Amount',
  'Currency',
  'Transaction_type',
  'Order description',
  'Date_of_report',
];

const ROWS = [
  ['Demo Shop', '1', '2026-01-05 10:00:00', '12.500', 'EUR', 'sale', 'First', '05.01.2026'],
  ['Demo Shop', '2', '2026-01-05 23:59:59', '100', 'EUR', 'Declined sale', 'He said "no"', '05.01.2026'],
  ['Acme', '3', '2026-01-06 00:00:00', '100.000', 'USD', 'declined', '', '06.01.2026'],
  ['Acme', '4', '2026-02-01 08:00:00', '', 'USD', 'refund', 'Third', '01.02.2026'],
  ['Zeta', '5', 'yesterday', 'abc', 'eur', 'sale', 'Fourth', '31.12.2025'],
  ['Zeta', '6', '2025-12-31', '-0.01', 'JPY', 'chargeback', '  ', 'not a date'],
];

/** The Transaction_id of every row the expression keeps. */
function matching(expression: string, rows = ROWS): string[] {
  const parsed = parseExpression(expression, COLUMNS);
  if (!parsed.ok) throw new Error(`${expression}: ${parsed.problem.message}`);
  if (!parsed.expr) return rows.map((r) => r[1]);
  const test = compileFilter(parsed.expr);
  const piece = pieceOfRows(rows, COLUMNS.length);
  return rows.flatMap((r, i) => (test(piece, i * COLUMNS.length) ? [r[1]] : []));
}

function problemOf(expression: string): QueryProblem {
  const parsed = parseExpression(expression, COLUMNS);
  assert.equal(parsed.ok, false, `${expression} should be refused`);
  return (parsed as { problem: QueryProblem }).problem;
}

describe('query expressions: what they match', () => {
  it('the issue example: currency, a number and a word inside text', () => {
    assert.deepEqual(matching('Currency = "EUR" and Amount >= 100 and Transaction_type contains "declined"'), ['2']);
  });

  it('numbers compare as exact decimals, whatever their scale; a cell that is no amount never matches', () => {
    assert.deepEqual(matching('Amount = 100'), ['2', '3']);
    assert.deepEqual(matching('Amount = 12.5'), ['1']);
    assert.deepEqual(matching('Amount != 100'), ['1', '6'], 'the empty and the unreadable amount match neither = nor !=');
    assert.deepEqual(matching('not (Amount = 100)'), ['1', '4', '5', '6'], 'but not (…) does');
    assert.deepEqual(matching('Amount < 0'), ['6']);
    assert.deepEqual(matching('0 > Amount'), ['6'], 'a value on the left reads the other way round');
    assert.deepEqual(matching('Amount > 99.999999999999999999'), ['2', '3'], 'long literals compare exactly');
  });

  it('text compares without regard to case; quoted is always text', () => {
    assert.deepEqual(matching('Currency = "eur"'), ['1', '2', '5']);
    assert.deepEqual(matching('Transaction_type starts with "DECL"'), ['2', '3']);
    assert.deepEqual(matching('Transaction_type ends with "SALE"'), ['1', '2', '5']);
    assert.deepEqual(matching('Transaction_type not contains "sale"'), ['3', '4', '6']);
    assert.deepEqual(matching('`Order description` contains "said ""no"""'), ['2'], 'a doubled quote is one quote');
  });

  it('in (…) and not in, with text, numbers and dates mixed', () => {
    assert.deepEqual(matching('Currency in ("usd", "JPY")'), ['3', '4', '6']);
    assert.deepEqual(matching('Currency not in ("usd", "JPY")'), ['1', '2', '5']);
    assert.deepEqual(matching('Amount in (12.5, 100)'), ['1', '2', '3']);
    assert.deepEqual(matching('Created_date in (2025-12-31, 2026-02-01)'), ['4', '6']);
  });

  it('dates in the two shapes; a date without a time is the whole day', () => {
    assert.deepEqual(matching('Created_date = 2026-01-05'), ['1', '2']);
    assert.deepEqual(matching('Created_date >= 2026-01-06'), ['3', '4']);
    assert.deepEqual(matching('Created_date > 2026-01-05'), ['3', '4']);
    assert.deepEqual(matching('Created_date < 2026-01-05 12:00:00'), ['1', '6'], 'a cell without a time is at midnight');
    assert.deepEqual(matching('Date_of_report = 05.01.2026'), ['1', '2']);
    assert.deepEqual(matching('Date_of_report < 2026-01-01'), ['5'], 'either shape compares with either');
    assert.deepEqual(matching('Created_date >= 01.02.2026'), ['4']);
  });

  it('is empty (spaces count as empty), and, or, not and parentheses with and binding tighter', () => {
    assert.deepEqual(matching('Amount is empty'), ['4']);
    assert.deepEqual(matching('`Order description` is empty'), ['3', '6']);
    assert.deepEqual(matching('`Order description` is not empty'), ['1', '2', '4', '5']);
    assert.deepEqual(matching('Currency = "USD" or Currency = "JPY" and Amount < 0'), ['3', '4', '6']);
    assert.deepEqual(matching('(Currency = "USD" or Currency = "JPY") and Amount < 0'), ['6']);
    assert.deepEqual(matching('NOT Currency = "EUR" AND Merchant_Name = "Acme"'), ['3', '4'], 'keywords in any case');
  });

  it('columns compare with columns: as numbers, dates or text by what both cells hold; mixed kinds never match', () => {
    assert.deepEqual(matching('Transaction_id < Amount'), ['1', '2', '3']);
    assert.deepEqual(matching('Created_date = Date_of_report'), ['1', '2', '3', '4'], 'a date without a time is its whole day');
    assert.deepEqual(matching('Merchant_Name < Transaction_type'), ['1', '3', '4']);
  });

  it('a column name in another case is found when only one column has it', () => {
    assert.deepEqual(matching('currency = "JPY"'), ['6']);
  });

  it('an empty expression keeps every row', () => {
    assert.deepEqual(matching('   '), ['1', '2', '3', '4', '5', '6']);
  });
});

describe('query expressions: problems name their place', () => {
  const cases: [string, string, number, number][] = [
    // expression, words the message holds, 0-based offset and end
    ['Currency = "EUR" and Amount >=', "expected a value after '>='", 30, 31],
    ['Curency = "EUR"', 'did you mean Currency?', 0, 7],
    ['Currency = EUR', 'text is written in quotes: "EUR"', 11, 14],
    ['Currency = "EUR', 'no closing "', 11, 12],
    ['(Amount > 5', "the '(' opened here has no ')'", 0, 1],
    ['Amount > 5)', "')' closes no '('", 10, 11],
    ['Amount 5', 'expected =, !=, <, <=, >, >=, contains', 7, 8],
    ['Amount > 5 Currency', "expected 'and', 'or' or the end", 11, 19],
    ['Created_date > 2026-02-30', 'not a real date', 15, 25],
    ['Amount > 1,5', "expected 'and', 'or' or the end after a condition, found ','", 10, 11],
    ['Amount > 12abc', "'12abc' is neither a number nor a date", 9, 14],
    ['Amount > .5', 'write 0.5', 9, 10],
    ['"EUR" = "USD"', 'compare a column with a value', 6, 7],
    ['Currency in "EUR"', "expected '(' and a list", 12, 17],
    ['Currency in ("EUR" "USD")', "expected ',' or ')'", 19, 24],
    ['Currency in (Amount)', 'holds values, not columns', 13, 19],
    ['Transaction_type starts "x"', "expected 'with'", 24, 27],
    ['Amount is full', "expected 'empty'", 10, 14],
    ['Amount = and', "found the keyword 'and'", 9, 12],
    ['Amount # 5', "unexpected '#'", 7, 8],
    ['`Order desc` = "x"', "no column 'Order desc'", 0, 12],
    ['()', 'expected a condition inside the parentheses', 1, 2],
    ['"x" contains "y"', 'needs a column on its left', 0, 3],
    // An amount column compared with text matched no row, without a word (issue 43).
    ['Amount >= "abc"', 'Amount holds amounts: compare it with a number, not the text "abc", such as Amount >= 10.00', 10, 15],
    ['Amount = "100"', 'write 100 without quotes', 9, 14],
    ['"5" < Amount', 'not the text "5"', 0, 3],
  ];
  for (const [expression, words, at, end] of cases) {
    it(`${expression}`, () => {
      const p = problemOf(expression);
      assert.ok(p.message.includes(words), `${p.message} should say ${words}`);
      assert.deepEqual([p.at, p.end], [at, end], p.message);
    });
  }

  it('the CLI and the table show the place under the expression', () => {
    const source = 'Currency = "EUR" and Amount >=';
    assert.equal(
      describeProblem(source, problemOf(source)),
      `column 31: expected a value after '>=', found the end\n  ${source}\n  ${' '.repeat(30)}^`,
    );
    const lines = 'Currency = "EUR"\nand Amont > 5';
    assert.match(describeProblem(lines, problemOf(lines)), /^line 2, column 5: no column 'Amont'.*\n {2}and Amont > 5\n {6}\^{5}$/);
  });

  it('never throws, and any problem lies inside the expression (property)', () => {
    const pieces = fc.constantFrom(
      'Amount',
      'Currency',
      '`Order description`',
      '=',
      '!=',
      '<=',
      '>',
      'and',
      'or',
      'not',
      '(',
      ')',
      '"EUR"',
      "'x'",
      '12.5',
      '-3',
      '2026-01-05',
      '05.01.2026',
      'contains',
      'starts',
      'with',
      'in',
      ',',
      'is',
      'empty',
      '#',
      '"open',
      '.5',
    );
    fc.assert(
      fc.property(fc.array(pieces, { maxLength: 12 }), (words) => {
        const source = words.join(' ');
        const parsed = parseExpression(source, COLUMNS);
        if (parsed.ok) return;
        assert.ok(parsed.problem.at >= 0 && parsed.problem.at <= source.length, `${source}: at ${parsed.problem.at}`);
        assert.ok(parsed.problem.end > parsed.problem.at && parsed.problem.end <= source.length + 1);
        assert.ok(parsed.problem.message.length > 0);
      }),
      { numRuns: 2000 },
    );
  });
});
