import { test, before, after, mock } from 'node:test';
import assert from 'node:assert/strict';
import { once } from 'node:events';
import * as http from 'node:http';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type * as FsPromises from 'node:fs/promises';
import { runReport } from '../fixtures/cli/commands';
import { testContext } from '../fixtures/cli/context';
import { trustFile } from '../../src/cli/trust';
import { CsvReader } from '../../src/core/csv/reportReader';
import { runCustomReportTemplate } from '../../src/core/report/runReport';

// Issue 42: a report's bytes are read once. Its answer is recognised and parsed on its way to its file
// (core/gateway/reportArrival.ts), so nobody reads that file back to learn what it is; `paygate report`
// then prints it in one read (the text table's widths come from the arrival's parse), and the editor's
// page gets the file's bytes in one read and parses them itself. Counted here: every opening of a file
// through node:fs/promises (how every reader in src opens one: core/regularFile.ts, the editor's report
// file) and every character any report reader (CsvReader) is given. Before: the core re-read the saved
// file to check its shape, and the text table read it twice more (3 opens, 3 parses); JSON with --out the
// same. (A report opened from disk in the editor is counted in report-file-once.test.ts.)

// node:fs/promises itself (an import's namespace is a copy whose members cannot be replaced).
// eslint-disable-next-line @typescript-eslint/no-require-imports
const fsp = require('node:fs/promises') as typeof FsPromises;
const root = join(__dirname, '..', '..');
let dir: string;
let srv: http.Server;
let origin: string;
const csv =
  [
    '"Merchant_Name","Transaction_id","Amount"',
    ...Array.from({ length: 20_000 }, (_, i) => `"Shop ${i}","${100000 + i}","${i % 97}.50"`),
  ].join('\r\n') + '\r\n';

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'paygate-read-once-'));
  srv = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => res.writeHead(200, { 'Content-Type': 'text/csv' }).end(csv));
  });
  srv.listen(0, '127.0.0.1');
  await once(srv, 'listening');
  origin = `http://127.0.0.1:${(srv.address() as AddressInfo).port}`;
  const environments = [{ name: 'csv', baseUrl: origin, reportBaseUrl: origin, endpointId: '1', consumerKey: 'k' }];
  writeFileSync(join(dir, 'paygate.config.json'), JSON.stringify({ environments, environment: 'csv' }));
  trustFile({ XDG_CONFIG_HOME: join(dir, 'config') }, join(dir, 'paygate.config.json'), readFileSync(join(dir, 'paygate.config.json')));
});

after(async () => {
  srv.closeAllConnections();
  await new Promise((r) => srv.close(r));
  rmSync(dir, { recursive: true, force: true });
});

/** Runs `body`, counting the files opened through node:fs/promises and the characters every report reader was given. */
async function counted<T>(body: () => Promise<T>): Promise<{ result: T; opens: string[]; parsed: number }> {
  const opens: string[] = [];
  let parsed = 0;
  const realOpen = fsp.open;
  const openSpy = mock.method(fsp, 'open', (file: string, flags?: string | number, mode?: number) => {
    opens.push(String(file));
    return realOpen(file, flags, mode);
  });
  const realPush = CsvReader.prototype.push;
  const pushSpy = mock.method(CsvReader.prototype, 'push', function (this: CsvReader, text: string) {
    parsed += text.length;
    return realPush.call(this, text);
  });
  try {
    return { result: await body(), opens, parsed };
  } finally {
    openSpy.mock.restore();
    pushSpy.mock.restore();
  }
}

async function report(args: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const ctx = testContext({
    stdout: (t) => void out.push(t),
    stderr: (t) => void err.push(t),
    env: { PAYGATE_CONSUMER_SECRET: 's', XDG_CONFIG_HOME: join(dir, 'config') },
    cwd: dir,
  });
  const code = await runReport([join(root, 'examples', 'transactions.report.json'), ...args], ctx);
  return { code, out: out.join(''), err: err.join('') };
}

test('the report use case reads the answer once, as it arrives: the saved file is never read back to be told', async () => {
  const file = join(dir, 'editor-report.csv');
  const template = readFileSync(join(root, 'examples', 'transactions.report.json'), 'utf8');
  const { result, opens, parsed } = await counted(() =>
    runCustomReportTemplate(template, {
      file,
      target: async () => ({
        ok: true,
        value: {
          environment: { name: 'csv', baseUrl: origin, reportBaseUrl: origin, endpointId: '1', consumerKey: 'k', production: false },
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
  assert.equal(parsed, csv.length, 'parsed once, on its way to the file');
  assert.equal(readFileSync(file, 'utf8'), csv);
});

test('`paygate report` prints a CSV report in one read of its file, in each format', async () => {
  for (const [format, args] of [
    ['text', []],
    ['json', []],
    ['csv', []],
    ['json --out', ['--out', 'r.json']],
  ] as const) {
    const { result, opens, parsed } = await counted(() => report(['--env', 'csv', '--format', format.split(' ')[0], ...args]));
    assert.equal(result.code, 0, `${format}: ${result.err}`);
    const reportFiles = opens.filter((f) => f.includes('paygate-report-'));
    assert.equal(reportFiles.length, 1, `${format}: the saved answer is read once (${reportFiles.length} opens)`);
    // Its arrival's parse and the one read's: the bytes are never parsed from the file twice.
    assert.equal(parsed, 2 * csv.length, `${format}: ${parsed / csv.length} parses`);
  }
  const text = await report(['--env', 'csv']);
  assert.match(text.out, /^Merchant_Name {2}Transaction_id {2}Amount\n-{13} {2}-{14} {2}-{6}\n/, 'widths measured as it arrived');
  assert.match(text.out, /20000 row\(s\) — report from /);
});
