// The output boundary, proved for every face with one hostile corpus (test/fixtures/hostile/corpus.ts):
// every `paygate` command (found in the program's own list, so a new command is driven too) in every
// output format, against the local gateway and a hostile stand-in gateway; the callback store; the
// language server's diagnostics, hovers and completions. Nothing that leaves shows a full card number,
// a CVV, a raw control character, a forged line or (in a CSV we write) a live formula.
//
// Each command runs twice: as the process runs it (through src/cli/boundary.ts, the floor under every
// line), and without that floor, so each path must be safe on its own too (a value printed without
// field(), jsonOut() or csvText() fails here even though the floor would have caught most of it). A
// command that forgets everything is still safe through the floor: the last test proves that.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { once } from 'node:events';
import * as http from 'node:http';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { CommandUnknownOpts, Option } from '@commander-js/extra-typings';
import { CompletionRequest, HoverRequest } from 'vscode-languageserver-protocol/node';
import { formatGatewayDate } from '../../src/core/dates';
import { startLocalGateway, type LocalGateway } from '../../src/local-gateway';
import { startCallbackListener, CallbackStore } from '../../src/callback-listener';
import { loadCommandBuilders, paygate, runPaygate } from '../../src/cli/program';
import type { CommandBuilder } from '../../src/cli/registry';
import { paygateCommand, exits, runCommand } from '../../src/cli/parser';
import type { CliContext } from '../../src/cli/context';
import { trustFile } from '../../src/cli/trust';
import { testContext } from '../fixtures/cli/context';
import { messageText, TestClient, LANGUAGE_ID } from '../language-server/client';
import {
  assertSafe,
  brokenBatch,
  CREATE_ANSWERS,
  CVV,
  FORGED,
  HOSTILE_FILE_NAME,
  HOSTILE_TEXT,
  hostileCallbacks,
  hostileReport,
  ORDER_IDS,
  PANS,
  problemsIn,
  validBatch,
  type OutputKind,
} from '../fixtures/hostile/corpus';
import { PROCESS_MS, WAIT_MS } from '../fixtures/deadlines';
import { paygateArgs } from '../fixtures/cli/bin';

const ROOT = join(__dirname, '..', '..');

let dir: string;
let gw: LocalGateway;
let stand: http.Server;
let standOrigin: string;
let reportCsv: string;
const at = (name: string) => join(dir, name);

/** The hostile stand-in gateway: create answers by endpoint id, a hostile report, a hostile callback handler. */
function standIn(req: http.IncomingMessage, res: http.ServerResponse): void {
  const url = req.url ?? '';
  if (url.startsWith('/handler')) return void res.writeHead(200, { 'Content-Type': 'text/plain' }).end(HOSTILE_TEXT);
  if (url.startsWith('/report')) return void res.writeHead(200, { 'Content-Type': 'text/csv; charset=utf-8' }).end(reportCsv);
  // The answer is named by a path segment: the endpoint id of a create, or a report base URL's last part.
  const a = url
    .split('?')[0]
    .split('/')
    .map((s) => (Object.hasOwn(CREATE_ANSWERS, s) ? CREATE_ANSWERS[s] : undefined))
    .find((x) => x !== undefined);
  if (!a) return void res.writeHead(404).end();
  res.writeHead(a.status, { 'Content-Type': a.type }).end(a.body);
}

/** Every command's builder, in the registry's order (its modules load on demand: loaded once, first). */
let builders: CommandBuilder[] = [];

