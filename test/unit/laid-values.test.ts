import { test } from 'node:test';
import assert from 'node:assert/strict';
import { floorText, joinLaid, laid, laidCsv, laidJson, padLaid, vet, vouched, words } from '../../src/core/output';
import { throughOutputBoundary } from '../../src/cli/boundary';
import { tableCell, tableLine } from '../../src/cli/output';

// Mask values, not layouts (issue 38): a value is checked by its type before it is laid out
// (src/core/output/values.ts), and a layout of vetted values, vouched for, is not read again by the floor
// (src/core/output/laid.ts, src/cli/boundary.ts).

/** What the CLI's floor writes for these writes, in order. */
function throughFloor(...writes: string[]): string {
  let out = '';
  const { ctx, flush } = throughOutputBoundary({ stdout: (t: string) => void (out += t), stderr: () => undefined });
  for (const w of writes) ctx.stdout(w);
  flush();
  return out;
}

test('a value of its type passes as it is; one that is not its type is scanned as free text', () => {
  assert.equal(vet.date('28.12.2025'), '28.12.2025');
  assert.equal(vet.date('2027-02-01 10:00:00'), '2027-02-01 10:00:00');
  assert.equal(vet.amount('29.990'), '29.990');
  assert.equal(vet.amount('1,234,567.50'), '1,234,567.50');
  assert.equal(vet.count(123456789012), '123456789012');
  const hash = '3f6109184411111111111111119750cf0aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa';
  assert.equal(vet.hash(hash), hash);
  assert.equal(vet.id('7bac2e02-8183-4276-9800-034019f2ba4b'), '7bac2e02-8183-4276-9800-034019f2ba4b');
  assert.equal(vet.id('65a1b2c3d4e5f60718293a4b'), '65a1b2c3d4e5f60718293a4b');
  // A card number handed over as a date, an amount, a count, a hash or an id is none of them: masked.
  for (const v of [
    vet.date('4111111111111111'),
    vet.amount('4111111111111111'),
    vet.count(4111111111111111),
    vet.id('4111 1111 1111 1111'),
  ])
    assert.match(v, /^4111\s?11\*\*/, v);
  assert.equal(
    vet.hash('4'.repeat(15) + '1'.repeat(49)),
    '4'.repeat(15) + '1'.repeat(49),
    '64 digits are no card: the floor reads them so too',
  );
  // Free text: masked, a labelled CVV hidden, one line.
  assert.equal(vet.text('card 4111 1111 1111 1111\ncvv 123\x1b[2J'), 'card 4111 11** **** 1111\\ncvv •••\\x1b[2J');
});

test('values meeting on a laid line are two values: a date beside an amount, two halves of a number', () => {
  const line = laid`${vet.date('28.12.2025')} ${vet.amount('29.990')} EUR\n`;
  assert.equal(throughFloor(vouched(line)), '28.12.2025 29.990 EUR\n');
  // Each half vetted alone holds no card number; side by side, read whole by the floor, they look like one.
  const halves = laid`${vet.text('4111 1111 1111')} ${vet.text('1111')}\n`;
  assert.equal(throughFloor(halves), '4111 11** **** 1111\n', 'not vouched for: read whole');
  assert.equal(throughFloor(vouched(halves)), '4111 1111 1111 1111\n', 'vouched for: let through unread');
});

test('each vouch lets one write through; anything else is read whole', () => {
  const halves = laid`${vet.text('4111 1111 1111')} ${vet.text('1111')}\n`;
  const text = vouched(halves);
  let out = '';
  const { ctx, flush } = throughOutputBoundary({ stdout: (t: string) => void (out += t), stderr: () => undefined });
  ctx.stdout(text);
  ctx.stdout(text);
  flush();
  assert.equal(out, '4111 1111 1111 1111\n4111 11** **** 1111\n');
  // After a piece of a line waiting for its end, a vouched text joins it and is read whole.
  assert.equal(throughFloor('x ', vouched(halves)), 'x 4111 11** **** 1111\n');
  // A vouched text that ends inside a line waits like any other, and is read with what completes it.
  assert.equal(throughFloor(vouched(laid`${vet.text('4111 1111 1111')} `), '1111\n'), '4111 11** **** 1111\n');
  // The editor's floors take the same vouch.
  assert.equal(floorText(vouched(halves)), '4111 1111 1111 1111\n');
  assert.equal(floorText('4111 1111 1111 1111\x1b'), '4111 11** **** 1111\\x1b');
});

