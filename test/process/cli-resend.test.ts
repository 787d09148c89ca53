import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runDiff } from '../fixtures/cli/commands';
import { fixCommand } from '../../src/cli/commands/fix';
import { lintCommand } from '../../src/cli/commands/lint';
import { runCommand } from '../../src/cli/parser';
import { runSubmit } from '../fixtures/cli/commands';
import type { CliContext } from '../../src/cli/context';
import { prepareSubmission } from '../../src/core/gateway';
import { guardedSend, Ledger } from '../../src/core/ledger';
import { startLocalGateway, type LocalGateway } from '../../src/local-gateway';
import { newSubmission } from '../fixtures/ledger/entry';
import { testContext } from '../fixtures/cli/context';
import { ended, type Ended } from '../fixtures/cli/process';
import { paygateArgs } from '../fixtures/cli/bin';

// Knowing what was already sent, from the terminal: `paygate submit` refuses an edited, reordered or
// extended resend (exit 2, nothing sent, rows named) unless --allow-resend; `paygate lint` says
// already-sent and cvv-after-send when a ledger is present (and nothing without one); `paygate diff`;
// `paygate fix --strip-cvv`; and one unchanged file sent from the editor's view of it, then from the
// terminal, is refused the second time (the canonical text).

const root = join(__dirname, '..', '..');
const validCsv = readFileSync(join(root, 'examples', 'valid.rpcsv'), 'utf8');
let dir: string;
let gw: LocalGateway;

interface Run {
  code: number;
  out: string;
  err: string;
}

async function run(fn: (args: string[], ctx: CliContext) => Promise<number>, args: string[], data = 'data'): Promise<Run> {
  let out = '';
  let err = '';
  const ctx = testContext({
    stdout: (t) => void (out += t),
    stderr: (t) => void (err += t),
    env: { PAYGATE_DATA_DIR: join(dir, data), PAYGATE_STATE_DIR: join(dir, 'state'), XDG_CONFIG_HOME: join(dir, 'config') },
    cwd: dir,
  });
  return { code: await fn(args, ctx), out, err };
}

/** Writes the example with its client-orderids tagged (`edit` changes its data rows, each ending with CRLF); its name. */
function batch(name: string, tag: string, edit: (rows: string[]) => string[] = (r) => r): string {
  const [head, ...rows] = validCsv.replace(/[A-Z]{3}-2027-/g, `${tag}-`).split(/(?<=\r\n)(?=[A-Z])/);
  writeFileSync(join(dir, name), [head, ...edit(rows)].join(''));
  return name;
}

// Tagged copies of the example send its payers under new ids on purpose: same-payer is cli-same-payer's.
const local = () => ['--base-url', gw.baseUrl, '--allow-same-payer'];
const runLint = (args: string[], ctx: CliContext) => runCommand(lintCommand, args, ctx);
const runFix = (args: string[], ctx: CliContext) => runCommand(fixCommand, args, ctx);

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'paygate-cli-resend-'));
  process.env.PAYGATE_STATE_DIR = join(dir, 'state');
  gw = await startLocalGateway({ stateDir: process.env.PAYGATE_STATE_DIR, port: 0 });
});

after(async () => {
  await gw.close();
  rmSync(dir, { recursive: true, force: true });
});