before(async () => {
  builders = await loadCommandBuilders();
  dir = mkdtempSync(join(tmpdir(), 'paygate-hostile-out-'));
  process.env.PAYGATE_STATE_DIR = at('state');
  gw = await startLocalGateway({ stateDir: at('state'), port: 0 });
  stand = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => standIn(req, res));
  });
  stand.listen(0, '127.0.0.1');
  await once(stand, 'listening');
  standOrigin = `http://127.0.0.1:${(stand.address() as AddressInfo).port}`;

  const start = formatGatewayDate(gw.today());
  const batch = validBatch(start);
  writeFileSync(at('valid.rpcsv'), batch);
  writeFileSync(at('broken.rpcsv'), brokenBatch());
  writeFileSync(at(HOSTILE_FILE_NAME), brokenBatch());
  const iso = start.split('.').reverse().join('-');
  reportCsv = hostileReport(ORDER_IDS, iso, start);
  writeFileSync(at('report.csv'), reportCsv);
  cpSync(join(ROOT, 'examples', 'transactions.report.json'), at('transactions.report.json'));
  // A demo folder of hostile files: `paygate demo --examples` lints, sends and reports them.
  mkdirSync(at('demo'));
  writeFileSync(at('demo/valid.rpcsv'), batch);
  writeFileSync(at('demo/broken.rpcsv'), brokenBatch());
  cpSync(join(ROOT, 'examples', 'transactions.report.json'), at('demo/transactions.report.json'));

  // Environments of the stand-in (one per hostile answer), trusted as a user would.
  const environments = Object.keys(CREATE_ANSWERS).map((id) => ({
    name: `stand-${id}`,
    baseUrl: `${standOrigin}/paynet`,
    reportBaseUrl: `${standOrigin}/report`,
    endpointId: id,
    consumerKey: 'merchant',
  }));
  environments.push({
    name: `evil\x1b]52;c;SGk=\x07-${PANS[1]}`,
    baseUrl: `${standOrigin}/paynet`,
    reportBaseUrl: standOrigin,
    endpointId: 'x',
    consumerKey: 'm',
  });
  writeFileSync(at('paygate.config.json'), JSON.stringify({ environments, environment: 'stand-error', requestTimeoutSeconds: 5 }));
  trustFile({ XDG_CONFIG_HOME: at('config') }, at('paygate.config.json'), readFileSync(at('paygate.config.json')));
  writeFileSync(at('untrusted.json'), JSON.stringify({ environments, environment: `x\x1b[2J${PANS[0]}` }));
  writeFileSync(at('bad.json'), `{"environments": [\n  {"name": "${PANS[0]}\x1b[2J"`);

  // Charges in the window: the local gateway's report has rows.
  await gw.advanceDays(2);

  // The callback store, filled through the listener's public entry by hostile callbacks of every body type.
  const listener = await startCallbackListener({ store: new CallbackStore(at('callbacks')) });
  try {
    for (const c of hostileCallbacks()) await post(`${listener.url.replace(/\/$/, '')}${c.path}`, c.type, c.body);
  } finally {
    await listener.close();
  }
});

after(async () => {
  await gw.close();
  stand.closeAllConnections();
  await new Promise((r) => stand.close(r));
  delete process.env.PAYGATE_STATE_DIR;
  rmSync(dir, { recursive: true, force: true });
});

async function post(url: string, type: string, body: string): Promise<number> {
  const res = await fetch(url, { method: 'POST', headers: { 'Content-Type': type }, body, signal: AbortSignal.timeout(WAIT_MS) });
  await res.arrayBuffer();
  return res.status;
}

// ---- how each command is driven ----------------------------------------------------------------------

interface Run {
  args: string[];
  /** What standard output is (standard error is always text). */
  kind?: OutputKind;
  /** For a long-running command: what to do once it has started (its output so far), before it is stopped. */
  during?: (stdout: () => string) => Promise<void>;
}

const local = () => ['--env', 'local', '--base-url', gw.baseUrl];
const localReport = () => ['--env', 'local', '--report-base-url', gw.reportBaseUrl];
const config = ['--config', 'paygate.config.json'];

/** Waits until the output says where a started server listens. */
async function address(stdout: () => string, pattern: RegExp): Promise<string> {
  const deadline = Date.now() + WAIT_MS;
  for (let i = 0; Date.now() < deadline && i < 10_000; i++) {
    const m = pattern.exec(stdout());
    if (m) return m[1];
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`no address in ${stdout()}`);
}

