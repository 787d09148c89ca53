import { test } from 'node:test';
import assert from 'node:assert/strict';
import { throughOutputBoundary } from '../../src/cli/boundary';
import { saidOut } from '../../src/cli/output';
import { outcomeText } from '../../src/core/gateway/outcomeText';
import type { GatewayOutcome } from '../../src/core/gateway/outcome';
import { damageText } from '../../src/core/ledger/words';
import { approvalsText } from '../../src/core/ledger/approvals';
import { approvedLines } from '../../src/core/submit/approveBatch';
import { isSaid, said, saidText, terminalSafe, typed, type Said } from '../../src/core/output';
import { describeSchedule } from '../../src/core/schedule/describe';
import { parseGatewayDate } from '../../src/core/dates';
import { testContext } from '../fixtures/cli/context';

// Mask values, not layouts (issue 38): the sentences the core composes (an answer's summary, the schedule's
// rule, the approvals, the ledger's damage) are a `Said`, our words and each value with its type, which every
// face lays out part by part (the CLI's saidOut, the editor's shown/log). Two values meeting on the line are
// never read as one card number; a card number inside a value of free text is still masked.

/** What `text` looks like on standard output, written as a command writes it, through the CLI's floor. */
function throughFloor(text: string): string {
  let out = '';
  const { ctx, flush } = throughOutputBoundary(testContext({ stdout: (t) => void (out += t) }));
  ctx.stdout(text);
  flush();
  return out;
}

const accepted: GatewayOutcome = {
  outcome: 'accepted',
  status: 200,
  fields: { 'recurring-payment-id': '1001', status: 'active', 'serial-number': 'S-1' },
  raw: '',
};

// A gateway's time with a fraction and an offset (the gateway family writes such times: ISO 8601 with a
// numeric offset), then an amount: the digits of the offset and the amount meet in a run that passes Luhn.
const TIME = '2026-01-09T12:36:36.1332+0100';
const AMOUNT = '863171.09';

test('an outcome sentence that carries a date and an amount: whole through the floor as a Said, damaged when composed', () => {
  const what = said`${typed.text('b.rpcsv')} (${typed.count(4)} rows) due ${typed.date(TIME)} ${typed.amount(AMOUNT)}`;
  const shown = throughFloor(saidOut(outcomeText(accepted, what)));
  assert.match(shown, /^Accepted \(HTTP 200\): b\.rpcsv \(4 rows\) due 2026-01-09T12:36:36\.1332\+0100 863171\.09\n/);
  assert.doesNotMatch(shown, /\*/, shown);
  // The same line composed as one string, as outcomeText took it before: the floor reads the line whole and
  // masks the offset and the amount as one card number.
  const composed = throughFloor(`Accepted (HTTP 200): b.rpcsv (4 rows) due ${TIME} ${AMOUNT}\n`);
  assert.match(composed, /\*/, 'the line scan no longer damages this: pick another pair');
});

test("an outcome sentence: the gateway's words are free text, a card number in them or in the file name is masked", () => {
  const declined: GatewayOutcome = {
    outcome: 'declined',
    status: 200,
    paymentStatus: 'declined',
    errorMessage: 'card 4111 1111 1111 1111 refused',
    fields: { note: '5555555555554444' },
    raw: '',
  };
  const s = outcomeText(declined, said`${typed.text('4242424242424242.rpcsv')}`);
  assert.ok(isSaid(JSON.parse(JSON.stringify(s))), 'plain data: it crosses to another bundle or a page as it is');
  const shown = saidText(s);
  for (const card of ['4111 1111 1111 1111', '5555555555554444', '4242424242424242']) assert.ok(!shown.includes(card), shown);
  assert.match(shown, /^Declined \(status declined\): 424242\*{6}4242\.rpcsv\n {2}card 4111 11\*\* \*{4} 1111 refused\n/);
});

test("the ledger's damage: its counts and hash prefixes are values by type, a card in the ledger's path is masked", () => {
  const hash = `412345678901${'ab'.repeat(26)}`;
  const s: Said = damageText(
    {
      id: 'd1',
      at: '2026-11-28T10:00:00Z',
      unreadableLines: 3,
      keptLines: 1000010,
      movedTo: '/tmp/4111111111111111/ledger.damaged',
      contentHashes: [hash],
      unidentified: 0,
    },
    '/tmp/ledger.jsonl',
  );
  const shown = saidText(s);
  assert.match(shown, /\(sha256 412345678901\) may have been sent/, 'a hash prefix stays whole');
  assert.match(
    shown,
    /: 3 unreadable line\(s\) were moved aside with the whole file to \/tmp\/411111\*{6}1111\/ledger\.damaged; 1000010 readable/,
  );
  assert.ok(
    s.said.some((p) => Array.isArray(p) && p[0] === 'hash' && p[2] === 12),
    'the prefix is a typed hash cut at 12',
  );
});

test("the schedule's rule: dates, counts and amounts by type; an amount that is a card number is masked", () => {
  const rule = describeSchedule({
    period: 'month',
    interval: 2,
    startDate: parseGatewayDate('31.01.2027')!,
    finishDate: parseGatewayDate('31.12.2027')!,
    maxRepeats: 5,
    amountSequence: ['10.00', '4111111111111111'],
  });
  assert.equal(
    saidText(rule),
    'every 2 months from 31.01.2027 until 31.12.2027, at most 5 charges; amounts 10.00, 411111******1111 (then the last)',
  );
  assert.deepEqual(
    rule.said.filter((p) => typeof p !== 'string').map((p) => p[0]),
    ['count', 'date', 'date', 'count', 'amount', 'amount'],
  );
});

test('approvals: who (free text, masked) and when (a date, whole)', () => {
  const approvals = [
    { role: 'bob', host: 'h', at: '2027-03-12T10:00:00.000Z', mine: false },
    { role: 'carol 4111111111111111', host: 'h', at: '2027-03-13T11:30:00.000Z', mine: false },
  ];
  assert.equal(saidText(approvalsText(approvals)), 'bob (2027-03-12 10:00 UTC), carol 411111******1111 (2027-03-13 11:30 UTC)');
  const hash = `412345678901${'cd'.repeat(26)}`;
  const [what, all] = approvedLines(
    { status: 'approved', added: true, role: 'bob', contentHash: hash, approvals, needed: 2 },
    'a.rpcsv',
    'prod',
  );
  assert.equal(saidText(what), 'Approved: a.rpcsv (sha256 412345678901…) for prod by bob.');
  assert.match(saidText(all), /^Approvals of this content for prod: bob \(2027-03-12 10:00 UTC\), .* \(it needs 2 by members/);
  // The floor alone reads the composed line whole; the layout reads each value alone and needs no second look.
  assert.equal(terminalSafe(saidText(what)), saidText(what));
});