test('builders: padding by characters, joins and words of ours', () => {
  assert.equal(padLaid(vet.text('ab'), 4), 'ab  ');
  assert.equal(padLaid(vet.text('𝟏𝟐'), 4, 'start'), '  𝟏𝟐');
  assert.equal(joinLaid([vet.count(1), words('x'), vet.amount('2.5')], ', '), '1, x, 2.5');
});

test('a table laid out from vetted cells: cells masked as free text, a cut cell vetted again', () => {
  const cells = ['4111111111111111', '28.12.2025', `${'x'.repeat(22)} 41111111111111117777`];
  const shown = cells.map(tableCell);
  assert.equal(shown[0], '411111******1111');
  assert.equal(shown[1], '28.12.2025');
  // 20 digits are no card number, but the cell's first 39 characters (the cut) end in 16 that are one.
  assert.equal(shown[2], `${'x'.repeat(22)} 411111******1111…`);
  assert.equal(tableLine(shown.slice(0, 2), [18, 12]), '411111******1111    28.12.2025');
});

test('a cut hash or UUID keeps its first characters: its prefix is no card number', () => {
  // The typed-values property found this one: a content hash cut to 39 characters is no longer a hash's
  // shape, and its 15 digits between two letters pass Luhn, so rescanning the cut masked part of the hash.
  const hash = `000000000000000000a162710658980550a${'0'.repeat(29)}`;
  assert.equal(tableCell(hash), `${hash.slice(0, 39)}…`);
  const uuidThenDigits = '8f14e45f-ceea-467f-a0e6-5e0a8f7b6c1d 4111111111111111';
  // After the id, the cut is scanned again as ever.
  assert.equal(tableCell(`${uuidThenDigits}7777`), `8f14e45f-ceea-467f-a0e6-5e0a8f7b6c1d 41…`);
  assert.equal(vet.cut(vet.cell('x 41111111111111117777'), 18), 'x 411111******1111');
});

test('vouched pieces of one long line pass the floor unread; a piece not vouched for makes the line read whole', () => {
  const half = laid`${vet.text('4111 1111 1111')} `;
  const rest = laid`${vet.text('1111')}\n`;
  // A JSON document written a thousand rows at a time is one line in pieces, each ending between two values.
  assert.equal(throughFloor(vouched(half), vouched(rest)), '4111 1111 1111 1111\n');
  assert.equal(throughFloor(vouched(half), '1111\n'), '4111 11** **** 1111\n', 'the end not vouched for: read whole');
  assert.equal(throughFloor('x ', vouched(half), vouched(rest)), 'x 4111 11** **** 1111\n', 'the start not vouched for');
  assert.equal(throughFloor(vouched(half)), '4111 1111 1111 ', 'flushed as it was vouched for');
});

test('laidJson: strings masked one by one; a number that is not a count or an amount leaves the document to the floor', () => {
  assert.equal(
    laidJson({ date: '28.12.2025', amount: 29.99, n: 123456789012, card: '4111111111111111' }),
    '{"date":"28.12.2025","amount":29.99,"n":123456789012,"card":"411111******1111"}',
  );
  assert.equal(laidJson({ n: 4111111111111111 }), undefined);
  assert.equal(laidJson([1e21]), undefined);
  assert.equal(
    laidCsv([
      ['a', 'n'],
      ['=1+1', '4111111111111111'],
    ]),
    "a,n\r\n'=1+1,411111******1111\r\n",
  );
});