/** Whether `paygate NAME` has the option FLAG: a recipe drives options another branch adds once they exist. */
function hasOption(name: string, flag: string): boolean {
  const cmd = commands().find((c) => c.name() === name);
  return cmd !== undefined && (cmd.options as readonly Option[]).some((o) => o.long === flag);
}

/**
 * Questions asked of the hostile report (`paygate query`, and `paygate report` with the same options):
 * groups keyed by hostile values (card numbers, formulas, escapes, line breaks), amounts that are card
 * numbers or unreadable (skipped rows are named with their value), a filter quoting a card number, and
 * a bad expression holding an escape sequence (its place is shown).
 */
const QUESTIONS: string[][] = [
  ['--group-by', 'Order_description,Merchant_OID', '--sum', 'Amount', '--max', 'Amount'],
  ['--group-by', 'Transaction_id,Currency,Transaction_type', '--by', 'day', '--avg', 'Amount', '--min', 'Amount'],
  ['--where', `Order_description contains "${PANS[0]}" or Merchant_OID starts with "="`, '--group-by', 'Merchant_OID'],
  ['--where', `Amount >= \x1b]52;c;SGk=\x07 ${PANS[1]}`],
  ['--group-by', 'card_cvc'],
];

/** Each question in format `f`: CSV is ours (formulas neutralised), and once more with --raw. */
function questions(prefix: string[], f: string): Run[] {
  return QUESTIONS.flatMap((q) => [
    { args: [...prefix, ...q, '--format', f], kind: f === 'csv' ? ('csv' as const) : undefined },
    ...(f === 'csv' ? [{ args: [...prefix, ...q, '--format', f, '--raw'], kind: 'raw-csv' as const }] : []),
  ]);
}

/**
 * The recipes: how a command is given hostile input, per format (`F` is replaced by each value of its
 * --format option). A command without a recipe is run generically: every argument a hostile batch.
 */