test('submit refuses an edited, reordered and extended resend of the same rows (exit 2, rows named), --allow-resend sends', async () => {
  assert.equal((await run(runSubmit, [batch('r.rpcsv', 'RS'), ...local()])).code, 0);
  const before = gw.payments().length;
  const edited = batch('r.rpcsv', 'RS', (rows) =>
    [...rows.reverse(), 'RS-NEW;DST;Payout;;;;;;;;;;;;;;;10.00;;;;EUR;P LTD;6011000990139424;05;2030;;;\r\n'].map((r) =>
      r.replace('Gym membership, monthly', 'Gym membership (monthly)'),
    ),
  );
  const refused = await run(runSubmit, [edited, ...local()]);
  assert.equal(refused.code, 2, refused.err);
  assert.equal(gw.payments().length, before, 'nothing was sent');
  const named = refused.err
    .split('\n')
    .filter((l) =>
      /^r\.rpcsv:\d+: client-orderid "RS-000\d" was already sent on \d{4}-\d\d-\d\d \d\d:\d\d UTC to local, endpoint \S+ \(serial-number \S+, accepted\)/.test(
        l,
      ),
    );
  assert.equal(named.length, 4, refused.err);
  assert.match(refused.err, /r\.rpcsv: 4 rows were already sent to local, endpoint \S+ \(listed above\)\. Nothing was sent\./);
  assert.match(refused.err, /--allow-resend/);
  assert.ok(!/RS-NEW/.test(refused.err), 'the new row is not named');
  const sent = await run(runSubmit, [edited, ...local(), '--allow-resend']);
  assert.equal(sent.code, 0, sent.err);
  assert.equal(gw.payments().length, before + 5);
});

test('a refusal names the first 20 rows with file and line, then how many more', async () => {
  const head = validCsv.split('\r\n')[0];
  const rows = (n: number, extra = '') =>
    Array.from({ length: n }, (_, i) => `MANY-${i};DST;x${extra};;;;;;;;;;;;;;;10.00;;;;EUR;P;6011000990139424;05;2030;;;`);
  writeFileSync(join(dir, 'many.rpcsv'), [head, ...rows(25)].join('\r\n') + '\r\n');
  const first = await run(runSubmit, ['many.rpcsv', ...local()]);
  assert.equal(first.code, 0, first.err);
  writeFileSync(join(dir, 'many.rpcsv'), [head, ...rows(25, 'y')].join('\r\n') + '\r\n');
  const r = await run(runSubmit, ['many.rpcsv', ...local()]);
  assert.equal(r.code, 2);
  const listed = r.err.split('\n').filter((l) => /^many\.rpcsv:\d+: client-orderid/.test(l));
  assert.deepEqual(
    listed.map((l) => Number(/:(\d+):/.exec(l)![1])),
    Array.from({ length: 20 }, (_, i) => i + 2),
  );
  assert.match(r.err, /… and 5 more already-sent rows/);
  assert.match(r.err, /25 rows were already sent/);
});

test('lint says already-sent on the client-orderid cells and cvv-after-send on the CVVs when a ledger is present; nothing without one', async () => {
  const file = batch('l.rpcsv', 'LT');
  assert.equal((await run(runSubmit, [file, ...local()])).code, 0);
  const r = await run(runLint, ['l.rpcsv', '--no-git', '--format', 'json']);
  assert.equal(r.code, 1, r.err);
  const diagnostics = (JSON.parse(r.out) as { files: { diagnostics: { code: string; line: number; column: number; message: string }[] }[] })
    .files[0].diagnostics;
  const sent = diagnostics.filter((d) => d.code === 'already-sent');
  assert.deepEqual(
    sent.map((d) => [d.line, d.column]),
    [
      [2, 1],
      [3, 1],
      [4, 1],
      [6, 1],
    ],
  );
  assert.match(sent[0].message, /"LT-0001" was already sent on .* UTC to local, endpoint \S+ \(serial-number \S+, accepted\)/);
  assert.equal(diagnostics.filter((d) => d.code === 'cvv-after-send').length, 2, 'the two rows holding a CVV');
  // Another environment's sends do not count; a ledger-less run (CI) changes nothing.
  const clean = await run(runLint, ['l.rpcsv', '--no-git'], 'no-ledger-here');
  assert.equal(clean.code, 0, clean.out);
  assert.equal((await run(runLint, ['l.rpcsv', '--no-git', '--no-ledger'])).code, 0);
});

test('fix --strip-cvv empties every cvv2 value and keeps the column', async () => {
  const file = batch('cvv.rpcsv', 'CV');
  const r = await run(runFix, ['--strip-cvv', 'cvv.rpcsv']);
  assert.equal(r.code, 0);
  assert.equal(r.out, 'cvv.rpcsv: emptied 2 cvv2 values\n');
  const text = readFileSync(join(dir, file), 'utf8');
  assert.ok(!/;(123|456);/.test(text));
  assert.equal(text.split('\r\n')[0], validCsv.split('\r\n')[0], 'the header (and its cvv2 column) stays');
  assert.equal(text.length, validCsv.replace(/[A-Z]{3}-2027-/g, 'CV-').length - 6, 'only the six CVV digits went');
});

