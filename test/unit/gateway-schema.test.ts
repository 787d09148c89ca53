import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import Ajv from 'ajv';
import { jsonErrorOffset } from '../../src/core/gateway/jsonPosition';
import { join } from 'node:path';
import {
  reportTemplateJsonSchemaText,
  parseReportTemplate,
  newReportTemplate,
  CliConfigSchema,
  parseEnvironments,
  DEFAULT_PATHS,
} from '../../src/core/gateway';

const root = join(__dirname, '..', '..');

test('the committed JSON Schema is the one generated from the zod schema (run `npm run schemas`)', () => {
  assert.equal(readFileSync(join(root, 'schemas', 'report-template.schema.json'), 'utf8'), reportTemplateJsonSchemaText());
});

test("the JSON Schema names every field of the gateway's report request and the nine filter arrays", () => {
  const schema = JSON.parse(reportTemplateJsonSchemaText());
  assert.deepEqual(Object.keys(schema.properties).sort(), [
    'configurationReportParameters',
    'filters',
    'inputReportParameters',
    'outputReportParameters',
    'reportCsvDelimiter',
    'reportEncode',
    'reportFormat',
    'reportIdentifier',
    'reportName',
    // The toolkit's own saved queries, never sent (views.test below).
    'views',
  ]);
  assert.deepEqual(
    Object.keys(schema.properties.filters.properties).sort(),
    ['companies', 'currencies', 'endpoints', 'gates', 'managers', 'merchants', 'processors', 'resellers', 'projects'].sort(),
  );
  assert.deepEqual(schema.properties.inputReportParameters.items.required, ['type', 'name', 'value']);
});

test("the gateway's sample body is a valid template; unknown fields are kept", () => {
  const sample = {
    reportIdentifier: 'transactions',
    reportEncode: 'UTF-8',
    reportName: 'Transactions',
    reportCsvDelimiter: ',',
    reportFormat: 'CSV',
    configurationReportParameters: [],
    inputReportParameters: [{ type: 'INPUT_TEXT', name: 'dateFrom', value: '01.11.2026' }],
    outputReportParameters: [],
    filters: {
      gates: [],
      companies: [],
      projects: [],
      endpoints: [],
      merchants: [],
      processors: [],
      managers: [],
      resellers: [],
      currencies: [],
    },
    fromSupport: { any: 'thing' },
  };
  const r = parseReportTemplate(JSON.stringify(sample));
  assert.ok(r.ok);
  if (r.ok) assert.deepEqual(r.template, sample);
  assert.equal(parseReportTemplate(JSON.stringify(newReportTemplate())).ok, false, 'an empty reportIdentifier is not a template yet');
});

test('template problems name the place: JSON syntax by line and column, schema problems by path', () => {
  const syntax = parseReportTemplate('{\n  "reportIdentifier": "x",\n  oops\n}');
  assert.ok(!syntax.ok);
  if (!syntax.ok) {
    assert.equal(syntax.problems[0].line, 3);
    assert.equal(syntax.problems[0].column, 3);
  }
  const text = JSON.stringify(
    { ...newReportTemplate(), reportIdentifier: 'x', reportCsvDelimiter: ';;', reportEncode: 'no-such-charset' },
    null,
    2,
  );
  const bad = parseReportTemplate(text);
  assert.ok(!bad.ok);
  if (!bad.ok) {
    assert.deepEqual(bad.problems.map((p) => p.path).sort(), ['reportCsvDelimiter', 'reportEncode']);
    const delim = bad.problems.find((p) => p.path === 'reportCsvDelimiter')!;
    assert.equal(text.split('\n')[delim.line! - 1].trim().startsWith('"reportCsvDelimiter"'), true);
  }
});

test('config: defaults, duplicate names, and the reserved name local', () => {
  const c = CliConfigSchema.parse({});
  assert.equal(c.environment, 'local');
  assert.deepEqual(c.paths, DEFAULT_PATHS);
  assert.equal(c.requestTimeoutSeconds, 60);
  const e = {
    name: 'sandbox',
    baseUrl: 'https://sandbox.example/pg',
    reportBaseUrl: 'https://sandbox.example/r',
    endpointId: '7',
    consumerKey: 'k',
  };
  assert.equal(CliConfigSchema.safeParse({ environments: [e, e] }).success, false);
  assert.equal(CliConfigSchema.safeParse({ environments: [{ ...e, name: 'local' }] }).success, false);
  const parsed = parseEnvironments([e, { ...e, name: 'x', baseUrl: 'ftp://no' }]);
  assert.equal(parsed.environments.length, 1);
  assert.equal(parsed.environments[0].production, false);
  assert.match(parsed.problems[0], /paygate\.environments\[1\]: baseUrl/);
});

