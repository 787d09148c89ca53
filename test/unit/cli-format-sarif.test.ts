// `paygate lint --format sarif` (issue 13 part 1): the log validates against the official SARIF 2.1.0
// schema (vendored in test/fixtures/sarif), its regions are the JSON format's positions, and its fixes,
// applied the way the SARIF standard reads regions, give the same text as the core's edits.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import Ajv from 'ajv-draft-04';
import addFormats from 'ajv-formats';
import { CodeInfo } from '../../src/core/rules/codes';
import { lint } from '../../src/core/rules/lint';
import { RULE_DOCS_URL } from '../../src/core/rules/links';
import { safeJson, safeText, saidText } from '../../src/core/output';
import type { LintDiagnostic } from '../../src/core/rules/types';
import { buildJson } from '../../src/cli/format/json';
import type { FileLint } from '../../src/cli/format/problems';
import { buildSarif, type SarifLog } from '../../src/cli/format/sarif';
import { applyFix, TODAY } from '../fixtures/lint-cases/helpers';

const ROOT = path.resolve(__dirname, '../..');
const schema = JSON.parse(readFileSync(path.join(ROOT, 'test/fixtures/sarif/sarif-schema-2.1.0.json'), 'utf8'));
const ajv = new Ajv({ allErrors: true, strict: false });
addFormats(ajv);
const validate = ajv.compile(schema);

function assertValid(log: unknown): void {
  // As written (formatSarif's jsonOut): a result's message, a `Said`, becomes its laid-out text.
  const ok = validate(JSON.parse(safeJson(log)));
  assert.ok(ok, JSON.stringify(validate.errors, null, 2));
}

const MIN = 'client-orderid;rp_card_type;credit-card-number;amount;currency';
const file = (name: string, text: string, stdin = false): FileLint => ({
  file: name,
  stdin,
  text,
  diagnostics: lint(text, { today: TODAY }).diagnostics,
});

const MISTAKES = readFileSync(path.join(ROOT, 'examples/mistakes.rpcsv'), 'utf8');
// A BOM, an aliased header cell on the first line, and a lower-case card type after a non-BMP character.
const BOM = `\ufeffClient_OrderId;rp_card_type;credit-card-number;amount;currency;order_desc\r\no1;dst;5555555555554444;1;EUR;🙂\r\n`;
// A quoted field over three lines (CRLF, LF), an emoji before the error that follows it on its last
// line, and an invalid value that itself spans two lines.
const MULTILINE = `${MIN};order_desc;cvv2;expire-month\r\no1;DST;5555555555554444;1;EUR;"first\r\nsecond ""quoted""\n🙂 gift";12345;1\no2;DST;5555555555554444;1;EUR;x;"1\n2";01\n`;
// A BOM and commas: the rewrite fix replaces everything after the BOM, over several lines.
const COMMAS = `\ufeff${MIN.replace(/;/g, ',')}\no1,dst,5555555555554444,1,EUR\n`;

const CWD = path.join(path.sep, 'work', 'repo');
const FILES = [
  file(path.join(CWD, 'examples', 'mistakes.rpcsv'), MISTAKES),
  file('batches/bom file.rpcsv', BOM),
  file('multi.rpcsv', MULTILINE),
  file('commas.recurring.csv', COMMAS),
];
const log = (files: FileLint[] = FILES, failures?: string[]): SarifLog => buildSarif(files, { cwd: CWD, version: '9.8.7', failures });

/** Lines of a text as SARIF counts them: CR, LF and CRLF end a line; the BOM is not part of line 1. */
function sarifLines(text: string): { starts: number[]; bom: number } {
  const bom = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  const starts = [bom];
  for (let i = bom; i < text.length; i++) {
    if (text[i] === '\r' && text[i + 1] === '\n') i++;
    if (text[i] === '\r' || text[i] === '\n') starts.push(i + 1);
  }
  return { starts, bom };
}

type AnyRegion = {
  startLine?: number;
  startColumn?: number;
  endLine?: number;
  endColumn?: number;
  byteOffset?: number;
  byteLength?: number;
};

/** A region as offsets into the string, read as the SARIF standard defines it (independent of the core). */
function regionOffsets(text: string, r: AnyRegion): [number, number] {
  if (r.byteOffset !== undefined) {
    const bytes = new TextEncoder().encode(text);
    const charsBefore = (n: number) => new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes.subarray(0, n)).length;
    return [charsBefore(r.byteOffset), charsBefore(r.byteOffset + r.byteLength!)];
  }
  const { starts } = sarifLines(text);
  return [starts[r.startLine! - 1] + r.startColumn! - 1, starts[r.endLine! - 1] + r.endColumn! - 1];
}