const RECIPES: Record<string, (format: string) => Run[]> = {
  lint: (f) =>
    ['valid.rpcsv', 'broken.rpcsv', HOSTILE_FILE_NAME, 'no such \x1b[2J file.rpcsv'].map((file) => ({
      args: ['lint', file, '--format', f, '--no-git'],
    })),
  fix: () => [{ args: ['fix', '--dry-run', 'broken.rpcsv', HOSTILE_FILE_NAME] }],
  schedule: (f) =>
    ['valid.rpcsv', 'broken.rpcsv', HOSTILE_FILE_NAME].map((file) => ({
      args: ['schedule', file, '--format', f, '--today', '01.01.2027'],
    })),
  forecast: (f) =>
    ['valid.rpcsv', 'broken.rpcsv'].flatMap((file) => [
      { args: ['forecast', file, '--format', f, '--today', '01.01.2027'] },
      ...(f === 'csv' ? [{ args: ['forecast', file, '--format', f, '--raw', '--today', '01.01.2027'], kind: 'raw-csv' as const }] : []),
    ]),
  sign: (f) => [
    {
      args: [
        'sign',
        '--method',
        'POST',
        '--url',
        `http://127.0.0.1/x?cvv=${CVV}&c=${PANS[0]}`,
        '--consumer-key',
        `k\x1b[2J`,
        '--consumer-secret',
        's',
        '--param',
        `client-orderid=${PANS[1]}`,
        '--param',
        `note=${HOSTILE_TEXT}`,
        '--format',
        f,
      ],
    },
  ],
  submit: (f) => [
    { args: ['submit', 'valid.rpcsv', ...local(), '--format', f] },
    { args: ['submit', 'broken.rpcsv', ...local(), '--format', f] },
    ...Object.keys(CREATE_ANSWERS).map((id) => ({
      args: ['submit', 'valid.rpcsv', ...config, '--env', `stand-${id}`, '--allow-resend', '--format', f],
    })),
  ],
  history: (f) => [{ args: ['history', '--format', f] }],
  report: (f) => {
    const kind = f === 'csv' ? 'csv' : undefined;
    return [
      { args: ['report', 'transactions.report.json', ...localReport(), '--format', f], kind },
      { args: ['report', 'transactions.report.json', ...config, '--env', 'stand-error', '--format', f], kind },
      ...(f === 'csv'
        ? [
            {
              args: ['report', 'transactions.report.json', ...config, '--env', 'stand-error', '--format', f, '--raw'],
              kind: 'raw-csv' as const,
            },
          ]
        : []),
      { args: ['report', 'transactions.report.json', ...config, '--env', 'stand-error', '--format', f, '--out', `out-${f}.data`] },
      ...(hasOption('report', '--where') ? questions(['report', 'transactions.report.json', ...config, '--env', 'stand-error'], f) : []),
      {
        args: [
          'report',
          'transactions.report.json',
          ...config,
          '--env',
          'stand-unrecognised',
          '--report-base-url',
          `${standOrigin}/paynet/unrecognised`,
          '--format',
          f,
        ],
      },
    ];
  },
  reconcile: (f) => {
    const kind = f === 'csv' ? 'csv' : undefined;
    return [
      { args: ['reconcile', 'valid.rpcsv', '--report', 'report.csv', '--format', f], kind },
      {
        args: ['reconcile', 'valid.rpcsv', '--template', 'transactions.report.json', ...config, '--env', 'stand-error', '--format', f],
        kind,
      },
      ...(f === 'csv'
        ? [{ args: ['reconcile', 'valid.rpcsv', '--report', 'report.csv', '--format', f, '--raw'], kind: 'raw-csv' as const }]
        : []),
      { args: ['reconcile', 'broken.rpcsv', HOSTILE_FILE_NAME, '--report', 'report.csv', '--format', f], kind },
    ];
  },
  query: (f) => questions(['query', 'report.csv'], f),
  trust: () => [
    { args: ['trust', 'untrusted.json'] },
    { args: ['trust', 'bad.json'] },
    { args: ['trust', '--list'] },
    { args: ['trust', '--revoke', 'untrusted.json'] },
  ],
  gateway: () => [
    {
      args: ['gateway', '--port', '0', '--state', 'gateway-state'],
      during: async (stdout) => {
        const base = await address(stdout, /base URL:\s+(\S+)/);
        const origin = new URL(base).origin;
        await post(`${origin}/%1b%5d52;c;SGk=%07/${PANS[0]}/%0A${FORGED}?cvv=${CVV}`, 'text/plain', HOSTILE_TEXT);
        await post(`${base}`, 'application/x-www-form-urlencoded', `payload=${encodeURIComponent(HOSTILE_TEXT)}`);
      },
    },
  ],
  listen: (f) => [
    {
      args: ['listen', '--port', '0', '--state', 'listen-state', '--format', f],
      during: async (stdout) => {
        const url = (await address(stdout, /listening on (\S+)/)).replace(/\/$/, '');
        for (const c of hostileCallbacks()) await post(`${url}${c.path}`, c.type, c.body);
      },
    },
  ],
  callbacks: (f) => [
    { args: ['callbacks', 'list', '--state', 'callbacks', '--format', f] },
    {
      args: [
        'callbacks',
        'send',
        '--to',
        `${standOrigin}/handler`,
        '--client-orderid',
        `${PANS[0]}\n${FORGED}`,
        '--status',
        'approved',
        '--state',
        'callbacks',
      ],
    },
    // Every kept hostile call sent again to the hostile handler: the call line and the answer both printed.
    ...new CallbackStore(at('callbacks')).list().map((e) => ({
      args: ['callbacks', 'replay', e.id, '--to', `${standOrigin}/handler`, '--state', 'callbacks'],
    })),
  ],
  demo: () => [{ args: ['demo', '--examples', 'demo', '--state', 'demo-state'] }],
  // The language server speaks LSP on standard output: driven as an editor drives it, in the last tests.
  lsp: () => [],
};

