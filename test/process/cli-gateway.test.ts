import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateKeyPairSync } from 'node:crypto';
import { createServer, type AddressInfo } from 'node:net';
import { startLocalGateway, SIMULATE_500_ORDER_ID, type LocalGateway } from '../../src/local-gateway';
import { REPORT_COLUMNS } from '../../src/local-gateway/report';
import { runSubmit } from '../fixtures/cli/commands';
import { Ledger } from '../../src/core/ledger';
import { runReport } from '../fixtures/cli/commands';
import { runSign } from '../fixtures/cli/commands';
import type { CliContext } from '../../src/cli/context';
import { testContext } from '../fixtures/cli/context';
import { ownPayers } from '../fixtures/ledger/payers';
import { saidText } from '../../src/core/output';

// The CLI against the local gateway over loopback: the command modules run in this process with a
// captured context; the gateway is a real HTTP server on an ephemeral port with a temporary state dir.

const root = join(__dirname, '..', '..');
const validCsv = readFileSync(join(root, 'examples', 'valid.rpcsv'), 'utf8');
const header = validCsv.split(/\r?\n/)[0];
let dir: string;
let gw: LocalGateway;

interface Run {
  code: number;
  out: string;
  err: string;
  json?: Record<string, unknown>;
}

function context(extra: Partial<CliContext> = {}, env: Record<string, string> = {}): { ctx: CliContext; out: string[]; err: string[] } {
  const out: string[] = [];
  const err: string[] = [];
  const ctx: CliContext = testContext({
    stdout: (t) => void out.push(t),
    stderr: (t) => void err.push(t),
    // The submission ledger of this test run, never the user's own.
    env: { PAYGATE_DATA_DIR: join(dir, 'data'), PAYGATE_STATE_DIR: join(dir, 'state'), ...env },
    cwd: dir,
    interactive: false,
    confirm: async () => false,
    ...extra,
  });
  return { ctx, out, err };
}

async function run(
  fn: (args: string[], ctx: CliContext) => Promise<number>,
  args: string[],
  extra: Partial<CliContext> = {},
  env: Record<string, string> = {},
): Promise<Run> {
  const { ctx, out, err } = context(extra, env);
  const code = await fn(args, ctx);
  const text = out.join('');
  let json: Record<string, unknown> | undefined;
  if (args.includes('json')) json = JSON.parse(text);
  return { code, out: text, err: err.join(''), json };
}

function file(name: string, text: string): string {
  const p = join(dir, name);
  writeFileSync(p, text);
  return p;
}

/** The valid example with its client-orderids replaced, so each test's payments are its own. */
function batch(tag: string, edit: (row: string) => string = (r) => r): string {
  const [head, ...rows] = validCsv.split('\n');
  // Cards of the batch's own too: the same payers under other ids would be same-payer.
  return ownPayers([head, ...rows.map((r) => (r.trim() === '' ? r : edit(r.replace(/^[A-Z]+-2027-/, `${tag}-`))))].join('\n'), tag);
}

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'paygate-cli-'));
  process.env.PAYGATE_STATE_DIR = join(dir, 'state');
  gw = await startLocalGateway({ stateDir: process.env.PAYGATE_STATE_DIR, port: 0 });
});

after(async () => {
  await gw.close();
  rmSync(dir, { recursive: true, force: true });
});

const local = () => ['--base-url', gw.baseUrl];
const localReport = () => ['--report-base-url', gw.reportBaseUrl];

