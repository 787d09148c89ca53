// Issue 38, "mask values, not layouts", for lint's problem messages: a problem carries its message as a `Said`
// (our words and typed values) and every face lays it out at its own boundary, each value checked alone by
// its type. Here every face is driven as it writes: the CLI's text, JSON, SARIF and GitHub formats through
// the CLI's floor (floorText, which lets through only what was laid out and vouched for), and the language
// server's diagnostic (what VS Code shows in the Problems panel and in the hover over the squiggle).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { formatGithub } from '../../src/cli/format/github';
import { formatJson } from '../../src/cli/format/json';
import type { FileLint } from '../../src/cli/format/problems';
import { formatSarif } from '../../src/cli/format/sarif';
import { formatText } from '../../src/cli/format/text';
import { alreadySentMessage, samePayerMessage, type AlreadySentRow, type SamePayerRow, type SubmissionRecord } from '../../src/core/ledger';
import { floorText, said, saidText, terminalField, typed, vouched, type Said } from '../../src/core/output';
import { lint } from '../../src/core/rules/lint';
import { ProblemCollector } from '../../src/core/rules/problems';
import type { LintDiagnostic } from '../../src/core/rules/types';
import { codeActions, offered } from '../../src/language-server/codeActions';
import { toDiagnostic } from '../../src/language-server/convert';

const CWD = '/work/shop';
const CARD = '4111111111111111';

/** One problem on line 2, as a rule makes it. */
const problem = (message: Said, code: LintDiagnostic['code'] = 'already-sent'): LintDiagnostic => ({
  code,
  severity: 'error',
  message,
  range: { start: { line: 1, character: 0 }, end: { line: 1, character: 4 } },
  columnName: 'client-orderid',
  fixes: [],
});

/** The message as each face writes it: CLI text, JSON, SARIF, GitHub (each past the CLI's floor) and the LSP diagnostic. */
function faces(d: LintDiagnostic): Record<string, string> {
  const files: FileLint[] = [{ file: 'batch.rpcsv', text: 'client-orderid\nA-1\n', diagnostics: [d] }];
  const text = floorText(vouched(formatText(files))).split('\n')[0];
  const json = JSON.parse(floorText(formatJson(files))) as { files: { diagnostics: { message: string }[] }[] };
  const sarif = JSON.parse(floorText(formatSarif(files, { cwd: CWD, version: '0.0.0' }))) as {
    runs: { results: { message: { text: string } }[] }[];
  };
  const github = floorText(vouched(formatGithub(files, { cwd: CWD }))).split('\n')[0];
  return {
    text: text.slice(text.indexOf(` ${d.code} `) + d.code.length + 2),
    json: json.files[0].diagnostics[0].message,
    sarif: sarif.runs[0].results[0].message.text,
    github: github.slice(github.lastIndexOf('::') + 2),
    lsp: toDiagnostic(d).message as string,
  };
}

function assertEveryFace(d: LintDiagnostic, expected: string): void {
  for (const [face, shown] of Object.entries(faces(d))) assert.equal(shown, expected, face);
}

const RECORD: SubmissionRecord = {
  id: 'r1',
  time: '2026-03-02T10:00:12.345Z',
  face: 'cli',
  pid: 1,
  host: 'build',
  environment: 'production',
  production: true,
  endpointId: '1000010',
  endpoint: 'https://gateway.example/paynet/api/v2/create-recurring-payments/1000010',
  file: '/work/shop/january.rpcsv',
  rowCount: 2,
  contentHash: 'a'.repeat(64),
  signatureMethod: 'oauth',
  state: 'done',
  outcome: 'accepted',
  recurringPaymentIds: [],
  serialNumbers: ['7000083', '1000010'],
  statuses: [],
  seq: 1,
};

const sentRow = (earlier: SubmissionRecord): AlreadySentRow =>
  ({ key: 'k', orderId: 'A-1', line: 2, start: 15, end: 18, earlier }) as AlreadySentRow;

