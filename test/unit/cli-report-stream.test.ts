import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import type * as http from 'node:http';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startReportBed, type ReportBed } from '../fixtures/cli/reportBed';

// `paygate report --out FILE` streams the answer to FILE as it arrives, and writes FILE only when the
// answer is a report; `--max-answer-bytes` cuts off a longer answer.

let bed: ReportBed;
let dir: string;
const bigCsv =
  [
    '"Merchant_Name","Transaction_id","Amount"',
    ...Array.from({ length: 60_000 }, (_, i) => `"Shop ${i}","${100000 + i}","${(i % 997).toFixed(3)}"`),
  ].join('\r\n') + '\r\n';
// Past the length at which spreading the rows into Math.max overflowed the stack (about 120k); the last
// row is the widest, so a width taken from the first rows only would misalign it.
const HUGE_ROWS = 250_000;
const hugeCsv =
  [
    '"Merchant_Name","Transaction_id","Amount"',
    ...Array.from({ length: HUGE_ROWS - 1 }, (_, i) => `"Shop ${i % 100}","${100000 + i}","${(i % 997).toFixed(3)}"`),
    '"The last and widest merchant name","1","0.000"',
  ].join('\r\n') + '\r\n';
const bigHtml = `<html><body>${'<p>maintenance</p>'.repeat(10_000)}</body></html>`;
const pdf = Buffer.concat([Buffer.from('%PDF-1.4\n'), Buffer.alloc(200_000, 0x20), Buffer.from('\n%%EOF\n')]);
// Bytes before the signature, as PDF readers tolerate within the first 1,024 (src/core/pdfSignature.ts).
const pdfAfterLead = Buffer.concat([Buffer.from('\r\n'), Buffer.alloc(900, 0x20), pdf]);

before(async () => {
  const ok = (type: string, body: string | Buffer) => (res: http.ServerResponse) => res.writeHead(200, { 'Content-Type': type }).end(body);
  bed = await startReportBed({
    csv: ok('text/csv', bigCsv),
    huge: ok('text/csv', hugeCsv),
    html: ok('text/html', bigHtml),
    pdf: ok('application/octet-stream', pdf),
    'pdf-lead': ok('application/octet-stream', pdfAfterLead),
    ragged: ok('text/plain', `${bigCsv}"only","two"\r\n`),
    denied: ok('text/plain', 'Invalid signature'),
  });
  dir = bed.dir;
});

after(() => bed.close());

const report = (args: string[]) => bed.report(args);

const leftovers = () => readdirSync(dir).filter((n) => n.endsWith('.part'));

test('a large CSV report is written to --out as received, with its row count', async () => {
  const r = await report(['--env', 'csv', '--out', 'big.csv']);
  assert.equal(r.code, 0, r.out + r.err);
  assert.match(r.out, /60000 row\(s\) written to big\.csv/);
  assert.equal(readFileSync(join(dir, 'big.csv'), 'utf8'), bigCsv);
  assert.deepEqual(leftovers(), []);
});

test('a PDF by its magic is written whole', async () => {
  const r = await report(['--env', 'pdf', '--out', 'r.pdf']);
  assert.equal(r.code, 0, r.out + r.err);
  assert.deepEqual(readFileSync(join(dir, 'r.pdf')), pdf);
});

test('a PDF whose signature follows some leading bytes is a PDF too, written whole', async () => {
  const r = await report(['--env', 'pdf-lead', '--out', 'lead.pdf']);
  assert.equal(r.code, 0, r.out + r.err);
  assert.deepEqual(readFileSync(join(dir, 'lead.pdf')), pdfAfterLead);
});

test('an answer that is no report writes nothing: a large HTML page, ragged CSV, a denial', async () => {
  for (const [env, code, pattern] of [
    ['html', 1, /^Unrecognised answer/],
    ['ragged', 1, /^Unrecognised answer/],
    ['denied', 3, /^Authentication failed/],
  ] as const) {
    const file = `${env}.out`;
    const r = await report(['--env', env, '--out', file]);
    assert.equal(r.code, code, `${env}: ${r.out}${r.err}`);
    assert.match(r.out, pattern);
    assert.equal(existsSync(join(dir, file)), false, `${env}: nothing written`);
  }
  assert.deepEqual(leftovers(), []);
});

test('--max-answer-bytes cuts a longer answer off (exit 4), writes nothing and says so', async () => {
  const r = await report(['--env', 'csv', '--out', 'cut.csv', '--max-answer-bytes', '100000']);
  assert.equal(r.code, 4, r.out + r.err);
  assert.match(r.out, /exceeded 100000 bytes/);
  assert.equal(existsSync(join(dir, 'cut.csv')), false);
  assert.deepEqual(leftovers(), []);
  const inMemory = await report(['--env', 'csv', '--format', 'json', '--max-answer-bytes', '100000']);
  assert.equal(inMemory.code, 4);
  const bad = await report(['--env', 'csv', '--max-answer-bytes', 'lots']);
  assert.equal(bad.code, 2);
});

test('a 250k-row report prints as a text table (exit 0), every line aligned to the widest cell, even the last', async () => {
  const r = await report(['--env', 'huge']);
  assert.equal(r.code, 0, r.err.slice(0, 2000));
  const lines = r.out.split('\n');
  assert.equal(lines.length, HUGE_ROWS + 4, 'header, rule, rows, count line, final break');
  assert.match(lines[lines.length - 2], new RegExp(`^${HUGE_ROWS} row\\(s\\) — report from `));
  const rule = lines[1];
  assert.match(rule, /^-{33} {2}-{14} {2}-{7}$/, 'widths from every row: the last name is 33 characters');
  assert.equal(lines[2].indexOf('100000'), 35);
  assert.equal(lines[HUGE_ROWS + 1], 'The last and widest merchant name  1               0.000');
  assert.deepEqual(leftovers(), []);
});

test('a large report in json and csv to standard output is the report as received, row for row', async () => {
  const csv = await report(['--env', 'huge', '--format', 'csv']);
  assert.equal(csv.code, 0, csv.err);
  assert.equal(csv.out, hugeCsv);
  const json = await report(['--env', 'huge', '--format', 'json']);
  assert.equal(json.code, 0, json.err);
  const parsed = JSON.parse(json.out) as { outcome: string; columns: string[]; rows: string[][] };
  assert.equal(parsed.outcome, 'report');
  assert.deepEqual(parsed.columns, ['Merchant_Name', 'Transaction_id', 'Amount']);
  assert.equal(parsed.rows.length, HUGE_ROWS);
  assert.deepEqual(parsed.rows[HUGE_ROWS - 1], ['The last and widest merchant name', '1', '0.000']);
  const toFile = await report(['--env', 'csv', '--format', 'json', '--out', 'big.json']);
  assert.equal(toFile.code, 0, toFile.err);
  const written = JSON.parse(readFileSync(join(dir, 'big.json'), 'utf8')) as { rows: string[][] };
  assert.equal(written.rows.length, 60_000);
  assert.equal((JSON.parse(toFile.out) as { file: string }).file, 'big.json');
  assert.deepEqual(leftovers(), []);
});
