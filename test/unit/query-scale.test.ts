import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { runQueryCommand } from '../fixtures/cli/commands';
import { parseExpression } from '../../src/core/query';
import { MAX_NESTING } from '../../src/core/query/parser';
import { planQuery } from '../../src/core/query/plan';
import { QueryRun } from '../../src/core/query/run';
import { QueryStream } from '../../src/core/query/stream';
import { captured } from '../fixtures/cli/context';

// Issue 40: a query stays bounded however the report or the expression is shaped. A group-by with more
// groups than --max-groups keeps no more than that many and says how many there were; `in (…)` of numbers
// is a set by exact value and answers as the `or` of its `=` comparisons, and an `or` of many `=` of one
// column is such a set; `and`/`or` chains are flat and nesting has a limit, refused at its place.

const report = (rows: [string, string, string][]) =>
  ['"Transaction_id","Amount","Currency"', ...rows.map((r) => r.map((v) => `"${v}"`).join(','))].join('\r\n') + '\r\n';

async function query(text: string, args: string[]) {
  const cwd = mkdtempSync(join(tmpdir(), 'paygate-query-scale-'));
  try {
    writeFileSync(join(cwd, 'r.csv'), text);
    const { ctx, out, err } = captured({ cwd, columns: 100 });
    const code = await runQueryCommand(['r.csv', ...args], ctx);
    return { code, out: out(), err: err() };
  } finally {
    rmSync(cwd, { recursive: true, force: true });
  }
}

const rowsOf = (n: number): [string, string, string][] =>
  Array.from({ length: n }, (_, i) => [`T${i % 40}`, `${i}.50`, i % 2 ? 'EUR' : 'USD']);

describe('query --group-by past the bound on groups', () => {
  it('says there are too many groups and how many, and keeps no more than the bound', async () => {
    const text = report(rowsOf(60));
    const r = await query(text, ['--group-by', 'Transaction_id', '--sum', 'Amount', '--max-groups', '7']);
    assert.equal(r.code, 2);
    assert.match(r.err, /too many groups to show: 40 groups, over the limit of 7;.*--max-groups N/);
    assert.equal(r.out, '');

    const stream = new QueryStream({ groupBy: ['Transaction_id'], sum: ['Amount'], maxGroups: 7 });
    stream.push(text);
    const outcome = stream.end()!;
    assert.deepEqual(outcome.tooManyGroups, { groups: 40, limit: 7 });
    assert.equal(outcome.groups.length, 0);
  });

  it('answers as before at or under the bound, and refuses a bound that is no number', async () => {
    const text = report(rowsOf(60));
    const unbounded = await query(text, ['--group-by', 'Transaction_id', '--sum', 'Amount', '--format', 'json', '--max-groups', '1000000']);
    const exact = await query(text, ['--group-by', 'Transaction_id', '--sum', 'Amount', '--format', 'json', '--max-groups', '40']);
    const byDefault = await query(text, ['--group-by', 'Transaction_id', '--sum', 'Amount', '--format', 'json']);
    assert.equal(unbounded.code, 0);
    assert.equal(exact.out, unbounded.out);
    assert.equal(byDefault.out, unbounded.out);
    assert.equal(JSON.parse(exact.out).groups.length, 40);
    for (const bad of ['0', '-3', 'many', '1.5']) {
      const r = await query(text, ['--group-by', 'Transaction_id', '--max-groups', bad]);
      assert.equal(r.code, 2, bad);
      assert.match(r.err, /--max-groups must be a whole number of at least 1/);
    }
  });

  it('a run past its bound holds a group state for the first groups only', () => {
    const plan = planQuery(['Transaction_id', 'Amount', 'Currency'], { groupBy: ['Transaction_id'], count: true });
    assert.ok(plan.ok);
    const run = new QueryRun(plan.plan, 5);
    const text = Array.from({ length: 50 }, (_, i) => `T${i}`).join('');
    const start = new Uint32Array(150);
    const end = new Uint32Array(150);
    let at = 0;
    for (let r = 0; r < 50; r++) {
      const n = `T${r}`.length;
      start[3 * r] = at;
      end[3 * r] = at + n;
      at += n;
    }
    run.addRows({ text, start, end, escaped: null }, 50, 3, 0);
    assert.equal(run.groupStates().length, 5);
    assert.equal(run.groupCount, 50);
    assert.equal(run.overBound, true);
  });
});

const amountText = fc.oneof(
  fc
    .tuple(fc.integer({ min: -30, max: 30 }), fc.integer({ min: 0, max: 3 }))
    .map(([u, s]) => (s === 0 ? `${u}` : (u / 10 ** s).toFixed(s))),
  fc.constantFrom('1.50', '1.5', '01.5', '-0', '0.000', '123456789012345678901.5', '123456789012345678901.50', '+2', '2.'),
);

