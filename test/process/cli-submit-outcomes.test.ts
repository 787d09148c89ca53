import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { once } from 'node:events';
import * as http from 'node:http';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runSubmit } from '../fixtures/cli/commands';
import { runHistory } from '../fixtures/cli/commands';
import type { CliContext } from '../../src/cli/context';
import { testContext } from '../fixtures/cli/context';
import { Ledger } from '../../src/core/ledger';
import { trustFile } from '../../src/cli/trust';
import { PROCESS_MS } from '../fixtures/deadlines';
import { ownPayers } from '../fixtures/ledger/payers';
import { paygateArgs } from '../fixtures/cli/bin';

// `paygate submit` against a loopback stand-in for the gateway whose answer depends on the endpoint id:
// one exit code per outcome, "refused before sending" (4) apart from "dropped after sending" (5), the
// resend guard, `paygate history`, and many processes at once.

const root = join(__dirname, '..', '..');
const validCsv = readFileSync(join(root, 'examples', 'valid.rpcsv'), 'utf8');
let dir: string;
let srv: http.Server;
let origin: string;
let closedOrigin: string;
const hits = new Map<string, number>();
const hanging = new Set<http.ServerResponse>();

const FORM = { 'Content-Type': 'application/x-www-form-urlencoded' };

/** What the stand-in answers, by endpoint id (the last path segment). */
function answer(endpoint: string, res: http.ServerResponse): void {
  const n = hits.get(endpoint) ?? 0;
  switch (endpoint) {
    case 'ok':
      return void res
        .writeHead(200, FORM)
        .end(`type=create-recurring-payment-response&serial-number=s-${n}&recurring-payment-id=${9000 + n}&status=active`);
    case 'empty':
      return void res.writeHead(200).end();
    case 'declined':
      return void res
        .writeHead(200, FORM)
        .end('type=create-recurring-payment-response&status=declined&error-message=Card+declined&error-code=301');
    case 'status-error':
      return void res
        .writeHead(200, FORM)
        .end('type=create-recurring-payment-response&status=error&error-message=Internal+error&error-code=17');
    case 'untyped':
      return void res.writeHead(200, FORM).end('serial-number=s-1&recurring-payment-id=77');
    case 'auth':
      return void res.writeHead(403).end();
    case 's500':
      return void res.writeHead(500, FORM).end('error-message=Oops&error-id=e-123');
    case 'drop':
      return void res.socket?.destroy();
    case 'cut':
      res.writeHead(200, { ...FORM, 'Content-Length': '400' });
      res.write('type=create-recurring-payment-response&status=act');
      return void setImmediate(() => res.socket?.destroy());
    case 'hang':
      hanging.add(res);
      return;
    default:
      return void res.writeHead(404).end();
  }
}

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'paygate-outcomes-'));
  srv = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const endpoint = (req.url ?? '').split('?')[0].split('/').filter(Boolean).pop() ?? '';
      answer(endpoint, res);
      hits.set(endpoint, (hits.get(endpoint) ?? 0) + 1);
    });
  });
  srv.listen(0, '127.0.0.1');
  await once(srv, 'listening');
  origin = `http://127.0.0.1:${(srv.address() as AddressInfo).port}`;
  // A port that was open a moment ago and is closed now: connections are refused.
  const closed = http.createServer();
  closed.listen(0, '127.0.0.1');
  await once(closed, 'listening');
  closedOrigin = `http://127.0.0.1:${(closed.address() as AddressInfo).port}`;
  await new Promise((r) => closed.close(r));
  const environments = ['ok', 'empty', 'declined', 'status-error', 'untyped', 'auth', 's500', 'drop', 'cut', 'hang', 'many', 'race'].map(
    (id) => ({
      name: `gw-${id}`,
      baseUrl: `${origin}/paynet?lang=en`,
      reportBaseUrl: origin,
      endpointId: id === 'many' || id === 'race' ? 'ok' : id,
      consumerKey: 'merchant',
    }),
  );
  environments.push({ name: 'gw-refused', baseUrl: closedOrigin, reportBaseUrl: closedOrigin, endpointId: 'ok', consumerKey: 'merchant' });
  writeFileSync(join(dir, 'paygate.config.json'), JSON.stringify({ environments, environment: 'gw-ok', requestTimeoutSeconds: 1 }));
  // The folder's configuration is used once trusted, as a user would (`paygate trust`).
  trustFile({ XDG_CONFIG_HOME: join(dir, 'config') }, join(dir, 'paygate.config.json'), readFileSync(join(dir, 'paygate.config.json')));
  writeFileSync(join(dir, 'batch.rpcsv'), validCsv);
});