test('jsonErrorOffset agrees with JSON.parse on what is valid, and points inside the text', () => {
  const texts = fc.oneof(
    fc.json(),
    fc.json().map((j) => j.slice(0, Math.max(0, j.length - 1))),
    fc.string({
      unit: fc.constantFrom('{', '}', '[', ']', '"', ':', ',', '1', '-', 'e', '.', ' ', '\n', 't', 'r', 'u', 'e', '\\', 'n', 'a'),
    }),
  );
  fc.assert(
    fc.property(texts, (t) => {
      let valid = true;
      try {
        JSON.parse(t);
      } catch {
        valid = false;
      }
      const at = jsonErrorOffset(t);
      assert.equal(at === undefined, valid, JSON.stringify(t));
      if (at !== undefined) assert.ok(at >= 0 && at <= t.length);
    }),
    { numRuns: 2000 },
  );
});

test('a schema problem inside an array element is placed on that element, not on the first one', () => {
  const text = [
    '{',
    '  "reportIdentifier": "r", "reportEncode": "UTF-8", "reportName": "n", "reportCsvDelimiter": ",", "reportFormat": "CSV",',
    '  "configurationReportParameters": [],',
    '  "inputReportParameters": [',
    '    { "type": "INPUT_TEXT", "name": "a", "value": "x" },',
    '    { "type": "INPUT_TEXT", "name": "b", "value": 5 }',
    '  ],',
    '  "outputReportParameters": [],',
    '  "filters": { "gates": [], "companies": [], "projects": [], "endpoints": [], "merchants": [], "processors": [], "managers": [], "resellers": [], "currencies": [] }',
    '}',
  ].join('\n');
  const parsed = parseReportTemplate(text);
  assert.equal(parsed.ok, false);
  if (parsed.ok) return;
  const problem = parsed.problems.find((p) => p.path === 'inputReportParameters.1.value');
  assert.ok(problem, JSON.stringify(parsed.problems));
  // Line 6 holds the second element; its "value" key starts at column 45.
  assert.equal(problem.line, 6);
  assert.equal(problem.column, text.split('\n')[5].indexOf('"value"') + 1);
});

test('a new template fails its own check only for the identifier the support manager gives, in one plain sentence', () => {
  const text = `${JSON.stringify(newReportTemplate(), null, 2)}\n`;
  const r = parseReportTemplate(text);
  assert.ok(!r.ok);
  if (r.ok) return;
  assert.deepEqual(
    r.problems.map((p) => [p.path, p.message]),
    [['reportIdentifier', "reportIdentifier is still a placeholder: ask your support manager for the report's identifier"]],
  );
  assert.equal(r.problems[0].line, 2);
  // With the identifier filled in, the template is complete.
  assert.ok(parseReportTemplate(text.replace('<ask your support manager>', 'transactions')).ok);
  const empty = parseReportTemplate(text.replace('<ask your support manager>', ''));
  assert.ok(!empty.ok && empty.problems[0].message === "reportIdentifier is empty: ask your support manager for the report's identifier");
});