describe('query --where in (…) of numbers', () => {
  it('matches the rows the or of its = comparisons matches, by exact value', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(amountText, { minLength: 1, maxLength: 12 }),
        fc.array(amountText, { minLength: 1, maxLength: 8 }),
        async (cells, list) => {
          const text = report(cells.map((a, i) => [`T${i}`, a, 'EUR']));
          const numbers = list.filter((v) => /^[+-]?\d+(\.\d+)?$/.test(v));
          fc.pre(numbers.length > 0);
          const asSet = await query(text, [
            '--where',
            `Amount in (${numbers.join(', ')})`,
            '--group-by',
            'Transaction_id',
            '--format',
            'json',
          ]);
          // Each comparison on its own (a `not (not …)` is no `=` term, so the `or` does not make it a set).
          const asOr = await query(text, [
            '--where',
            numbers.map((v) => `not (not (Amount = ${v}))`).join(' or '),
            '--group-by',
            'Transaction_id',
            '--format',
            'json',
          ]);
          assert.equal(asSet.code, 0, asSet.err);
          assert.equal(asSet.out, asOr.out);
        },
      ),
      { numRuns: 60 },
    );
  });

  it('a thousand numbers, text and numbers mixed', async () => {
    const text = report(rowsOf(60));
    const list = Array.from({ length: 1000 }, (_, i) => `${i * 3}.5`);
    const r = await query(text, ['--where', `Amount in (${list.join(', ')}, "x")`, '--count', '--format', 'json']);
    assert.equal(r.code, 0, r.err);
    assert.equal(JSON.parse(r.out).total.count, 20);
  });
});

describe('query --where: an or of many = of one column', () => {
  it('matches the rows the same comparisons made one by one match (numbers, text, other columns, mixed in any order)', async () => {
    const value = fc.oneof(
      amountText.map((a) => ({ text: a, literal: a })),
      fc.constantFrom('EUR', 'usd', 'x y').map((t) => ({ text: t, literal: `"${t}"` })),
    );
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.tuple(value, fc.constantFrom('EUR', 'USD', '')), { minLength: 1, maxLength: 12 }),
        fc.array(fc.tuple(fc.constantFrom('Amount', 'Currency', 'Transaction_id'), value, fc.boolean()), { minLength: 1, maxLength: 30 }),
        async (cells, terms) => {
          fc.pre(terms.every(([, v]) => !/^[+-]?\d/.test(v.literal) || /^[+-]?\d+(\.\d+)?$/.test(v.literal)));
          const text = report(cells.map(([a, c], i) => [`T${i}`, a.text, c]));
          // Written either way round: `Amount = 5` and `5 = Amount`.
          const term = ([column, v, flip]: [string, { literal: string }, boolean]) =>
            flip ? `${v.literal} = ${column}` : `${column} = ${v.literal}`;
          const args = (where: string) => ['--where', where, '--group-by', 'Transaction_id', '--format', 'json'];
          const grouped = await query(text, args(terms.map(term).join(' or ')));
          const oneByOne = await query(text, args(terms.map((t) => `not (not (${term(t)}))`).join(' or ')));
          assert.equal(grouped.code, oneByOne.code, grouped.err);
          assert.equal(grouped.out, oneByOne.out);
        },
      ),
      { numRuns: 80 },
    );
  });
});

describe('query expressions: flat chains, bounded nesting', () => {
  it('reads a flat or of 5,000 terms into one node and answers it', async () => {
    const terms = Array.from({ length: 5000 }, (_, i) => `Amount = ${i}.5`);
    const parsed = parseExpression(terms.join(' or '), ['Amount']);
    assert.ok(parsed.ok);
    assert.equal(parsed.expr!.kind, 'or');
    assert.equal((parsed.expr as { terms: unknown[] }).terms.length, 5000);
    const r = await query(report(rowsOf(60)), ['--where', terms.join(' or '), '--count', '--format', 'json']);
    assert.equal(r.code, 0, r.err);
    assert.equal(JSON.parse(r.out).total.count, 60);
    const and = parseExpression('Amount > 1 and Amount < 9 and Currency = "EUR"', ['Amount', 'Currency']);
    assert.ok(and.ok && and.expr?.kind === 'and' && and.expr.terms.length === 3);
  });

  it('refuses 5,000 nested parentheses or nots at the place past the limit, naming the limit', async () => {
    for (const [open, close] of [
      ['(', ')'],
      ['not ', ''],
    ]) {
      const source = `${open.repeat(5000)}Amount = 1${close.repeat(5000)}`;
      const parsed = parseExpression(source, ['Amount']);
      assert.ok(!parsed.ok);
      assert.equal(parsed.problem.at, MAX_NESTING * open.length);
      assert.match(parsed.problem.message, new RegExp(`more than ${MAX_NESTING} deep`));
      const r = await query(report(rowsOf(3)), ['--where', source]);
      assert.equal(r.code, 2);
      assert.match(r.err, new RegExp(`column ${MAX_NESTING * open.length + 1}: parentheses and 'not' nest more than ${MAX_NESTING} deep`));
    }
    const deepest = `${'('.repeat(MAX_NESTING)}Amount = 1.5${')'.repeat(MAX_NESTING)}`;
    const r = await query(report(rowsOf(3)), ['--where', deepest, '--count', '--format', 'json']);
    assert.equal(r.code, 0, r.err);
    assert.equal(JSON.parse(r.out).total.count, 1);
  });
});
