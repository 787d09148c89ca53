import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runSubmit } from '../fixtures/cli/commands';
import { testContext } from '../fixtures/cli/context';
import { lintCommand } from '../../src/cli/commands/lint';
import type { CliContext } from '../../src/cli/context';
import { runCommand } from '../../src/cli/parser';
import { gatewayOrderId } from '../../src/core/orderId';
import { startLocalGateway, type LocalGateway } from '../../src/local-gateway';

// The same payer under another id, from the terminal, against the local gateway (issue 37, item 3): the
// example sent, then its rows (the same cards and schedules) under ids the gateway reads as new ones.
// `paygate lint` says same-payer on each row's client-orderid, naming the earlier id, when and which
// submission; `paygate submit` refuses (exit 2, nothing created) and names the same; with
// --allow-same-payer it sends. Before the rule, the renamed batch was accepted and every payer charged twice.

const root = join(__dirname, '..', '..');
const validCsv = readFileSync(join(root, 'examples', 'valid.rpcsv'), 'utf8');
let dir: string;
let gw: LocalGateway;

async function run(fn: (args: string[], ctx: CliContext) => Promise<number>, args: string[]) {
  let out = '';
  let err = '';
  const ctx = testContext({
    stdout: (t) => void (out += t),
    stderr: (t) => void (err += t),
    env: { PAYGATE_DATA_DIR: join(dir, 'data'), PAYGATE_STATE_DIR: join(dir, 'state'), XDG_CONFIG_HOME: join(dir, 'config') },
    cwd: dir,
  });
  return { code: await fn(args, ctx), out, err };
}

/** The example with every client-orderid made by `id` (the cards and schedules stay), written as `name`. */
function batch(name: string, id: (n: string) => string): string {
  writeFileSync(
    join(dir, name),
    validCsv.replace(/[A-Z]{3}-2027-(\d{4})/g, (_, n: string) => id(n)),
  );
  return name;
}

const local = () => ['--base-url', gw.baseUrl];
const runLint = (args: string[], ctx: CliContext) => runCommand(lintCommand, args, ctx);
/** Payments the local gateway holds per id (as it reads it). */
const perId = () => {
  const n = new Map<string, number>();
  for (const p of gw.payments()) n.set(gatewayOrderId(p['client-orderid']), (n.get(gatewayOrderId(p['client-orderid'])) ?? 0) + 1);
  return n;
};

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'paygate-cli-same-payer-'));
  process.env.PAYGATE_STATE_DIR = join(dir, 'state');
  gw = await startLocalGateway({ stateDir: process.env.PAYGATE_STATE_DIR, port: 0 });
});

after(async () => {
  await gw.close();
  rmSync(dir, { recursive: true, force: true });
});

test('the same cards and schedules under -RENEW ids: lint warns, submit refuses (nothing created), --allow-same-payer sends', async () => {
  const first = await run(runSubmit, [batch('january.rpcsv', (n) => `JAN-${n}`), ...local()]);
  assert.equal(first.code, 0, first.err);
  assert.equal(gw.payments().length, 4);

  const renewed = batch('renew.rpcsv', (n) => `JAN-${n}-RENEW`);
  const lint = await run(runLint, [renewed, '--no-git', '--format', 'json']);
  assert.equal(lint.code, 0, `warnings only: ${lint.out}${lint.err}`);
  const diagnostics = (
    JSON.parse(lint.out) as {
      files: { diagnostics: { code: string; severity: string; line: number; column: number; message: string }[] }[];
    }
  ).files[0].diagnostics.filter((d) => d.code === 'same-payer');
  assert.deepEqual(
    diagnostics.map((d) => [d.line, d.column, d.severity]),
    [
      [2, 1, 'warning'],
      [3, 1, 'warning'],
      [4, 1, 'warning'],
      [6, 1, 'warning'],
    ],
  );
  assert.match(diagnostics[0].message, /under client-orderid "JAN-0001" \(submission of "january\.rpcsv", serial-number \S+, accepted\)/);
  assert.match(diagnostics[0].message, /on \d{4}-\d\d-\d\d \d\d:\d\d UTC to local, endpoint \S+/);

  const refused = await run(runSubmit, [renewed, ...local()]);
  assert.equal(refused.code, 2, refused.err);
  const listed = refused.err.split('\n').filter((l) => /^renew\.rpcsv:\d+: same-payer: /.test(l));
  assert.deepEqual(
    listed.map((l) => Number(/:(\d+):/.exec(l)![1])),
    diagnostics.map((d) => d.line),
    'submit names the rows lint flags',
  );
  assert.match(listed[0], /under client-orderid "JAN-0001"/);
  assert.match(refused.err, /4 rows have the card and schedule of a row already sent to local.*Nothing was sent.*--allow-same-payer/s);
  assert.equal(gw.payments().length, 4, 'nothing created');

  // --allow-resend is not the way on: it answers the resend guards, not this one.
  assert.equal((await run(runSubmit, [renewed, ...local(), '--allow-resend'])).code, 2);
  assert.equal(gw.payments().length, 4);

  const sent = await run(runSubmit, [renewed, ...local(), '--allow-same-payer']);
  assert.equal(sent.code, 0, sent.err);
  assert.equal(gw.payments().length, 8);
  assert.ok(
    [...perId().values()].every((n) => n === 1),
    'every id once',
  );
});

test('lower case and a look-alike letter are refused the same way; another card is not the same payer', async () => {
  // January's payers again under FEB ids, on purpose: the newest earlier send is the one named below.
  assert.equal((await run(runSubmit, [batch('feb.rpcsv', (n) => `FEB-${n}`), ...local(), '--allow-same-payer'])).code, 0);
  const before = gw.payments().length;
  for (const [name, id] of [
    ['lower.rpcsv', (n: string) => `feb-${n}`],
    ['lookalike.rpcsv', (n: string) => `F\u0415B-${n}`],
  ] as const) {
    const r = await run(runSubmit, [batch(name, id), ...local()]);
    assert.equal(r.code, 2, `${name}: ${r.err}`);
    assert.match(r.err, /same-payer: .*under client-orderid "FEB-0001"/);
  }
  assert.equal(gw.payments().length, before, 'nothing created');
  // The first row on a card of its own: three rows refused, and that one is not named.
  writeFileSync(join(dir, 'other.rpcsv'), readFileSync(join(dir, 'lower.rpcsv'), 'utf8').replace('4111111111111111', '4012888888881881'));
  const other = await run(runSubmit, ['other.rpcsv', ...local()]);
  assert.equal(other.code, 2);
  assert.match(other.err, /3 rows have the card and schedule/);
  assert.doesNotMatch(other.err, /other\.rpcsv:2: same-payer/);
});
