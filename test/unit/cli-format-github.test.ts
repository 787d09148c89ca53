// `paygate lint --format github` (issue 13 part 2): one workflow command per problem, positions as the
// JSON format gives them, and the runner's escaping, so no message or file name can end a command early,
// forge another one or lose characters.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { lint } from '../../src/core/rules/lint';
import type { LintDiagnostic } from '../../src/core/rules/types';
import { said, saidText, typed, type Said } from '../../src/core/output';
import { escapeData, escapeProperty, formatGithub } from '../../src/cli/format/github';
import { buildJson } from '../../src/cli/format/json';
import type { FileLint } from '../../src/cli/format/problems';
import { TODAY } from '../fixtures/lint-cases/helpers';

const MIN = 'client-orderid;rp_card_type;credit-card-number;amount;currency';
const CWD = path.join(path.sep, 'ci', 'checkout');
const file = (name: string, text: string, stdin = false): FileLint => ({
  file: name,
  stdin,
  text,
  diagnostics: lint(text, { today: TODAY }).diagnostics,
});

/** The runner's reading of a command line (the inverse of its escaping). */
function parseCommand(line: string): { command: string; props: Record<string, string>; message: string } {
  const m = /^::(\w+)(?: ([^:]*))?::(.*)$/.exec(line);
  assert.ok(m, line);
  const unData = (s: string) => s.replace(/%0D/g, '\r').replace(/%0A/g, '\n').replace(/%25/g, '%');
  const unProp = (s: string) => unData(s.replace(/%3A/g, ':').replace(/%2C/g, ','));
  const props: Record<string, string> = {};
  for (const kv of (m[2] ?? '').split(',').filter(Boolean)) {
    const at = kv.indexOf('=');
    props[kv.slice(0, at)] = unProp(kv.slice(at + 1));
  }
  return { command: m[1], props, message: unData(m[3]) };
}

describe('GitHub workflow commands', () => {
  it('escape data (%, CR, LF) and properties (also : and ,) as the runner expects', () => {
    assert.equal(escapeData('100% sure\r\nnext ::error::x, y: z'), '100%25 sure%0D%0Anext ::error::x, y: z');
    assert.equal(escapeProperty('a,b:c%d\r\ne'), 'a%2Cb%3Ac%25d%0D%0Ae');
    // Already escaped-looking text stays itself after a round trip.
    assert.equal(escapeData('%0A'), '%250A');
  });

  it('one line per problem, error/warning/notice, positions and order of the JSON format', () => {
    const text = `\ufeffClient_OrderId;rp_card_type;credit-card-number;amount;currency\no1;DST;5555555555554445;0;EUR\n`;
    const files = [file('sub/b.rpcsv', text), file(path.join(CWD, 'a.rpcsv'), text)];
    const out = formatGithub(files, { cwd: CWD });
    const lines = out.trimEnd().split('\n');
    const json = buildJson(files).files.flatMap((f) => f.diagnostics.map((d) => ({ file: f.file, ...d })));
    assert.equal(lines.length, json.length);
    lines.forEach((line, i) => {
      const c = parseCommand(line);
      const e = json[i];
      assert.equal(c.command, { error: 'error', warning: 'warning', information: 'notice' }[e.severity]);
      assert.deepEqual(c.props, {
        file: e.file === 'sub/b.rpcsv' ? 'sub/b.rpcsv' : 'a.rpcsv',
        line: String(e.line),
        col: String(e.column),
        endLine: String(e.endLine),
        endColumn: String(e.endColumn),
        title: `paygate ${e.code}`,
      });
      assert.equal(c.message, saidText(e.message));
    });
    assert.deepEqual(
      lines.map((l) => parseCommand(l).command),
      ['notice', 'error', 'warning', 'error', 'notice', 'error', 'warning', 'error'],
    );
    assert.match(lines[0], /^::notice file=a\.rpcsv,line=1,col=1,endLine=1,endColumn=1,title=paygate bom::/);
  });

  it('hostile file names and messages cannot break out of their command', () => {
    const diag = (message: Said): LintDiagnostic => ({
      code: 'invalid-value',
      severity: 'error',
      message,
      range: { start: { line: 1, character: 0 }, end: { line: 1, character: 2 } },
      columnName: null,
      fixes: [],
    });
    const name = 'evil,title=owned:%0A\r\n::error file=x::forged.rpcsv';
    // A message quoting a hostile cell: the cell is one value of the message.
    const message = said`got ${typed.text('"50%"\r\n::error file=other.rpcsv,line=1::forged\nlast line')}`;
    const out = formatGithub([{ file: name, text: `${MIN}\nx\n`, diagnostics: [diag(message)] }], { cwd: CWD });
    const lines = out.split('\n').filter(Boolean);
    assert.equal(lines.length, 1, out);
    assert.ok(!/[\r]/.test(out));
    const c = parseCommand(lines[0]);
    // Each is one value on the line: its line breaks are shown escaped (\r\n), never a new command.
    assert.equal(c.props.file, 'evil,title=owned:%0A\\r\\n::error file=x::forged.rpcsv');
    assert.equal(c.props.title, 'paygate invalid-value');
    assert.equal(c.message, 'got "50%"\\r\\n::error file=other.rpcsv,line=1::forged\\nlast line');
    assert.deepEqual(Object.keys(c.props), ['file', 'line', 'col', 'endLine', 'endColumn', 'title']);
  });

  it('standard input: no file or position properties, the title and message only; a clean file prints nothing', () => {
    const out = formatGithub([file('<stdin>', `${MIN}\no1;DST;5555555555554444;0;EUR\n`, true)], { cwd: CWD });
    assert.match(out, /^::error title=paygate invalid-value::amount [^\n]+\n$/);
    assert.equal(formatGithub([file('ok.rpcsv', `${MIN}\no1;DST;5555555555554444;1;EUR\n`)], { cwd: CWD }), '');
  });
});
