import { test } from 'node:test';
import assert from 'node:assert/strict';
import { scheduleProblems as problemsOf } from '../../src/core/schedule/problems';

const scheduleProblems = (values: Record<string, string>) => problemsOf(values).map((p) => p.message);

const ok = { period: 'month', interval: '1', 'start-date': '15.01.2027', amount: '10.00' };

test('a row whose schedule can be computed has no problems', () => {
  assert.deepEqual(scheduleProblems(ok), []);
  assert.deepEqual(scheduleProblems({ amount: '1' }), [], 'a one-off charge today is a schedule');
  assert.deepEqual(scheduleProblems({ 'amount-from': '1', 'amount-to': '2', 'max-repeats-number': '3', period: 'day', interval: '2' }), []);
});

test('a malformed value is named with the value as written, never guessed around', () => {
  assert.deepEqual(scheduleProblems({ ...ok, 'start-date': '2027-01-15' }), [
    'start-date "2027-01-15" is not a real date written DD.MM.YYYY',
  ]);
  assert.deepEqual(scheduleProblems({ ...ok, 'finish-date': '31.02.2027' }), [
    'finish-date "31.02.2027" is not a real date written DD.MM.YYYY',
  ]);
  assert.deepEqual(scheduleProblems({ ...ok, period: 'monthly' }), ['period "monthly" is not day, week or month']);
  assert.deepEqual(scheduleProblems({ ...ok, interval: '0' }), ['interval "0" is not a whole number of 1 or more']);
  assert.deepEqual(scheduleProblems({ ...ok, amount: '', 'amount-sequence': '1.00,x,3' }), [
    'amount-sequence element "x" is not an amount greater than 0 with at most 3 decimals',
  ]);
});

test('a missing value is named too', () => {
  assert.deepEqual(scheduleProblems({ ...ok, interval: '' }), ['period is set but interval is missing']);
  assert.deepEqual(scheduleProblems({ ...ok, amount: ' ' }), ['no amount: set amount, amount-from with amount-to, or amount-sequence']);
  assert.deepEqual(scheduleProblems({ ...ok, amount: '', 'amount-from': '5' }), ['amount-from is set without its pair amount-to']);
});

test('only date-shaping problems hide the dates; an amount problem leaves them', () => {
  assert.deepEqual(
    problemsOf({ ...ok, 'start-date': '2027-01-15' }).map((p) => [p.column, p.blocksDates]),
    [['start-date', true]],
  );
  assert.deepEqual(
    problemsOf({ ...ok, amount: 'ten' }).map((p) => [p.column, p.blocksDates]),
    [['amount', false]],
  );
});
