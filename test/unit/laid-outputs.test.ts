import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { paygate, runPaygate } from '../../src/cli/program';
import { contentHash } from '../../src/core/contentHash';
import { readFileSync } from 'node:fs';
import { takeVouched } from '../../src/core/output';
import { formatGatewayDate } from '../../src/core/dates';
import { startLocalGateway, type LocalGateway } from '../../src/local-gateway';
import { testContext } from '../fixtures/cli/context';
import { REPORT_COLUMNS } from '../fixtures/hostile/corpus';
import { plainBatch, plainRow, quoted } from '../fixtures/hostile/plainBatch';
import { standInTeam, type TeamAnswers } from '../fixtures/ledger/teamStandIn';

// Mask values, not layouts (issue 38): no CLI output the issue names is a line composed as a plain string
// and left for the floor to guess at. Each command below is run in process without the floor, in each of its
// formats, and every write to standard output and to standard error (errors, warnings, progress) must have been
// laid out from checked values and vouched for (core/output/laid.ts, a Said through saidOut): the floor would let
// it through unread. A write that was not fails, naming the command.

let dir: string;
let gw: LocalGateway;
const at = (name: string) => join(dir, name);
const EXAMPLES = join(__dirname, '..', '..', 'examples');
const env = () => ({
  PAYGATE_DATA_DIR: at('data'),
  PAYGATE_STATE_DIR: at('state'),
  XDG_CONFIG_HOME: at('config'),
  HOME: dir,
  COLUMNS: '100',
});

/**
 * Each write to standard output and error of `paygate ARGS`, run without the floor. For `paygate gateway` the
 * stop signal comes at once: it prints its card and stops.
 */
async function writes(args: string[], err: string[] = []): Promise<string[]> {
  const stop = args[0] === 'gateway' ? Promise.resolve('SIGTERM') : new Promise<string>(() => undefined);
  const out: string[] = [];
  const ctx = testContext({
    cwd: dir,
    env: env(),
    stdout: (t) => void out.push(t),
    stderr: (t) => void err.push(t),
    stopped: () => stop,
  });
  await (await paygate(ctx)).parseAsync(args, { from: 'user' }).catch(() => undefined);
  return out;
}

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'paygate-laid-outputs-'));
  gw = await startLocalGateway({ stateDir: at('state'), port: 0 });
  const start = formatGatewayDate(gw.today());
  const iso = start.split('.').reverse().join('-');
  writeFileSync(
    at('a.rpcsv'),
    plainBatch([
      plainRow('O-1', start, '12.50', { card: '5555555555554444' }),
      plainRow('O-2', start, '3.00', { card: '4242424242424242' }),
    ]),
  );
  writeFileSync(
    at('b.rpcsv'),
    plainBatch([
      plainRow('O-1', start, '13.50', { card: '5555555555554444' }),
      plainRow('O-3', start, '1.00', { card: '4242424242424242' }),
    ]),
  );
  // Lint quotes its values: an amount that is not one, a card number in the wrong column.
  writeFileSync(
    at('broken.rpcsv'),
    plainBatch([
      plainRow('O-4', start, 'x', { card: '4111 1111 1111 1111' }),
      plainRow('4111111111111111', 'soon', '1.00', { card: '12' }),
    ]),
  );
  const report = [
    REPORT_COLUMNS,
    ...['O-1', 'O-9'].map((id, i) => ['Demo', 'desc', id, `${iso} 09:00:0${i}`, '12.50', 'EUR', 'Sale approved', `T-${i}`, start, '', '']),
  ];
  writeFileSync(at('report.csv'), report.map((r) => r.map(quoted).join(',')).join('\r\n') + '\r\n');
  // A comma file: fix rewrites it with ";" (--dry-run: prints each fix, writes nothing).
  writeFileSync(at('fixable.rpcsv'), plainBatch([plainRow('F-1', start, '1.00', { card: '5555555555554444' })]).replaceAll(';', ','));
  writeFileSync(
    at('project.config.json'),
    JSON.stringify({
      environment: 'x',
      environments: [{ name: 'x', baseUrl: gw.baseUrl, reportBaseUrl: gw.baseUrl, endpointId: '1', consumerKey: 'k' }],
    }),
  );
  const sent = `S-${Date.now()}`;
  writeFileSync(at('sent.rpcsv'), plainBatch([plainRow(sent, start, '1.00', { card: '5105105105105100' })]));
  await writes(['submit', 'sent.rpcsv', '--env', 'local', '--base-url', gw.baseUrl, '--allow-resend']);
  // Refused by the ledger: the sent row edited (already sent), the same card and schedule under a new id (same payer).
  writeFileSync(at('resent.rpcsv'), plainBatch([plainRow(sent, start, '2.00', { card: '5105105105105100' })]));
  writeFileSync(at('payer.rpcsv'), plainBatch([plainRow(`P-${Date.now()}`, start, '1.00', { card: '5105105105105100' })]));
  // A send whose file is gone since: `paygate ledger push` lists it as pushed file-level only.
  writeFileSync(at('gone.rpcsv'), plainBatch([plainRow(`G-${Date.now()}`, start, '1.00', { card: '4000056655665556' })]));
  await writes(['submit', 'gone.rpcsv', '--env', 'local', '--base-url', gw.baseUrl]);
  rmSync(at('gone.rpcsv'));
});