/** The values of a command's --format option (commander keeps the choices), or one run without it. */
function formatsOf(cmd: CommandUnknownOpts): string[] {
  const all = [cmd, ...cmd.commands];
  const choices = all.flatMap((c) => (c.options as readonly Option[]).find((o) => o.long === '--format')?.argChoices ?? []);
  return choices.length > 0 ? [...new Set(choices)] : ['text'];
}

function runsOf(cmd: CommandUnknownOpts): Run[] {
  const recipe = RECIPES[cmd.name()];
  const formats = formatsOf(cmd);
  if (recipe)
    return formats.flatMap((f) => recipe(f).map((r) => ({ ...r, kind: r.kind ?? (f === 'json' || f === 'sarif' ? 'json' : 'text') })));
  // No recipe yet: every declared argument is a hostile batch, in every format.
  const args = cmd.registeredArguments.map(() => 'broken.rpcsv');
  return formats.map((f) => ({
    args: [cmd.name(), ...args, ...(f === 'text' && formats.length === 1 ? [] : ['--format', f])],
    kind: f === 'csv' ? 'csv' : 'text',
  }));
}

interface Output {
  code: number | undefined;
  stdout: string;
  stderr: string;
}

function context(): { ctx: CliContext; out: () => string; err: () => string; stop: () => void } {
  let out = '';
  let err = '';
  let stop: (s: string) => void = () => undefined;
  const stopped = new Promise<string>((resolve) => (stop = resolve));
  const ctx = testContext({
    cwd: dir,
    env: {
      PAYGATE_DATA_DIR: at('data'),
      PAYGATE_STATE_DIR: at('state'),
      PAYGATE_CONSUMER_SECRET: 'secret',
      XDG_CONFIG_HOME: at('config'),
      HOME: dir,
      COLUMNS: '100',
    },
    stdout: (t) => void (out += t),
    stderr: (t) => void (err += t),
    stopped: () => stopped,
  });
  return { ctx, out: () => out, err: () => err, stop: () => stop('SIGTERM') };
}

/**
 * Runs one invocation as the process does (`floor`: through src/cli/boundary.ts) or without the floor
 * (the program's own commands on the raw context: what each path writes before the floor sees it).
 */
async function drive(run: Run, floor: boolean): Promise<Output> {
  const { ctx, out, err, stop } = context();
  const started = floor
    ? runPaygate(run.args, ctx)
    : (await paygate(ctx)).parseAsync(run.args, { from: 'user' }).then(
        () => undefined,
        // A usage problem is printed by runCommand through usageError (safe on its own, see output.ts).
        () => undefined,
      );
  let code: number | undefined;
  const finished = started.then((c) => (code = c ?? undefined));
  if (run.during) {
    await run.during(out);
    stop();
  }
  await Promise.race([
    finished,
    new Promise((_, reject) => setTimeout(() => reject(new Error(`${run.args.join(' ')}: no end`)), PROCESS_MS).unref()),
  ]);
  return { code, stdout: out(), stderr: err() };
}

const label = (run: Run, floor: boolean) =>
  `paygate ${run.args.map((a) => JSON.stringify(a)).join(' ')} (${floor ? 'as the process runs it' : 'without the floor'})`;

// ---- the tests ---------------------------------------------------------------------------------------

const commands = () => builders.map((build) => build(context().ctx));

test('every command has a way to be driven with the corpus, and each run says something', async () => {
  for (const cmd of commands()) {
    const runs = runsOf(cmd);
    if (cmd.name() === 'lsp') continue; // driven over LSP below
    assert.ok(runs.length > 0, `${cmd.name()}: no run`);
  }
  // The corpus itself is hostile: the checks find what they look for.
  assert.ok(problemsIn(HOSTILE_TEXT, 'text').length >= 4);
  assert.ok(problemsIn('a,=1+1\r\n', 'csv').length === 1);
});