describe("lint's problem messages are laid out value by value in every face", () => {
  it('a date beside an amount in a message comes out whole in every face; the same line read whole is damaged', () => {
    // No rule's wording today puts two values side by side with only a space between them (our words always
    // stand between), so the message is built here as a rule could build it: the gateway's time with its
    // fraction and offset, then an amount (said-cli's pair: read whole, the two make a Luhn-valid run).
    const when = '2026-01-09T12:36:36.1332+0100';
    const d = problem(said`charged on ${typed.date(when)} ${typed.amount('863171.09')}`);
    assertEveryFace(d, `charged on ${when} 863171.09`);
    assert.notEqual(terminalField(saidText(d.message)), saidText(d.message), 'read whole, the line is damaged: the faces did that before');
  });

  it('already-sent: its date, endpoint and serial-numbers whole; a card number in the environment name masked (the editor showed it whole)', () => {
    const d = problem(alreadySentMessage(sentRow({ ...RECORD, environment: `prod ${CARD}` })));
    assertEveryFace(
      d,
      'client-orderid "A-1" was already sent on 2026-03-02 10:00 UTC to prod 411111******1111, endpoint 1000010 ' +
        '(serial-number 7000083, 1000010, accepted): sending it again may create its payments twice',
    );
  });

  it("same-payer: a card number in the team ledger's host and in the file's name masked, the rest whole", () => {
    const earlier: SubmissionRecord = { ...RECORD, role: 'alice', face: 'editor', host: `pc-${CARD}`, file: `/b/${CARD}.rpcsv` };
    const row = { ref: { key: 'k', line: 3, start: 0, end: 3 }, earlierOrderId: 'SP-2027-0001', earlier } as unknown as SamePayerRow;
    const d = problem(samePayerMessage(row), 'same-payer');
    assertEveryFace(
      d,
      'the same card and schedule were already sent by alice from the editor on pc-411111******1111 on 2026-03-02 10:00 UTC to production, ' +
        'endpoint 1000010, under client-orderid "SP-2027-0001" (submission of "411111******1111.rpcsv", serial-number 7000083, 1000010, accepted): ' +
        'to the gateway this is another id, so the same payer would be charged twice',
    );
  });

  it("a cell's value quoted in a message: a card number in it masked in every face, an id and a row number whole", () => {
    const header = 'client-orderid;rp_card_type;credit-card-number;amount;currency;start-date';
    const found = lint(`${header}\nA-1;DST;5555555555554444;1.00;EUR;${CARD}\nA-1;DST;5555555555554444;1.00;EUR;\n`).diagnostics;
    const start = found.find((d) => d.columnName === 'start-date');
    assert.ok(start, JSON.stringify(found.map((d) => d.code)));
    for (const [face, shown] of Object.entries(faces(start))) {
      assert.ok(shown.includes('(got "411111******1111")'), `${face}: ${shown}`);
      assert.doesNotMatch(shown, /4111111111111111/, face);
    }
    const duplicate = found.find((d) => d.code === 'duplicate-order-id');
    assert.ok(duplicate);
    assertEveryFace(duplicate, 'client-orderid "A-1" is already used on row 1');
    assert.deepEqual(
      duplicate.message.said.filter((p) => typeof p !== 'string'),
      [
        ['text', 'A-1'],
        ['count', '1'],
      ],
      'the id is free text, the row a count',
    );
  });

  it('plain words pass as they are; a value with digits of another script, a percent escape or a control character is still checked', () => {
    const wide = '４１１１１１１１１１１１１１１１';
    const shown = saidText(
      said`row ${typed.text(wide)} ${typed.text('%34%31%31%31%31%31%31%31%31%31%31%31%31%31%31%31')} ${typed.text('a\u001b[2J')}`,
    );
    assert.doesNotMatch(shown, /４１１１１１１１１１１１１１１１|%31%31%31%31%31%31%31%31%31%31%31%31%31%31%31/, shown);
    assert.match(shown, /a\\x1b\[2J$/, shown);
    assert.equal(
      saidText(said`client-orderid "${typed.text('ORD-7')}" is already used on row ${typed.count(3)}`),
      'client-orderid "ORD-7" is already used on row 3',
    );
  });

  it('a rule cannot give a plain string as a message (the type)', () => {
    const batch = lint('client-orderid\n').batch;
    const problems = new ProblemCollector(batch);
    // @ts-expect-error a message is a Said, never a composed string
    problems.add('bom', 0, 1, 'the file starts with a UTF-8 byte order mark', null);
    // @ts-expect-error the same for a problem made whole (a ledger rule, batch-too-large)
    const made: LintDiagnostic = { ...problem(said`x`), message: 'x' };
    assert.ok(made);
  });
});

describe("a quick fix's title in the editor", () => {
  it('is laid out where it leaves: a card number in the value it names is masked, a date whole', () => {
    const header = 'client-orderid;rp_card_type;credit-card-number;amount;currency;start-date';
    const result = lint(`${header}\nA-1;DST;5555555555554444;1.00;EUR;2027-01-01\n`, { today: { year: 2026, month: 1, day: 1 } });
    const d = result.diagnostics.find((x) => x.code === 'invalid-value');
    assert.ok(d);
    // The value the fix writes is a part of its own, by its column's type.
    assert.deepEqual(d.fixes[0].title, said`Change to ${typed.date('01.01.2027')}`);
    const ask = (title: Said) => {
      d.fixes[0].title = title;
      const params = { textDocument: { uri: 'file:///b.rpcsv' }, range: d.range, context: { diagnostics: [toDiagnostic(d)] } };
      return offered(codeActions({ uri: 'file:///b.rpcsv', version: 1, result, resolves: false }, params, params.context.diagnostics)).map(
        (a) => a.title,
      );
    };
    assert.ok(ask(d.fixes[0].title).includes('Change to 01.01.2027'));
    // No suggestion the rules make today holds a card number: the title is set here as one that did.
    const titles = ask(said`Change to ${typed.text(CARD)}`);
    assert.ok(titles.includes('Change to 411111******1111'), JSON.stringify(titles));
  });
});