test('submit: a valid batch is accepted (exit 0) and the gateway holds its payments', async () => {
  const r = await run(runSubmit, [file('ok.rpcsv', batch('OK')), ...local(), '--format', 'json']);
  assert.equal(r.code, 0, r.err);
  assert.equal(r.json!.outcome, 'accepted');
  assert.equal(r.json!.status, 200);
  const fields = r.json!.fields as Record<string, string>;
  assert.equal(fields.type, 'create-recurring-payment-response');
  assert.ok(fields['serial-number']);
  const ours = gw.payments().filter((p) => p['client-orderid'].startsWith('OK-'));
  assert.equal(ours.length, validCsv.trim().split('\n').length - 1 - (validCsv.match(/"[^"]*\n[^"]*"/g)?.length ?? 0));
  for (const p of ours) assert.ok(fields['recurring-payment-id'].split(',').includes(p['recurring-payment-id']));
});

test('report: a CSV report in the contract JSON (exit 0), with the charges made on the simulated clock', async () => {
  await run(runSubmit, [file('rep.rpcsv', batch('REP')), ...local()]);
  await gw.advanceDays(3);
  const template = file('t.report.json', readFileSync(join(root, 'examples', 'transactions.report.json'), 'utf8'));
  const r = await run(runReport, [template, ...localReport(), '--format', 'json']);
  assert.equal(r.code, 0, r.err);
  assert.equal(r.json!.outcome, 'report');
  assert.match(String(r.json!.contentType), /^text\/csv/);
  assert.deepEqual(r.json!.columns, [...REPORT_COLUMNS]);
  const rows = r.json!.rows as string[][];
  assert.ok(
    rows.some((row) => row[2].startsWith('REP-')),
    'our payments were charged',
  );
  const text = await run(runReport, [template, ...localReport()]);
  assert.equal(text.code, 0);
  assert.match(text.out, /Merchant_Name\s+Transaction_id/);
});

test('report with query options: the report is grouped and totalled as it arrives, exactly as its rows add up; --out still saves it', async () => {
  await run(runSubmit, [file('q.rpcsv', batch('QRY')), ...local()]);
  await gw.advanceDays(40);
  const template = file('q.report.json', readFileSync(join(root, 'examples', 'transactions.report.json'), 'utf8'));
  const plain = await run(runReport, [template, ...localReport(), '--format', 'json']);
  const rows = plain.json!.rows as string[][];
  assert.ok(rows.length > 0);
  // Independently: the thousandths of each Transaction_type's amounts (every Amount here has three decimals).
  const want = new Map<string, bigint>();
  for (const r of rows) want.set(r[6], (want.get(r[6]) ?? 0n) + BigInt(r[4].replace('.', '')));
  const out = join(dir, 'q-report.csv');
  const q = await run(runReport, [
    template,
    ...localReport(),
    '--group-by',
    'Transaction_type',
    '--sum',
    'Amount',
    '--count',
    '--out',
    out,
    '--format',
    'json',
  ]);
  assert.equal(q.code, 0, q.err);
  const groups = q.json!.groups as { key: Record<string, string>; count: number; sum: Record<string, string> }[];
  for (const g of groups) {
    assert.equal(g.key.Currency, 'EUR', 'the template filters EUR');
    const thousandths = want.get(g.key.Transaction_type)!.toString().padStart(4, '0');
    assert.equal(g.sum.Amount, `${thousandths.slice(0, -3)}.${thousandths.slice(-3)}`);
    assert.equal(g.count, rows.filter((r) => r[6] === g.key.Transaction_type).length);
  }
  assert.deepEqual(q.json!.rows, { read: rows.length, matched: rows.length });
  assert.ok(existsSync(out), 'the report itself went to --out');
  assert.match(q.err, /row\(s\) written to/);
  const bad = await run(runReport, [template, ...localReport(), '--where', 'Amount >']);
  assert.equal(bad.code, 2);
  assert.match(bad.err, /--where: column 9: expected a value after '>', found the end\n {2}Amount >\n {10}\^\nnothing was sent/);
});