after(async () => {
  await gw.close();
  rmSync(dir, { recursive: true, force: true });
});

const RUNS: Record<string, { formats: string[]; args: (f: string) => string[][] }> = {
  reconcile: { formats: ['text', 'json', 'csv'], args: (f) => [['reconcile', 'a.rpcsv', '--report', 'report.csv', '--format', f]] },
  schedule: { formats: ['text', 'json'], args: (f) => ['a.rpcsv', 'broken.rpcsv'].map((b) => ['schedule', b, '--format', f]) },
  history: { formats: ['text', 'json'], args: (f) => [['history', '--format', f]] },
  lint: {
    formats: ['text', 'json', 'sarif', 'github'],
    args: (f) => ['a.rpcsv', 'broken.rpcsv'].map((b) => ['lint', b, '--format', f, '--no-git']),
  },
  query: {
    formats: ['text', 'json', 'csv'],
    args: (f) => [['query', 'report.csv', '--group-by', 'Currency', '--sum', 'Amount', '--where', 'Amount > 1', '--format', f]],
  },
  diff: { formats: ['text', 'json'], args: (f) => [['diff', 'a.rpcsv', '--against', 'b.rpcsv', '--format', f]] },
  forecast: { formats: ['text', 'json', 'csv'], args: (f) => [['forecast', 'a.rpcsv', '--format', f]] },
  callbacks: { formats: ['text', 'json'], args: (f) => [['callbacks', 'list', '--format', f]] },
  submit: {
    formats: ['text', 'json'],
    args: (f) => [['submit', 'sent.rpcsv', '--env', 'local', '--base-url', gw.baseUrl, '--allow-resend', '--format', f]],
  },
  sign: {
    formats: ['text', 'json'],
    args: (f) => [
      [
        'sign',
        '--method',
        'POST',
        '--url',
        `${gw.baseUrl}/x?d=4111111111111111`,
        '--consumer-key',
        'k',
        '--consumer-secret',
        's',
        '--format',
        f,
      ],
    ],
  },
  gateway: {
    formats: ['text'],
    // The running gateway's card (shown, not started again), a gateway started on another state, the clock moved.
    args: () => [
      ['gateway', '--state', 'state', '--quiet'],
      ['gateway', '--state', 'other', '--quiet'],
      ['gateway', '--state', 'state', '--advance', '1'],
    ],
  },
  fix: {
    formats: ['text'],
    args: () => [
      ['fix', 'fixable.rpcsv', '--dry-run'],
      ['fix', 'a.rpcsv', 'fixable.rpcsv', '--dry-run', '--strip-cvv'],
    ],
  },
  trust: {
    formats: ['text'],
    args: () => [
      ['trust', '--list'],
      ['trust', 'project.config.json'],
      ['trust', '--list'],
      ['trust', '--revoke', 'project.config.json'],
      ['trust', '--revoke', 'project.config.json'],
    ],
  },
  demo: { formats: ['text'], args: () => [['demo', '--examples', EXAMPLES, '--days', '3']] },
  report: {
    formats: ['text', 'csv'],
    // Saved with --out: the one line that says where.
    args: (f) => [
      ['report', EXAMPLES + '/transactions.report.json', '--report-base-url', gw.reportBaseUrl, '--out', `saved-${f}.csv`, '--format', f],
    ],
  },
  split: { formats: ['text', 'json'], args: (f) => [['split', 'a.rpcsv', '--max-rows', '1', '--out-dir', `parts-${f}`, '--format', f]] },
  version: { formats: ['text'], args: () => [['--version'], ['fix', '--help']] },
};