async function driveAll(floor: boolean): Promise<{ failures: string[]; runs: number; said: number }> {
  let runs = 0;
  let said = 0;
  const failures: string[] = [];
  for (const cmd of commands()) {
    for (const run of runsOf(cmd)) {
      const o = await drive(run, floor);
      const where = label(run, floor);
      said += o.stdout.length + o.stderr.length;
      for (const [stream, text, kind] of [
        ['standard output', o.stdout, run.kind ?? 'text'],
        ['standard error', o.stderr, 'text'],
      ] as const) {
        const problems = problemsIn(text, kind);
        if (problems.length > 0) failures.push(`${where}, ${stream}:\n  ${problems.join('\n  ')}`);
      }
      runs++;
    }
  }
  return { failures, runs, said };
}

for (const floor of [true, false]) {
  test(`every command × every format ${floor ? 'as the process runs it' : 'without the floor (each path safe on its own)'}`, async () => {
    const { failures, runs, said } = await driveAll(floor);
    assert.deepEqual(failures, [], failures.join('\n\n'));
    assert.ok(runs >= 60, `runs: ${runs}`);
    assert.ok(said > 100_000, `output: ${said} characters`);
  });
}

test('the hostile answers were seen: the paths under test printed the corpus, masked', async () => {
  // Not vacuous: the runs above reached the values they are about (masked and escaped, not left out).
  const submit = await drive({ args: ['submit', 'valid.rpcsv', ...config, '--env', 'stand-unrecognised', '--allow-resend'] }, true);
  assert.match(submit.stdout, /4111 11\*\* \*{4} 1111/, 'masked in place, its spaces kept');
  assert.match(submit.stdout, /\\x1b\]52;c;SGVsbG8=\\x07/);
  const reconcile = await drive({ args: ['reconcile', 'valid.rpcsv', '--report', 'report.csv', '--format', 'csv'] }, true);
  assert.match(reconcile.stdout, /'=1\+1/);
  assert.match(reconcile.stdout, /amount-unreadable/);
  assert.equal(reconcile.code, 1);
  // A CVV column by another name (one table of names, issue 38) makes no groups: its values would be the keys.
  for (const column of ['card_cvc']) {
    const refused = await drive({ args: ['query', 'report.csv', '--group-by', column, '--format', 'json'] }, true);
    assert.equal(refused.code, 2, refused.stdout + refused.stderr);
    assert.match(refused.stderr, /holds card verification values/);
  }
  const raw = await drive({ args: ['reconcile', 'valid.rpcsv', '--report', 'report.csv', '--format', 'csv', '--raw'] }, true);
  assert.match(raw.stdout, /,=1\+1,/, 'the opt-out keeps the cell as it came');
  // A handler's answer is quoted line by line: its second line is ours behind "  | ", never a line of its own.
  const send = await drive(
    {
      args: [
        'callbacks',
        'send',
        '--to',
        `${standOrigin}/handler`,
        '--client-orderid',
        'ORD-1',
        '--status',
        'approved',
        '--state',
        'callbacks',
      ],
    },
    true,
  );
  assert.equal(send.code, 0, send.stderr);
  const [status, ...quoted] = send.stdout.trimEnd().split('\n');
  assert.match(status, /^HTTP 200 from http:\/\/127\.0\.0\.1:\d+\/handler\?type=sale&\S+ in \d+ ms$/);
  assert.deepEqual(
    quoted.filter((l) => !l.startsWith('  | ')),
    [],
    send.stdout,
  );
  assert.match(quoted[0], /^ {2}\| paid with 4111 11\*\* \*{4} 1111 .*\\x1b\[2J\\x1b\[H\\x1b\]52;c;SGVsbG8=\\x07/);
  assert.equal(quoted.at(-1), '  | FORGED-LINE CVC: •••');
  const list = await drive({ args: ['callbacks', 'list', '--state', 'callbacks', '--format', 'json'] }, true);
  assert.equal((JSON.parse(list.stdout) as { callbacks: unknown[] }).callbacks.length, hostileCallbacks().length);
});

test('the raw bytes of an answer go only to the file named by --out', async () => {
  const o = await drive(
    { args: ['report', 'transactions.report.json', ...config, '--env', 'stand-error', '--out', 'raw-report.csv'] },
    true,
  );
  assert.equal(o.code, 0, o.stderr);
  assertSafe(o.stdout, 'text', 'the message');
  assert.equal(readFileSync(at('raw-report.csv'), 'utf8'), reportCsv, 'the file holds the answer byte for byte');
});

test('the callback store at rest holds no card number, no CVV', () => {
  const store = readFileSync(at('callbacks/callbacks.jsonl'), 'utf8');
  assertSafe(store, 'at-rest', 'callbacks.jsonl');
});

test('the local gateway keeps no card number at rest, order ids included', async () => {
  const sent = await drive({ args: ['submit', 'valid.rpcsv', ...local(), '--allow-resend'] }, true);
  assert.equal(sent.code, 0, sent.stdout + sent.stderr);
  const files = readdirSync(at('state')).filter((f) => f.startsWith('state.json') || f.startsWith('journal'));
  assert.ok(files.length > 0);
  for (const f of files) assertSafe(readFileSync(at(`state/${f}`), 'utf8'), 'at-rest', f);
});

test('a command that forgets every rule is still safe on a terminal (src/cli/boundary.ts)', async () => {
  const forgetful = (ctx: CliContext) =>
    paygateCommand({ name: 'forgetful', summary: 's', description: 'd', exits: [[0, 'ok']] }, ctx).action(
      exits(async () => {
        ctx.stdout(`${HOSTILE_TEXT}\n`);
        ctx.stdout(PANS[0].slice(0, 7)); // a card number cut between two writes
        ctx.stdout(`${PANS[0].slice(7)}\n`);
        ctx.stderr(`${JSON.stringify({ cvv2: CVV, pan: PANS[1] })}\n`);
        return 0;
      }),
    );
  const { ctx, out, err } = context();
  assert.equal(await runCommand(forgetful, [], ctx), 0);
  const problems = [...problemsIn(out(), 'text'), ...problemsIn(err(), 'text')];
  // The floor masks, hides and escapes; only a value's own line break is the path's to escape (field()).
  assert.deepEqual(
    problems.filter((p) => !p.startsWith('a forged line')),
    [],
  );
});

test("the language server's diagnostics, hovers and completions", async () => {
  const client = new TestClient([...paygateArgs(), 'lsp', '--stdio']);
  try {
    await client.initialize({ textDocument: { hover: { contentFormat: ['markdown', 'plaintext'] } } });
    for (const [name, text] of [
      ['broken.rpcsv', brokenBatch()],
      ['valid.rpcsv', validBatch('01.01.2031')],
    ]) {
      const uri = pathToFileURL(at(`lsp-${name}`)).href;
      await client.connection.sendNotification('textDocument/didOpen', {
        textDocument: { uri, languageId: LANGUAGE_ID, version: 1, text },
      });
      const published = await client.diagnostics(uri, 'diagnostics', () => true);
      assertSafe(published.diagnostics.map(messageText).join('\n'), 'text', `${name}: diagnostics`);
      // A hover and a completion at the start of every cell of the first rows.
      const lines = text.split(/\r?\n/).slice(0, 3);
      const shown: string[] = [];
      for (const [line, content] of lines.entries()) {
        for (let character = 0, i = 0; character <= content.length && i < 64; i++) {
          const position = { line, character };
          const hover = (await client.connection.sendRequest(HoverRequest.type, { textDocument: { uri }, position })) as {
            contents: { value: string };
          } | null;
          if (hover) shown.push(hover.contents.value);
          const items = await client.connection.sendRequest(CompletionRequest.type, { textDocument: { uri }, position });
          if (items) shown.push(JSON.stringify(items));
          const next = content.indexOf(';', character);
          if (next < 0) break;
          character = next + 1;
        }
      }
      assert.ok(shown.length > 0);
      assertSafe(shown.join('\n'), 'json', `${name}: hovers and completions`);
    }
  } finally {
    await client.stop();
  }
});