function applySarifFix(text: string, fix: NonNullable<SarifLog['runs'][0]['results'][0]['fixes']>[0]): string {
  const spans = fix.artifactChanges.flatMap((c) =>
    c.replacements.map((rep) => ({ at: regionOffsets(text, rep.deletedRegion), text: rep.insertedContent.text })),
  );
  spans.sort((a, b) => b.at[0] - a.at[0]);
  let out = text;
  for (const s of spans) out = out.slice(0, s.at[0]) + s.text + out.slice(s.at[1]);
  return out;
}

describe('SARIF log', () => {
  it('validates against the official SARIF 2.1.0 schema (examples, BOM, multi-line, commas, stdin, failures)', () => {
    assertValid(log());
    assertValid(log([file('<stdin>', MISTAKES, true)], ['nope.rpcsv: cannot read: no such file']));
    assertValid(log([]));
    assertValid(log([file('valid.rpcsv', readFileSync(path.join(ROOT, 'examples/valid.rpcsv'), 'utf8'))]));
  });

  it('one run, tool paygate with the version and one rule per code, linked into docs/rules.md', () => {
    const l = log();
    assert.equal(l.version, '2.1.0');
    assert.equal(l.runs.length, 1);
    const driver = l.runs[0].tool.driver;
    assert.equal(driver.name, 'paygate');
    assert.equal(driver.version, '9.8.7');
    assert.match(driver.informationUri, /^https:\/\//);
    assert.deepEqual(
      driver.rules.map((r) => r.id),
      Object.keys(CodeInfo),
    );
    for (const r of driver.rules) {
      assert.equal(r.helpUri, `${RULE_DOCS_URL}#${r.id}`);
      const severity = CodeInfo[r.id].severity;
      assert.equal(r.defaultConfiguration.level, severity === 'information' ? 'note' : severity);
      assert.ok(r.shortDescription.text.length > 0 && r.fullDescription.text.length > 0);
      assert.ok(!r.fullDescription.text.includes('`'), 'plain text has no Markdown backticks');
    }
    assert.equal(l.runs[0].columnKind, 'utf16CodeUnits');
    assert.equal(l.runs[0].originalUriBaseIds['%SRCROOT%'].uri, 'file:///work/repo/');
  });

  it("results from every file, sorted by file, with ruleIndex pointing at the rule and the JSON format's positions", () => {
    const run = log().runs[0];
    const json = buildJson(FILES);
    const expected = json.files.flatMap((f) => f.diagnostics.map((d) => ({ file: f.file, ...d })));
    assert.equal(run.results.length, expected.length);
    run.results.forEach((r, i) => {
      const e = expected[i];
      assert.equal(r.ruleId, e.code);
      assert.equal(run.tool.driver.rules[r.ruleIndex].id, r.ruleId);
      assert.equal(r.level, e.severity === 'information' ? 'note' : e.severity);
      assert.equal(r.message.text, e.message);
      assert.deepEqual(r.locations[0].physicalLocation.region, {
        startLine: e.line,
        startColumn: e.column,
        endLine: e.endLine,
        endColumn: e.endColumn,
      });
    });
    const uris = [...new Set(run.results.map((r) => r.locations[0].physicalLocation.artifactLocation.uri))];
    // Sorted by the names as given (the absolute one first), the same order as the JSON format.
    assert.deepEqual(uris, ['examples/mistakes.rpcsv', 'batches/bom%20file.rpcsv', 'commas.recurring.csv', 'multi.rpcsv']);
    for (const r of run.results) assert.equal(r.locations[0].physicalLocation.artifactLocation.uriBaseId, '%SRCROOT%');
  });

  it('regions cover the exact cell text, read the SARIF way (UTF-16 columns, BOM not counted, multi-line)', () => {
    const run = log().runs[0];
    const textOf = (uri: string) => FILES.find((f) => f.file.replace(/\\/g, '/').endsWith(decodeURIComponent(uri)))!.text;
    const cell = (uri: string, code: string, n = 0) => {
      const r = run.results.filter((x) => x.locations[0].physicalLocation.artifactLocation.uri === uri && x.ruleId === code)[n];
      const text = textOf(uri);
      const [a, b] = regionOffsets(text, r.locations[0].physicalLocation.region as AnyRegion);
      return { text: text.slice(a, b), region: r.locations[0].physicalLocation.region };
    };
    assert.deepEqual(cell('batches/bom%20file.rpcsv', 'column-alias').region, { startLine: 1, startColumn: 1, endLine: 1, endColumn: 15 });
    assert.equal(cell('batches/bom%20file.rpcsv', 'column-alias').text, 'Client_OrderId');
    assert.equal(cell('batches/bom%20file.rpcsv', 'invalid-value').text, 'dst');
    assert.deepEqual(cell('multi.rpcsv', 'max-length').region, { startLine: 4, startColumn: 10, endLine: 4, endColumn: 15 });
    assert.equal(cell('multi.rpcsv', 'max-length').text, '12345');
    assert.deepEqual(cell('multi.rpcsv', 'invalid-value', 1).region, { startLine: 5, startColumn: 33, endLine: 6, endColumn: 3 });
    assert.equal(cell('multi.rpcsv', 'invalid-value', 1).text, '"1\n2"');
    assert.equal(cell('examples/mistakes.rpcsv', 'amount-range').text, '50.00');
  });

  it("safe fixes, applied as SARIF replacements, give exactly the core's edits; unsafe ones are left out", () => {
    const run = log().runs[0];
    let checked = 0;
    for (const f of FILES) {
      const uri = (r: (typeof run.results)[0]) => decodeURIComponent(r.locations[0].physicalLocation.artifactLocation.uri ?? '');
      const results = run.results.filter((r) => f.file.replace(/\\/g, '/').endsWith(uri(r)));
      // A fix whose text holds card data is left out: masked, it would write stars into the batch.
      const cardFree = (x: LintDiagnostic['fixes'][number]) => x.edits.every((e) => safeText(e.newText) === e.newText);
      const safe = [...f.diagnostics].flatMap((d) => d.fixes.filter((x) => x.safe && cardFree(x)).map((x) => ({ d, x })));
      const withFixes = results.flatMap((r) => (r.fixes ?? []).map((fix) => ({ r, fix })));
      assert.equal(withFixes.length, safe.length, f.file);
      for (const { r, fix } of withFixes) {
        const core = safe.find(
          ({ d, x }) =>
            d.code === r.ruleId && saidText(d.message) === saidText(r.message.text) && saidText(x.title) === saidText(fix.description.text),
        );
        assert.ok(core, `${r.ruleId} ${saidText(fix.description.text)}`);
        assert.equal(applySarifFix(f.text, fix), applyFix(f.text, core.x.edits), `${f.file} ${r.ruleId}`);
        checked++;
      }
    }
    assert.ok(checked >= 8, `fixes checked: ${checked}`);
    // The BOM's removal cannot be said in columns that do not count it: a byte region.
    const bomFix = run.results.find((r) => r.ruleId === 'bom')!.fixes![0].artifactChanges[0].replacements[0];
    assert.deepEqual(bomFix.deletedRegion, { byteOffset: 0, byteLength: 3 });
    // Not safe: dst-unsupported clears are offered in the editor only.
    assert.ok(run.results.filter((r) => r.ruleId === 'dst-unsupported').every((r) => r.fixes === undefined));
  });

  it('files outside the working directory get a file URI; standard input gets no made-up path', () => {
    const l = log([file('/elsewhere/a b.rpcsv', BOM), file('<stdin>', BOM, true)]);
    assertValid(l);
    const locations = l.runs[0].results.map((r) => r.locations[0].physicalLocation.artifactLocation);
    assert.ok(locations.some((a) => a.uri === 'file:///elsewhere/a%20b.rpcsv' && a.uriBaseId === undefined));
    assert.ok(locations.some((a) => a.uri === undefined && a.description?.text === 'standard input'));
  });

  it('unreadable files make the invocation unsuccessful, with one notification each', () => {
    const inv = log([], ['x.rpcsv: cannot read: no such file']).runs[0].invocations[0];
    assert.equal(inv.executionSuccessful, false);
    assert.deepEqual(inv.toolExecutionNotifications, [{ level: 'error', message: { text: 'x.rpcsv: cannot read: no such file' } }]);
    assert.equal(log().runs[0].invocations[0].executionSuccessful, true);
  });
});