after(async () => {
  for (const res of hanging) res.socket?.destroy();
  srv.closeAllConnections();
  await new Promise((r) => srv.close(r));
  rmSync(dir, { recursive: true, force: true });
});

function context(): { ctx: CliContext; out: string[]; err: string[] } {
  const out: string[] = [];
  const err: string[] = [];
  const ctx: CliContext = testContext({
    stdout: (t) => void out.push(t),
    stderr: (t) => void err.push(t),
    env: { PAYGATE_DATA_DIR: join(dir, 'data'), PAYGATE_CONSUMER_SECRET: 'secret', XDG_CONFIG_HOME: join(dir, 'config') },
    cwd: dir,
  });
  return { ctx, out, err };
}

async function submit(args: string[]): Promise<{ code: number; out: string; err: string; json?: Record<string, unknown> }> {
  const { ctx, out, err } = context();
  const code = await runSubmit(args, ctx);
  const text = out.join('');
  return {
    code,
    out: text,
    err: err.join(''),
    ...(args.includes('json') && text ? { json: JSON.parse(text) as Record<string, unknown> } : {}),
  };
}

/** The valid example with its client-orderids tagged and cards of its own, so each batch's content and payers are its own. */
function batch(tag: string): string {
  const [head, ...rows] = validCsv.split('\n');
  const text = ownPayers([head, ...rows.map((r) => r.replace(/^[A-Z]+-2027-/, `${tag}-`))].join('\n'), tag);
  const file = join(dir, `${tag}.rpcsv`);
  writeFileSync(file, text);
  return file;
}

test('one exit code per outcome, in text and JSON', async () => {
  const cases: [string, number, string][] = [
    ['ok', 0, 'accepted'],
    ['empty', 0, 'accepted'],
    ['declined', 1, 'declined'],
    ['status-error', 1, 'error'],
    ['untyped', 1, 'unrecognised'],
    ['s500', 1, 'server-error'],
    ['auth', 3, 'auth-failed'],
    ['refused', 4, 'transport-error'],
    ['drop', 5, 'unknown'],
    ['cut', 5, 'unknown'],
    ['hang', 5, 'unknown'],
  ];
  for (const [env, code, outcome] of cases) {
    const r = await submit([join(dir, 'batch.rpcsv'), '--env', `gw-${env}`, '--format', 'json']);
    assert.equal(r.code, code, `${env}: ${r.out}${r.err}`);
    assert.equal(r.json?.outcome, outcome, env);
  }
  const declined = await submit([batch('DECL'), '--env', 'gw-declined', '--format', 'json']);
  assert.deepEqual(
    [declined.json?.paymentStatus, declined.json?.errorCode, declined.json?.errorMessage],
    ['declined', '301', 'Card declined'],
  );
  const dropped = await submit([batch('DROP'), '--env', 'gw-drop', '--format', 'json']);
  assert.equal(dropped.json?.kind, 'connection-lost');
  assert.match(String(dropped.json?.message), /may have created the payments/);
  const cut = await submit([batch('CUT'), '--env', 'gw-cut', '--format', 'json']);
  assert.equal(cut.json?.kind, 'truncated');
  const hung = await submit([batch('HANG'), '--env', 'gw-hang']);
  assert.match(hung.out, /^OUTCOME UNKNOWN \(timeout\)/);
  assert.doesNotMatch(hung.out, /not delivered/i);
  const refused = await submit([batch('REF'), '--env', 'gw-refused']);
  assert.match(refused.out, /^Not delivered \(refused\)[\s\S]*nothing was sent/);
  // A 403 cannot tell a wrong key from a wrong endpoint id: the text names all three suspects.
  const denied = await submit([batch('AUTH'), '--env', 'gw-auth']);
  assert.match(
    denied.out,
    /^Authentication failed \(HTTP 403\)[\s\S]*consumer key, the signing key \(RSA private key or consumer secret\) and the endpoint id/,
  );
  const untyped = await submit([batch('UNT'), '--env', 'gw-untyped']);
  assert.match(untyped.out, /\| serial-number=s-1&recurring-payment-id=77/, 'shown verbatim');
});