test('report: a PDF report goes to --out', async () => {
  const template = JSON.parse(readFileSync(join(root, 'examples', 'transactions.report.json'), 'utf8'));
  const t = file('pdf.report.json', JSON.stringify({ ...template, reportFormat: 'PDF' }));
  const r = await run(runReport, [t, ...localReport(), '--out', 'out.pdf']);
  assert.equal(r.code, 0, r.err + r.out);
  assert.equal(readFileSync(join(dir, 'out.pdf')).subarray(0, 5).toString('latin1'), '%PDF-');
});

test('report: every template problem with its place and nothing sent (exit 2); a lower-case currency warns (exit 0, no rows)', async () => {
  const template = JSON.parse(readFileSync(join(root, 'examples', 'transactions.report.json'), 'utf8'));
  const { reportName: _dropped, ...rest } = { ...template, reportFormat: 'XLS' };
  const bad = await run(runReport, [file('xls.report.json', JSON.stringify(rest, null, 2)), ...localReport()]);
  assert.equal(bad.code, 2, bad.out);
  assert.match(bad.err, /xls\.report\.json:1:1: error reportName is missing/);
  assert.match(bad.err, /xls\.report\.json:\d+:3: error reportFormat "XLS" is not one the gateway serves/);
  assert.match(bad.err, /\(2 problems\); nothing was sent/);
  const eur = { ...template, filters: { ...template.filters, currencies: ['eur'] } };
  const warned = await run(runReport, [file('eur.report.json', JSON.stringify(eur, null, 2)), ...localReport(), '--format', 'json']);
  assert.equal(warned.code, 0, warned.err);
  assert.deepEqual(warned.json!.rows, []);
  assert.match(warned.err, /eur\.report\.json:\d+:\d+: warning filters\.currencies "eur" can never match: .*write "EUR"/);
});

test('submit: a wrong RSA key is an authentication failure (exit 3, HTTP 403)', async () => {
  const other = generateKeyPairSync('rsa', {
    modulusLength: 2048,
    publicKeyEncoding: { type: 'spki', format: 'pem' },
    privateKeyEncoding: { type: 'pkcs1', format: 'pem' },
  });
  const key = file('other.pem', other.privateKey);
  const before = gw.payments().length;
  const r = await run(runSubmit, [file('auth.rpcsv', batch('AUTH')), ...local(), '--rsa-key', key, '--format', 'json']);
  assert.equal(r.code, 3);
  assert.equal(r.json!.outcome, 'auth-failed');
  assert.equal(r.json!.status, 403);
  assert.equal(gw.payments().length, before);
  assert.doesNotMatch(r.out + r.err, /PRIVATE KEY/);
});

test('report: a wrong consumer secret is an authentication failure (exit 3) although HTTP says 200', async () => {
  const template = file('auth.report.json', readFileSync(join(root, 'examples', 'transactions.report.json'), 'utf8'));
  const r = await run(runReport, [template, ...localReport(), '--consumer-secret', 'not-the-secret', '--format', 'json']);
  assert.equal(r.code, 3);
  assert.equal(r.json!.outcome, 'auth-failed');
  assert.equal(r.json!.status, 200);
  assert.doesNotMatch(r.out + r.err, /not-the-secret/);
  const text = await run(runReport, [template, ...localReport()], {}, { PAYGATE_CONSUMER_SECRET: 'also-wrong' });
  assert.equal(text.code, 3);
  assert.match(text.out, /Authentication failed/);
});

test('submit: a header-only file is refused before anything is sent (exit 2), as the editor refuses it', async () => {
  const r = await run(runSubmit, [file('empty.rpcsv', `${header}\r\n`), ...local()]);
  assert.equal(r.code, 2, r.err);
  assert.match(r.err, /empty\.rpcsv has no payment rows \(a header alone\); nothing was sent/);
  const records = await new Ledger(join(dir, 'data')).list();
  assert.ok(!records.some((rec) => rec.file.endsWith('empty.rpcsv')), 'no send was recorded: nothing left');
});

