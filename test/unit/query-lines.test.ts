import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { writeQueryText } from '../../src/cli/format/query';
import { takeVouched } from '../../src/core/output';
import { QueryStream } from '../../src/core/query/stream';
import { oldQueryText } from '../fixtures/query/oldQueryText';

// Issue 40: `paygate query --group-by` lays its group lines out by appending to one text per ~1 MB
// (writeGroupLines), not with arrays, pads and a join per line. The text must be the one the old layout
// gave (test/fixtures/query/oldQueryText.ts) for any keys (a card number, which is masked; wide characters;
// spaces; empty), aggregates and terminal width, and it must still leave as layouts the floor trusts.

const key = fc.oneof(
  fc.constantFrom('', ' ', 'a ', 'T1', '4111111111111111', '4111 1111 1111 1111', '😀x', '漢字', 'é', 'x'.repeat(70), '=1+1', 'a\tb'),
  fc.string({ maxLength: 6 }),
);
const row = fc.record({
  id: key,
  amount: fc.oneof(
    fc.constantFrom('', 'x', '-3.5', '0'),
    fc.integer({ min: 0, max: 99_999 }).map((n) => (n / 100).toFixed(2)),
  ),
  currency: fc.constantFrom('EUR', 'USD', 'JPY'),
  type: fc.constantFrom('Sale approved', 'Refund', 'Payout'),
});
const quote = (v: string) => `"${v.replaceAll('"', '""')}"`;
const csv = (rows: { id: string; amount: string; currency: string; type: string }[]) =>
  [
    '"Transaction_id","Amount","Currency","Transaction_type"',
    ...rows.map((r) => [r.id, r.amount, r.currency, r.type].map(quote).join(',')),
  ].join('\r\n') + '\r\n';

const ASKS: Record<string, string[]>[] = [{ sum: ['Amount'] }, { count: [] }, { sum: ['Amount'], avg: ['Amount'] }, {}];

function bothWays(text: string, ask: Record<string, string[]>, columns: number) {
  const spec = { groupBy: ['Transaction_id'], ...ask, count: 'count' in ask };
  const run = () => {
    const stream = new QueryStream(spec);
    stream.push(text);
    return stream.end()!;
  };
  const writes: string[] = [];
  const vouched: boolean[] = [];
  writeQueryText('r.csv', run(), columns, (t) => {
    writes.push(t);
    vouched.push(takeVouched(t));
  });
  const old: string[] = [];
  oldQueryText('r.csv', run(), columns, (t) => old.push(t));
  return { now: writes.join(''), old: old.join(''), writes, vouched };
}

describe("a query's group lines laid out in chunks", () => {
  it('are the old layout’s lines', () => {
    fc.assert(
      fc.property(fc.array(row, { maxLength: 60 }), fc.nat(ASKS.length - 1), fc.integer({ min: 0, max: 200 }), (rows, a, columns) => {
        const { now, old } = bothWays(csv(rows), ASKS[a], columns);
        assert.equal(now, old);
        assert.ok(!now.includes('4111111111111111') && !now.includes('4111 1111 1111 1111'), 'a card number is masked');
      }),
      { numRuns: 300 },
    );
  });

  it('leave in more than one write past a chunk, each vouched for as a layout', () => {
    const rows = Array.from({ length: 30_000 }, (_, i) => ({ id: `T${i}`, amount: '1.00', currency: 'EUR', type: 'Refund' }));
    const { now, old, writes, vouched } = bothWays(csv(rows), { sum: ['Amount'] }, 100);
    assert.equal(now, old);
    assert.ok(writes.length > 1, `${writes.length} writes`);
    assert.ok(
      vouched.every((v) => v),
      'each write is a layout of vetted values',
    );
  });
});