/** Runs that write to standard error: refusals with their lint errors, usage errors, warnings. */
const ERRORS: string[][] = [
  ['submit', 'broken.rpcsv', '--env', 'local', '--format', 'json'],
  ['submit', 'sent.rpcsv', '--env', 'local', '--format', 'json'],
  ['submit', 'resent.rpcsv', '--env', 'local'],
  ['submit', 'payer.rpcsv', '--env', 'local'],
  ['schedule', 'a.rpcsv', '--row', '99'],
  ['schedule', 'a.rpcsv', '--limit', 'x'],
  ['lint', 'missing.rpcsv'],
  ['query', 'missing.csv', '--group-by', 'Currency'],
  ['report', 'missing.report.json'],
  ['history', '--ledger', 'not a url'],
];

for (const [name, { formats, args }] of Object.entries(RUNS))
  test(`paygate ${name}, in ${formats.join(', ')}: every write is laid out from its values and vouched for`, async () => {
    for (const f of formats)
      for (const a of args(f)) {
        const out = await writes(a);
        assert.ok(out.length > 0, `${a.join(' ')}: nothing written`);
        // History lists the submission made above (its content hash), not an empty ledger.
        if (name === 'history') assert.match(out.join(''), /[0-9a-f]{64}/);
        for (const w of out) assert.ok(takeVouched(w), `${a.join(' ')}: written without a vouch:\n${w.slice(0, 400)}`);
      }
  });

test('standard error, for every refusal, usage error and warning: every write is laid out from its values and vouched for', async () => {
  for (const a of ERRORS) {
    const err: string[] = [];
    for (const w of await writes(a, err)) takeVouched(w);
    assert.ok(err.length > 0, `${a.join(' ')}: nothing written to standard error`);
    for (const w of err) assert.ok(takeVouched(w), `${a.join(' ')}: written to standard error without a vouch:\n${w.slice(0, 400)}`);
  }
});

test('paygate ledger init, status and push (the team ledger stood in for): every write is laid out from its values and vouched for', async (t) => {
  const team = standInTeam(t);
  const runs: [Partial<TeamAnswers>, string[]][] = [
    [{}, ['init', '--grant', 'team, ops']],
    [{ init: { from: 3, keyRecorded: false, sameKey: true } }, ['init']],
    [{ init: { from: 1, keyRecorded: false, sameKey: false } }, ['init', '--key-out', 'other.key']],
    [{}, ['status']],
    [{}, ['status', '--format', 'json']],
    [{ status: { schemaVersion: 2, sending: 1, keyMatches: false } }, ['status']],
    [{}, ['push']],
    [{ pushed: 'present' }, ['push']],
    [{}, ['unknown']],
  ];
  const texts: string[] = [];
  for (const [answers, args] of runs) {
    Object.assign(team, answers);
    const err: string[] = [];
    const out = [...(await writes(['ledger', ...args, '--ledger', 'postgres://paygate@127.0.0.1:1/team'], err)), ...err];
    assert.ok(out.length > 0, `ledger ${args.join(' ')}: nothing written`);
    for (const w of out) assert.ok(takeVouched(w), `ledger ${args.join(' ')}: written without a vouch:\n${w.slice(0, 400)}`);
    texts.push(out.join(''));
  }
  // Each line the command can say was said: the grant, the key made before, a key not the team's, the file-level list.
  assert.match(texts[0], /schema created at version 3\.\nRead and write on its tables granted to team, ops\.\nTeam key written to /);
  assert.match(texts[1], /the schema is at version 3 already\.\nThe team key was made before; .* is it\.\n$/);
  assert.match(texts[2], /schema brought from version 1 at version 3\.\n.*the team key was made before: .*\(no new key was kept\)\n$/);
  assert.match(
    texts[5],
    /schema version: 2 \(this PayGate's is 3\)\nrecords: 2 \(1 still "sending": no answer recorded\)\nteam key: does NOT match/,
  );
  assert.match(texts[6], /send\(s\) pushed file-level only .*\n {2}\d{4}-\d{2}-\d{2}T\S+ {2}\S*gone\.rpcsv → local, endpoint /);
  assert.match(
    texts[7],
    /^0 record\(s\) of .* pushed into the team ledger postgres:\/\/paygate@127\.0\.0\.1:1\/team, \d+ were there already; 0 send/,
  );
});

test("history's typed values (the time, the row count, the content hash) come out whole in text and JSON, through the floor", async () => {
  const hash = contentHash(readFileSync(at('sent.rpcsv'), 'utf8'));
  for (const f of ['text', 'json']) {
    let out = '';
    await runPaygate(['history', '--format', f], testContext({ cwd: dir, env: env(), stdout: (t) => void (out += t) }));
    const time = /\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?Z/.exec(out)?.[0];
    assert.ok(time !== undefined && out.includes(hash), out);
    assert.match(out, f === 'text' ? /\(1 row\)/ : /"rowCount":1\b/);
    assert.doesNotMatch(out, /\*/, out);
  }
});
