// Issue 23: on open, a large file's first screen of problems is published before the whole file's lint.
// Every problem of the first screen must be one the whole file's lint also has (the record cut by the
// screen's edge is left out, or its open quote would read as csv-syntax).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { lint } from '../../src/core/rules/lint';
import { firstScreen } from '../../src/language-server/firstScreen';
import { saidText } from '../../src/core/output';

const HEADER = 'client-orderid;rp_card_type;credit-card-number;amount;currency;order_desc';

function file(cutQuoted: boolean): string {
  const rows = Array.from({ length: 3_000 }, (_, i) => `o${i % 1_000};DST;5555555555554444;${i % 7 ? '5' : 'x'};EUR;d`);
  // A quoted description spanning lines 298-301: the first screen's edge goes through it.
  if (cutQuoted) rows[296] = 'q;DST;5555555555554444;5;EUR;"one\ntwo\nthree\nfour"';
  rows[2_500] = 'late;SRC;5555555555554444;5;EUR;d';
  return [HEADER, ...rows].join('\n') + '\n';
}

describe('first screen on open', () => {
  for (const cutQuoted of [false, true]) {
    it(`shows only problems the whole file's lint has${cutQuoted ? ' (a quoted field across the edge)' : ''}`, () => {
      const text = file(cutQuoted);
      const doc = TextDocument.create('file:///big.rpcsv', 'paygate-recurring-csv', 1, text);
      const first = firstScreen(doc);
      const whole = lint(text).diagnostics;
      const key = (d: (typeof whole)[number]) => `${d.range.start.line}:${d.range.start.character}:${d.code}:${saidText(d.message)}`;
      const all = new Set(whole.map(key));
      assert.ok(first.length > 40, `${first.length} problems on the first screen`);
      for (const d of first) assert.ok(all.has(key(d)), `not in the whole file's lint: ${key(d)}`);
      assert.ok(first.every((d) => d.range.start.line < 300));
      // What the first screen cannot know yet (the SRC row far below) comes with the whole file's lint.
      assert.ok(whole.some((d) => d.code === 'missing-column') && !first.some((d) => saidText(d.message).includes('SRC')));
    });
  }
});