test("submit: a currency other than the project's is an error (exit 1)", async () => {
  const r = await run(runSubmit, [
    file(
      'usd.rpcsv',
      batch('USD', (row) => row.replace(/;EUR;/, ';USD;')),
    ),
    ...local(),
    '--format',
    'json',
  ]);
  assert.equal(r.code, 1, r.err);
  assert.equal(r.json!.outcome, 'error');
});

test('submit: HTTP 500 is a server error with its error ID (exit 1)', async () => {
  const r = await run(runSubmit, [
    file(
      '500.rpcsv',
      // One row is enough for the local gateway's 500; a second with the same id would be a duplicate-order-id.
      batch('E500', (row) => row.replace(/^E500-0*1\b/, SIMULATE_500_ORDER_ID)),
    ),
    ...local(),
    '--format',
    'json',
  ]);
  assert.equal(r.code, 1, r.err);
  assert.equal(r.json!.outcome, 'server-error');
  assert.equal(r.json!.status, 500);
  assert.match(String(r.json!.errorId), /^[0-9a-f-]{36}$/);
  const text = await run(runSubmit, [
    file(
      '500b.rpcsv',
      batch('E5B', (row) => row.replace(/^E5B-0*1\b/, SIMULATE_500_ORDER_ID)),
    ),
    ...local(),
  ]);
  assert.match(text.out, /Server error \(HTTP 500, error ID [0-9a-f-]{36}\)/);
});

async function closedPort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const port = (s.address() as AddressInfo).port;
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}

test('submit and report: a closed port is a transport error (exit 4)', async () => {
  const port = await closedPort();
  const s = await run(runSubmit, [file('t.rpcsv', batch('TR')), '--base-url', `http://127.0.0.1:${port}/paygate`, '--format', 'json']);
  assert.equal(s.code, 4);
  assert.equal(s.json!.outcome, 'transport-error');
  assert.equal(s.json!.kind, 'refused');
  const template = file('tr.report.json', readFileSync(join(root, 'examples', 'transactions.report.json'), 'utf8'));
  const r = await run(runReport, [template, '--report-base-url', `http://127.0.0.1:${port}/reports`]);
  assert.equal(r.code, 4);
  assert.match(r.out, /Not delivered \(refused\)/);
});

test('submit: lint errors are printed as file:line:col and nothing is sent (exit 2)', async () => {
  const before = gw.payments().length;
  const bad = file(
    'bad.rpcsv',
    batch('BAD', (row) => row.replace(/;EUR;/, ';EURO;')),
  );
  const r = await run(runSubmit, [bad, ...local()]);
  assert.equal(r.code, 2);
  assert.match(r.err, new RegExp(`${bad.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:2:\\d+: error `));
  assert.match(r.err, /nothing was sent/);
  assert.equal(gw.payments().length, before);
});

test('submit: a production environment needs a confirmation or --yes', async () => {
  const config = file(
    'prod.config.json',
    JSON.stringify({
      environment: 'prod',
      environments: [
        {
          name: 'prod',
          baseUrl: gw.baseUrl,
          reportBaseUrl: gw.reportBaseUrl,
          endpointId: gw.merchant.endpointId,
          consumerKey: gw.merchant.consumerKey,
          production: true,
        },
      ],
    }),
  );
  const env = { PAYGATE_RSA_KEY_FILE: join(process.env.PAYGATE_STATE_DIR!, 'merchant-rsa-private.pem') };
  const before = gw.payments().length;
  const refused = await run(runSubmit, [file('p1.rpcsv', batch('PRA')), '--config', config], {}, env);
  assert.equal(refused.code, 2);
  assert.match(refused.err, /production/);
  let asked = '';
  const declined = await run(
    runSubmit,
    // A card number in the file's name: the question is written past the floor, so each of its values is checked.
    [file('p2-4111111111111111.rpcsv', batch('PRB')), '--config', config],
    { interactive: true, confirm: async (q) => ((asked = saidText(q)), false) },
    env,
  );
  assert.equal(declined.code, 2);
  assert.match(asked, /PRODUCTION/);
  assert.match(asked, new RegExp(`endpoint ${gw.merchant.endpointId}`));
  assert.match(asked, /p2-411111\*{6}1111\.rpcsv \(\d+ rows?\)/);
  assert.equal(gw.payments().length, before);
  const sent = await run(runSubmit, [file('p3.rpcsv', batch('PRC')), '--config', config, '--yes', '--format', 'json'], {}, env);
  assert.equal(sent.code, 0, sent.err);
  assert.ok(gw.payments().some((p) => p['client-orderid'].startsWith('PRC-')));
});