test('the resend guard: refused (exit 2, nothing sent) until --allow-resend; --yes does not imply it', async () => {
  const file = batch('RESEND');
  const before = hits.get('ok') ?? 0;
  assert.equal((await submit([file, '--env', 'gw-ok'])).code, 0);
  const again = await submit([file, '--env', 'gw-ok', '--yes']);
  assert.equal(again.code, 2);
  assert.match(
    again.err,
    /already sent to gw-ok, endpoint ok[\s\S]*accepted, recurring-payment-id \d+[\s\S]*Nothing was sent[\s\S]*--allow-resend/,
  );
  assert.equal(hits.get('ok'), before + 1, 'the refused resend never reached the gateway');
  // Another environment or endpoint is another target.
  assert.equal((await submit([file, '--env', 'gw-empty'])).code, 0);
  const forced = await submit([file, '--env', 'gw-ok', '--allow-resend', '--format', 'json']);
  assert.equal(forced.code, 0);
  assert.equal(hits.get('ok'), before + 2);
  // An unknown outcome blocks too; a refused connection (nothing sent) and an auth failure do not.
  const unknown = batch('UNKNOWN');
  assert.equal((await submit([unknown, '--env', 'gw-drop'])).code, 5);
  assert.equal((await submit([unknown, '--env', 'gw-drop'])).code, 2);
  const notSent = batch('NOTSENT');
  assert.equal((await submit([notSent, '--env', 'gw-refused'])).code, 4);
  assert.equal((await submit([notSent, '--env', 'gw-refused'])).code, 4);
  assert.equal((await submit([notSent, '--env', 'gw-auth'])).code, 3);
  assert.equal((await submit([notSent, '--env', 'gw-auth'])).code, 3);
});

test('paygate history lists the ledger as text and JSON, without card numbers', async () => {
  const { ctx, out } = context();
  assert.equal(await runHistory(['--format', 'json'], ctx), 0);
  const listed = JSON.parse(out.join('')) as {
    ledger: string;
    records: { environment: string; outcome?: string; kind?: string; endpointId: string; face: string }[];
  };
  assert.equal(listed.ledger, join(dir, 'data', 'ledger.jsonl'));
  assert.ok(listed.records.some((r) => r.environment === 'gw-drop' && r.outcome === 'unknown' && r.kind === 'connection-lost'));
  assert.ok(listed.records.every((r) => r.face === 'cli'));
  const text = context();
  assert.equal(await runHistory([], text.ctx), 0);
  const shown = text.out.join('');
  assert.match(shown, /accepted HTTP 200/);
  assert.match(shown, /submission\(s\) in /);
  const raw = readFileSync(join(dir, 'data', 'ledger.jsonl'), 'utf8');
  for (const card of validCsv.match(/\b\d{13,19}\b/g) ?? []) assert.ok(!raw.includes(card), 'no card number in the ledger');
});

function paygate(args: string[], env: Record<string, string>): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [...paygateArgs(), ...args],
      { cwd: dir, env: { ...process.env, XDG_CONFIG_HOME: join(dir, 'config'), ...env }, timeout: PROCESS_MS },
      (err, stdout, stderr) => {
        let code = 0;
        if (err) code = typeof err.code === 'number' ? err.code : -1;
        resolve({ code, stdout, stderr });
      },
    );
  });
}

test('processes: refused before sending exits 4, dropped after sending exits 5', { timeout: 2 * PROCESS_MS }, async () => {
  const env = { PAYGATE_DATA_DIR: join(dir, 'data-proc'), PAYGATE_CONSUMER_SECRET: 'secret' };
  const refused = await paygate(['submit', batch('P-REF'), '--env', 'gw-refused'], env);
  assert.equal(refused.code, 4, refused.stderr);
  const dropped = await paygate(['submit', batch('P-DROP'), '--env', 'gw-drop', '--format', 'json'], env);
  assert.equal(dropped.code, 5, dropped.stderr);
  assert.equal(JSON.parse(dropped.stdout).kind, 'connection-lost');
});

test(
  '20 concurrent paygate submit processes leave 20 records; racing copies of one batch send once',
  { timeout: 3 * PROCESS_MS },
  async () => {
    const data = join(dir, 'data-many');
    const env = { PAYGATE_DATA_DIR: data, PAYGATE_CONSUMER_SECRET: 'secret' };
    const files = Array.from({ length: 20 }, (_, i) => batch(`MANY${i}`));
    const before = hits.get('ok') ?? 0;
    const runs = await Promise.all(files.map((f) => paygate(['submit', f, '--env', 'gw-many', '--format', 'json'], env)));
    assert.deepEqual(
      runs.map((r) => r.code),
      files.map(() => 0),
      runs.map((r) => r.stderr).join('\n'),
    );
    const records = await new Ledger(data).list();
    assert.equal(records.length, 20);
    assert.ok(records.every((r) => r.state === 'done' && r.outcome === 'accepted'));
    assert.equal(hits.get('ok'), before + 20);

    const race = batch('RACE');
    const racing = await Promise.all(Array.from({ length: 5 }, () => paygate(['submit', race, '--env', 'gw-race'], env)));
    assert.deepEqual(racing.map((r) => r.code).sort(), [0, 2, 2, 2, 2], racing.map((r) => r.stderr).join('\n'));
    assert.equal(hits.get('ok'), before + 21, 'the batch reached the gateway once');
  },
);