test('diff against the last send: added, removed, changed (columns), unchanged; JSON; exit 0 when nothing differs', async () => {
  const file = batch('d.rpcsv', 'DF');
  assert.equal((await run(runSubmit, [file, ...local()])).code, 0);
  assert.equal((await run(runDiff, ['d.rpcsv'])).code, 0, 'nothing changed yet');
  batch('d.rpcsv', 'DF', (rows) => [
    rows[1].replace('5.00;15.00', '6.00;15.00'),
    ...rows.slice(2),
    'DF-NEW;DST;x;;;;;;;;;;;;;;;10.00;;;;EUR;P;6011000990139424;05;2030;;;\r\n',
  ]);
  const r = await run(runDiff, ['d.rpcsv', '--format', 'json']);
  assert.equal(r.code, 1, r.err);
  assert.deepEqual(JSON.parse(r.out), {
    added: [{ 'client-orderid': 'DF-NEW', line: 6 }],
    removed: [{ 'client-orderid': 'DF-0001', line: 2 }],
    changed: [{ 'client-orderid': 'DF-0002', line: 2, columns: ['amount-from'] }],
    unchanged: 2,
  });
  const text = await run(runDiff, ['d.rpcsv']);
  assert.match(text.out, /^d\.rpcsv against the send of .* UTC \(d\.rpcsv to local, endpoint \S+: serial-number \S+, accepted\):\n/);
  assert.match(text.out, /\n {2}changed {2}DF-0002 {2}line 2: amount-from\n/);
  assert.match(text.out, /1 added, 1 removed, 1 changed, 2 unchanged\n$/);
  assert.equal((await run(runDiff, ['d.rpcsv', '--against', 'nope.rpcsv'])).code, 2, 'neither a file nor a serial-number in the ledger');
  cpSync(join(dir, file), join(dir, 'd2.rpcsv'));
  assert.equal((await run(runDiff, ['d.rpcsv', '--against', 'd2.rpcsv'])).code, 0, 'FILE against FILE');
});

function paygate(args: string[], env: Record<string, string>): Promise<Ended> {
  const child = spawn(process.execPath, [...paygateArgs(), ...args], {
    cwd: dir,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  return ended(child, `paygate ${args.join(' ')}`, 60_000);
}

test('an unchanged file with mixed line breaks sent from the editor (its CRLF buffer), then from the terminal, is refused', async () => {
  const text = validCsv.replace(/[A-Z]{3}-2027-/g, 'MIX-');
  assert.match(text, /[^\r]\n/, 'a bare LF in a quoted field');
  writeFileSync(join(dir, 'mix.rpcsv'), text);
  // The editor's face: what VS Code's buffer holds of the file, sent through the same core.
  const buffer = text.replace(/\r\n|\r|\n/g, '\r\n');
  const prepared = prepareSubmission(buffer, 'mix.rpcsv', text);
  const ledgerDir = join(dir, 'data-mix');
  const editor = await guardedSend({
    ledger: new Ledger(ledgerDir),
    entry: newSubmission({
      face: 'editor',
      contentHash: prepared.contentHash,
      rowCount: prepared.rowCount,
      endpointId: gw.environment.endpointId,
    }),
    batch: prepared.lint.batch,
    send: async () => 'sent',
    completion: () => ({ outcome: 'accepted' }),
  });
  assert.equal(editor.status, 'sent');
  const terminal = await paygate(['submit', 'mix.rpcsv', '--base-url', gw.baseUrl], {
    PAYGATE_DATA_DIR: ledgerDir,
    PAYGATE_STATE_DIR: join(dir, 'state'),
  });
  assert.equal(terminal.code, 2, terminal.err);
  assert.match(terminal.err, /the same content was already sent to local, endpoint \S+: .* from the editor/);
});