test('usage errors: unknown environment, bad template with line and column, missing file (exit 2)', async () => {
  const unknown = await run(runSubmit, [file('u.rpcsv', batch('UNK')), '--env', 'nowhere']);
  assert.equal(unknown.code, 2);
  assert.match(unknown.err, /unknown environment "nowhere"/);
  const t = file('broken.report.json', '{\n  "reportIdentifier": "x",\n  "reportFormat": CSV\n}\n');
  const broken = await run(runReport, [t, ...localReport()]);
  assert.equal(broken.code, 2);
  assert.match(broken.err, /broken\.report\.json:3:\d+: error invalid JSON/);
  const missing = await run(runSubmit, [join(dir, 'nope.rpcsv'), ...local()]);
  assert.equal(missing.code, 2);
  assert.match(missing.err, /nope\.rpcsv: cannot read: no such file/);
});

test('sign: the debug form as JSON reproduces Appendix A.5 (exit 0)', async () => {
  const r = await run(
    runSign,
    [
      '--method',
      'GET',
      '--url',
      'http://photos.example.net/photos?file=vacation.jpg&size=original',
      '--consumer-key',
      'dpf43f3p2l4k3l03',
      '--signature-method',
      'HMAC-SHA1',
      '--token',
      'nnch734d00sl2jdk',
      '--token-secret',
      'pfkkdhi9sl3r4s00',
      '--nonce',
      'kllo9940pd9333jh',
      '--timestamp',
      '1191242096',
      '--format',
      'json',
    ],
    {},
    { PAYGATE_CONSUMER_SECRET: 'kd94hf93k423kf44' },
  );
  assert.equal(r.code, 0, r.err);
  assert.deepEqual(Object.keys(r.json!), ['baseString', 'signature', 'signatureHex', 'authorization']);
  assert.equal(r.json!.signature, 'tR3+Ty81lMeYAr/Fid0kMTYa/WM=');
  assert.equal(r.json!.signatureHex, 'b51dfe4f2f3594c79802bfc589dd2431361afd63');
  assert.doesNotMatch(r.out, /kd94hf93k423kf44/);
  const bad = await run(runSign, [
    '--method',
    'POST',
    '--url',
    'https://x.example/',
    '--consumer-key',
    'k',
    '--signature-method',
    'RSA-SHA256',
    '--rsa-key',
    join(dir, 'none.pem'),
  ]);
  assert.equal(bad.code, 2);
  assert.match(bad.err, /none\.pem: cannot read the RSA private key: no such file/);
  assert.equal(existsSync(join(dir, 'none.pem')), false);
});

test('submit: a ledger that cannot be written sends nothing: exit 2, "nothing was sent", the reason named', async () => {
  // A ledger directory under a plain file: every write fails (ENOTDIR), before the request could leave.
  const blocker = file('not-a-directory', 'x');
  const r = await run(runSubmit, [file('ledgerless.rpcsv', batch('NOLEDGER')), ...local(), '--state', join(blocker, 'ledger')]);
  assert.equal(r.code, 2, r.out);
  assert.match(r.err, /nothing was sent: the submission ledger .* could not be used \(.*ENOTDIR/);
  assert.doesNotMatch(r.out, /Accepted/);
});
