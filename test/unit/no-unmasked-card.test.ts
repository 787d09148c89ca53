// Issue 18: no face shows a full card number outside the document. Card numbers sit where the rules do
// not expect them (client-orderid, order_desc, a header cell, currency), and every face's output is
// searched for a run of 12-19 digits passing Luhn: the CLI's four formats, the language server's
// published diagnostics (after a whole-file lint and after rows re-checked alone) and its hovers.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { formatLint, LINT_FORMATS } from '../../src/cli/format';
import { lint } from '../../src/core/rules/lint';
import { publishedDiagnostics } from '../../src/language-server/diagnostics';
import { hoverAt } from '../../src/language-server/hover';
import { IncrementalLint } from '../../src/language-server/incremental';
import { TODAY } from '../fixtures/lint-cases/helpers';
import { unmaskedCardNumbers } from '../fixtures/unmasked';
import { saidText } from '../../src/core/output';

const HEADER = 'client-orderid;rp_card_type;credit-card-number;amount;currency;order_desc;country;4111111111111111';
const FILES: Record<string, string> = {
  'ids.rpcsv': [
    HEADER,
    '4111111111111111;DST;5555555555554444;5;EUR;card 4012888888881881;DE;x',
    '4111111111111111;DST;4111111111111112;abc;4111111111111111;4111 1111 1111 1111;DE;x',
    `${'4'.repeat(44)}4111111111111111;SRC;4111111111111111;5;EUR;x;US;x`,
    `${'4'.repeat(44)}4111111111111111;SRC;5555555555554444;5;EUR;x;4111111111111111;x`,
    '"41111111""11111111";DST;5555555555554444;5;EUR;x;DE',
  ].join('\n'),
  // No header line: the first row's card numbers are read as column names.
  'headless.rpcsv': '4111111111111111;DST;5555555555554444;5;EUR\n4111111111111111;DST;5555555555554444;5;EUR\n',
};

function assertMasked(face: string, text: string): void {
  assert.deepEqual(unmaskedCardNumbers(text), [], `${face} shows a card number:\n${text}`);
}

describe('no face shows a full card number', () => {
  it('finds one when it is there (the search itself)', () => {
    assert.deepEqual(unmaskedCardNumbers('id "4111 1111 1111 1111" and 5555555555554444, not 411111******1111'), [
      '4111111111111111',
      '5555555555554444',
    ]);
  });

  it('paygate lint, in every format', () => {
    const files = Object.entries(FILES).map(([file, text]) => ({ file, text, ...lint(text, { today: TODAY }) }));
    assert.ok(files.every((f) => f.diagnostics.length > 0));
    for (const format of LINT_FORMATS) {
      assertMasked(format, formatLint(format, files, { cwd: process.cwd(), version: '0.0.0', failures: [] }));
    }
  });

  it("the language server's diagnostics, whole-file and re-checked row by row", () => {
    for (const [name, text] of Object.entries(FILES)) {
      const doc = TextDocument.create(`file:///${name}`, 'paygate-recurring-csv', 1, text);
      const linter = new IncrementalLint(() => TODAY);
      assertMasked(`${name} opened`, JSON.stringify(publishedDiagnostics(linter.lint(doc).diagnostics, doc.uri)));
      // Every row's client-orderid becomes a card number, one keystroke-sized edit at a time.
      for (let line = 1; line < doc.lineCount; line++) {
        const change = { range: { start: { line, character: 0 }, end: { line, character: 0 } }, text: '5555555555554444' };
        TextDocument.update(doc, [change], doc.version + 1);
        linter.changed([change]);
        const shown = JSON.stringify(publishedDiagnostics(linter.lint(doc).diagnostics, doc.uri));
        assertMasked(`${name} after editing line ${line}`, shown);
      }
    }
  });

  it('the re-checked duplicate-order-id masks and cuts the id as the core does (it showed it in clear)', () => {
    const text =
      'client-orderid;rp_card_type;credit-card-number;amount;currency\n4111111111111111;DST;5555555555554444;5;EUR\nx;DST;5555555555554444;5;EUR\n';
    const doc = TextDocument.create('file:///dup.rpcsv', 'paygate-recurring-csv', 1, text);
    const linter = new IncrementalLint(() => TODAY);
    linter.lint(doc);
    const change = { range: { start: { line: 2, character: 0 }, end: { line: 2, character: 1 } }, text: '4111111111111111' };
    TextDocument.update(doc, [change], 2);
    linter.changed([change]);
    const messages = linter.lint(doc).diagnostics.map((d) => saidText(d.message));
    assert.deepEqual(messages, ['client-orderid "411111******1111" is already used on row 1']);
    const long = { range: { start: { line: 2, character: 0 }, end: { line: 2, character: 16 } }, text: 'y'.repeat(60) };
    const first = { range: { start: { line: 1, character: 0 }, end: { line: 1, character: 16 } }, text: 'y'.repeat(60) };
    TextDocument.update(doc, [long, first], 3);
    linter.changed([long, first]);
    assert.deepEqual(
      linter.lint(doc).diagnostics.map((d) => saidText(d.message)),
      [`client-orderid "${'y'.repeat(37)}..." is already used on row 1`],
    );
    assert.deepEqual(linter.counts, { patched: 2, full: 1 });
  });

  it("the language server's hovers, on every cell", () => {
    for (const [name, text] of Object.entries(FILES)) {
      const doc = TextDocument.create(`file:///${name}`, 'paygate-recurring-csv', 1, text);
      const result = lint(text, { today: TODAY });
      let hovers = 0;
      for (let offset = 0; offset < text.length; offset++) {
        if (offset > 0 && text[offset - 1] !== ';' && text[offset - 1] !== '\n') continue;
        const hover = hoverAt(doc, result, doc.positionAt(offset));
        if (!hover) continue;
        hovers++;
        assertMasked(`${name} hover at ${offset}`, JSON.stringify(hover.contents));
      }
      assert.ok(hovers > 5, `${name}: ${hovers} hovers`);
    }
  });
});
