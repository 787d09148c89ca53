import { test, before, after, mock } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';
import { join } from 'node:path';
import type * as FsPromises from 'node:fs/promises';
import { startReportBed, type ReportBed } from '../fixtures/cli/reportBed';
import { CsvReader } from '../../src/core/csv/reportReader';
import { runCustomReportTemplate } from '../../src/core/report/runReport';

// Issue 42: a report's bytes are read once and parsed once. Its answer is recognised and parsed on its way
// to its file (core/gateway/reportArrival.ts), so nobody reads that file back to learn what it is;
// `paygate report` makes what it prints from that same parse as it arrives (cli/reportSpool.ts) and prints
// it once the whole answer is known to be a report, never parsing the report again; the editor's page gets
// the file's bytes in one read and parses them itself. Counted here: every opening of a file through
// node:fs/promises (how every reader in src opens one: core/regularFile.ts, the editor's report file), the
// report readers (CsvReader) given any text and every character they are given. Before: the core re-read
// the saved file to check its shape, and the text table read it twice more (3 opens, 3 parses); JSON with
// --out the same; then the CLI read its saved file once and parsed it a second time to print it (1 open,
// 2 parses). (A report opened from disk in the editor is counted in report-file-once.test.ts.)

// node:fs/promises itself (an import's namespace is a copy whose members cannot be replaced).
// eslint-disable-next-line @typescript-eslint/no-require-imports
const fsp = require('node:fs/promises') as typeof FsPromises;
const root = join(__dirname, '..', '..');
let bed: ReportBed;
const csv =
  [
    '"Merchant_Name","Transaction_id","Amount"',
    ...Array.from({ length: 20_000 }, (_, i) => `"Shop ${i}","${100000 + i}","${i % 97}.50"`),
  ].join('\r\n') + '\r\n';

before(async () => {
  bed = await startReportBed({
    csv: (res) => res.writeHead(200, { 'Content-Type': 'text/csv' }).end(csv),
    // Well-formed until its last record, one field short: found ragged only at the end.
    ragged: (res) => res.writeHead(200, { 'Content-Type': 'text/csv' }).end(`${csv}"Shop last","1"\r\n`),
  });
});

after(() => bed.close());

/** Runs `body`, counting the files opened through node:fs/promises and the characters every report reader was given. */
async function counted<T>(body: () => Promise<T>): Promise<{ result: T; opens: string[]; parsed: number; parses: number }> {
  const opens: string[] = [];
  let parsed = 0;
  const readers = new Set<CsvReader>();
  const realOpen = fsp.open;
  const openSpy = mock.method(fsp, 'open', (file: string, flags?: string | number, mode?: number) => {
    opens.push(String(file));
    return realOpen(file, flags, mode);
  });
  const realPush = CsvReader.prototype.push;
  const pushSpy = mock.method(CsvReader.prototype, 'push', function (this: CsvReader, text: string) {
    parsed += text.length;
    readers.add(this);
    return realPush.call(this, text);
  });
  // A reader that imports node:fs/promises (core/regularFile.ts loads it on first use) sees the spy too.
  syncBuiltinESMExports();
  try {
    return { result: await body(), opens, parsed, parses: readers.size };
  } finally {
    openSpy.mock.restore();
    pushSpy.mock.restore();
    syncBuiltinESMExports();
  }
}

const report = (args: string[]) => bed.report(args);

test('the report use case reads the answer once, as it arrives: the saved file is never read back to be told', async () => {
  const file = join(bed.dir, 'editor-report.csv');
  const template = readFileSync(join(root, 'examples', 'transactions.report.json'), 'utf8');
  const { result, opens, parsed, parses } = await counted(() =>
    runCustomReportTemplate(template, {
      file,
      target: async () => ({
        ok: true,
        value: {
          environment: {
            name: 'csv',
            baseUrl: `${bed.origin}/csv`,
            reportBaseUrl: `${bed.origin}/csv`,
            endpointId: '1',
            consumerKey: 'k',
            production: false,
          },
          credentials: { signatureMethod: 'HMAC-SHA1', consumerKey: 'k', consumerSecret: 's' },
        },
      }),
    }),
  );
  assert.equal(result.status, 'ran');
  assert.ok(result.status === 'ran' && result.saved.saved && result.saved.format === 'csv' && result.saved.rows === 20_000);
  assert.deepEqual(
    opens.filter((f) => f.includes('editor-report')),
    [],
    'the saved report is not opened again',
  );
  assert.equal(parses, 1, 'one parse');
  assert.equal(parsed, csv.length, 'parsed once, on its way to the file');
  assert.equal(readFileSync(file, 'utf8'), csv);
});

test('`paygate report` prints a CSV report from its one parse, never reading its saved answer back, in each format', async () => {
  for (const [format, args] of [
    ['text', []],
    ['json', []],
    ['csv', []],
    ['json --out', ['--out', 'r.json']],
  ] as const) {
    const { result, opens, parsed, parses } = await counted(() => report(['--env', 'csv', '--format', format.split(' ')[0], ...args]));
    assert.equal(result.code, 0, `${format}: ${result.err}`);
    const reportFiles = opens.filter((f) => f.includes('paygate-report-'));
    assert.equal(reportFiles.length, 0, `${format}: the saved answer is not read back (${reportFiles.length} opens)`);
    // The arrival's parse only: what is printed was made from it.
    assert.equal(parses, 1, `${format}: ${parses} parses`);
    assert.equal(parsed, csv.length, `${format}: ${parsed / csv.length} times the text parsed`);
  }
  const text = await report(['--env', 'csv']);
  assert.match(text.out, /^Merchant_Name {2}Transaction_id {2}Amount\n-{13} {2}-{14} {2}-{6}\n/, 'widths measured as it arrived');
  assert.match(text.out, /20000 row\(s\) — report from /);
});

test('`paygate report` prints nothing of a report found ragged at its end, in each format (its records were made as it arrived)', async () => {
  for (const format of ['text', 'json', 'csv']) {
    const r = await report(['--env', 'ragged', '--format', format]);
    assert.equal(r.code, 1, `${format}: ${r.out}${r.err}`);
    // The answer is quoted under its headline ("  | …"), never printed as the report's records.
    assert.doesNotMatch(r.out, /^"?Shop 1\b|"rows":\[|row\(s\) — report from/m, `${format}: no record printed`);
    assert.match(r.out, format === 'json' ? /"outcome":"unrecognised"/ : /^Unrecognised answer/, format);
  }
});