test('every template problem reads as a sentence about a field, never as validator output', () => {
  const broken = {
    ...newReportTemplate(),
    reportIdentifier: 'x',
    reportEncode: 'no-such',
    reportCsvDelimiter: '',
    reportFormat: '',
    filters: 5,
    inputReportParameters: [{ type: 1 }],
  } as Record<string, unknown>;
  delete broken.reportName;
  const text = JSON.stringify(broken, null, 2);
  const r = parseReportTemplate(text);
  assert.ok(!r.ok);
  if (r.ok) return;
  const byPath = Object.fromEntries(r.problems.map((p) => [p.path, p.message]));
  assert.equal(byPath.reportCsvDelimiter, 'reportCsvDelimiter must be exactly one character, such as "," or ";" (it is "")');
  assert.equal(byPath.reportFormat, 'reportFormat is empty: fill it in');
  assert.equal(byPath.reportName, 'reportName is missing: add it as text in quotes');
  assert.equal(byPath.filters, 'filters must be an object in { }, not 5');
  assert.equal(byPath['inputReportParameters.0.type'], 'inputReportParameters.0.type must be text in quotes, not 1');
  assert.match(byPath.reportEncode, /^reportEncode "no-such" is not a character encoding this tool can decode/);
  for (const p of r.problems) {
    assert.doesNotMatch(p.message, /Too small|Too big|expected|Invalid input|>=|<=/, p.message);
    assert.ok(p.line !== undefined && p.column !== undefined, `${p.path} has a place`);
  }
});

// Issue 19, item 4: the template is checked whole, against one schema, before anything is sent.
test('every problem of a template at once, each with its line and column: a missing reportName does not hide a bad reportFormat', () => {
  const { reportName: _dropped, ...rest } = { ...newReportTemplate(), reportIdentifier: 'transactions', reportFormat: 'XLS' };
  const text = JSON.stringify(rest, null, 2);
  const r = parseReportTemplate(text);
  assert.ok(!r.ok);
  if (r.ok) return;
  const byPath = new Map(r.problems.map((p) => [p.path, p]));
  assert.deepEqual([...byPath.keys()].sort(), ['reportFormat', 'reportName']);
  const format = byPath.get('reportFormat')!;
  assert.match(format.message, /reportFormat "XLS" .*"CSV" or "PDF"/);
  const lines = text.split('\n');
  assert.equal(format.line, lines.findIndex((l) => l.includes('"reportFormat"')) + 1);
  assert.equal(format.column, 3);
  assert.equal(byPath.get('reportName')!.line, 1, 'a missing field is placed on the object that lacks it');
  for (const format of ['CSV', 'PDF'])
    assert.ok(parseReportTemplate(JSON.stringify({ ...rest, reportName: 'x', reportFormat: format })).ok);
});

test('a currency filter that can never match is a warning with its place; the template is still valid', () => {
  const t = { ...newReportTemplate(), reportIdentifier: 'transactions' };
  const text = JSON.stringify({ ...t, filters: { ...t.filters, currencies: ['EUR', 'eur', 'euro'] } }, null, 2);
  const r = parseReportTemplate(text);
  assert.ok(r.ok, JSON.stringify(r));
  assert.deepEqual(
    r.warnings.map((w) => [w.path, w.line]),
    [
      ['filters.currencies.1', text.split('\n').findIndex((l) => l.includes('"eur"')) + 1],
      ['filters.currencies.2', text.split('\n').findIndex((l) => l.includes('"euro"')) + 1],
    ],
  );
  assert.match(r.warnings[0].message, /"eur" can never match: .*upper case.*write "EUR"/);
  assert.doesNotMatch(r.warnings[1].message, /write/, 'no upper-case form of "euro" is a currency code');
});

test("the editor's JSON Schema (generated from the same zod schema) refuses the same format and flags the same currency", async () => {
  const ajv = new Ajv({ allErrors: true, strict: false });
  const validate = ajv.compile(JSON.parse(reportTemplateJsonSchemaText()));
  const t = { ...newReportTemplate(), reportIdentifier: 'transactions', reportName: 'x' };
  assert.equal(validate(t), true, JSON.stringify(validate.errors));
  assert.equal(validate({ ...t, reportFormat: 'XLS' }), false);
  assert.deepEqual(
    validate.errors?.map((e) => e.instancePath),
    ['/reportFormat'],
  );
  assert.equal(validate({ ...t, filters: { ...t.filters, currencies: ['eur'] } }), false);
  assert.ok(validate.errors?.some((e) => e.instancePath === '/filters/currencies/0'));
});

test('the shipped example template needs no $schema path and passes the check with no warning', () => {
  const text = readFileSync(join(root, 'examples', 'transactions.report.json'), 'utf8');
  assert.ok(!('$schema' in JSON.parse(text)), 'a relative $schema breaks as soon as the file is copied elsewhere');
  const r = parseReportTemplate(text);
  assert.ok(r.ok, JSON.stringify(r));
  assert.deepEqual(r.warnings, []);
});
