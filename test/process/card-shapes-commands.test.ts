// Card numbers in any script and separator, through every command and format (issue 38): the unit-level
// generator (test/fixtures/cardShapes.ts) feeds batches, a report, a ledger record and callbacks, and
// lint, schedule, diff, reconcile, query, report, history, listen and forecast print them in each of their --format
// values, as the process runs them (through the CLI's floor) and without that floor. No output may hold a
// generated card number whole as a person reads it (digits folded, separators and escapes left out,
// percent-decoded); each command must show at least one masked (first 6 … last 4), so the values did
// reach it. The ledger record's content hash comes out of `paygate history` whole. Bounded: a few
// generated runs, every server on 127.0.0.1, every wait with a deadline.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { once } from 'node:events';
import * as http from 'node:http';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { plainBatch, plainRow, quoted } from '../fixtures/hostile/plainBatch';
import type { CommandUnknownOpts, Option } from '@commander-js/extra-typings';
import { contentHash } from '../../src/core/contentHash';
import { formatGatewayDate } from '../../src/core/dates';
import { withoutSeparators } from '../../src/core/output/cardNumbers';
import { startLocalGateway, type LocalGateway } from '../../src/local-gateway';
import { loadCommandBuilders, paygate, runPaygate } from '../../src/cli/program';
import { trustFile } from '../../src/cli/trust';
import { testContext } from '../fixtures/cli/context';
import { asRead, REPORT_COLUMNS } from '../fixtures/hostile/corpus';
import { SEPARATORS, writtenCard } from '../fixtures/cardShapes';
import { WAIT_MS } from '../fixtures/deadlines';

const ROOT = join(__dirname, '..', '..');
const RUNS = 3;

let dir: string;
let gw: LocalGateway;
let stand: http.Server;
let reportCsv = '';
let formats: Map<string, string[]>;
const at = (name: string) => join(dir, name);

before(async () => {
  const cmds = (await loadCommandBuilders()).map((build) => build(testContext()));
  formats = new Map(cmds.map((c) => [c.name(), formatsOf(c)]));
  dir = mkdtempSync(join(tmpdir(), 'paygate-card-shapes-'));
  gw = await startLocalGateway({ stateDir: at('state'), port: 0 });
  // A stand-in gateway answering every report request with this run's report.
  stand = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => res.writeHead(200, { 'Content-Type': 'text/csv; charset=utf-8' }).end(reportCsv));
  });
  stand.listen(0, '127.0.0.1');
  await once(stand, 'listening');
  const origin = `http://127.0.0.1:${(stand.address() as AddressInfo).port}`;
  const environments = [
    { name: 'stand', baseUrl: `${origin}/paynet`, reportBaseUrl: `${origin}/report`, endpointId: '1', consumerKey: 'm' },
  ];
  writeFileSync(at('paygate.config.json'), JSON.stringify({ environments, environment: 'stand', requestTimeoutSeconds: 5 }));
  trustFile({ XDG_CONFIG_HOME: at('config') }, at('paygate.config.json'), readFileSync(at('paygate.config.json')));
  cpSync(join(ROOT, 'examples', 'transactions.report.json'), at('transactions.report.json'));
});

after(async () => {
  await gw.close();
  stand.closeAllConnections();
  await new Promise((r) => stand.close(r));
  rmSync(dir, { recursive: true, force: true });
});

/** The values of a command's --format option (commander keeps the choices), or none. */
function formatsOf(cmd: CommandUnknownOpts): string[] {
  const all = [cmd, ...cmd.commands];
  return [...new Set(all.flatMap((c) => (c.options as readonly Option[]).find((o) => o.long === '--format')?.argChoices ?? []))];
}

interface Run {
  args: string[];
  /** For `paygate listen`: what to send once it listens. */
  during?: (stdout: () => string) => Promise<void>;
}

/** Writes this run's inputs; the runs of each command, by name. */
function inputs(w: readonly string[], start: string): Record<string, (f: string) => Run[]> {
  const iso = start.split('.').reverse().join('-');
  writeFileSync(
    at('b.rpcsv'),
    plainBatch([
      plainRow(`O-${w[0]}`, start, '12.50', { card: '5555555555554444', desc: `paid with ${w[1]}` }),
      plainRow(w[2], start, '3.00', { card: '4242424242424242', desc: `${w[3]} x` }),
    ]),
  );
  writeFileSync(
    at('other.rpcsv'),
    plainBatch([
      plainRow(`O-${w[0]}`, start, '13.50', { card: '5555555555554444', desc: 'changed' }),
      plainRow(`N-${w[1]}`, start, '1.00', { card: '4242424242424242', desc: 'new' }),
    ]),
  );
  // A batch lint refuses, quoting its values: card numbers written with separators in the card column.
  writeFileSync(
    at('broken.rpcsv'),
    plainBatch([plainRow(`O-${w[3]}`, start, '12.50', { card: w[1], desc: w[0] }), plainRow('B', start, 'x', { card: w[3], desc: w[2] })]),
  );
  reportCsv =
    [
      REPORT_COLUMNS,
      ...[`O-${w[0]}`, w[2]].map((id, i) => [
        'Demo',
        w[(i + 1) % 4],
        id,
        `${iso} 09:00:0${i}`,
        '12.50',
        'EUR',
        'Sale approved',
        `${w[3]} / ${w[i]}`,
        start,
        '',
        '',
      ]),
    ]
      .map((r) => r.map(quoted).join(','))
      .join('\r\n') + '\r\n';
  writeFileSync(at('report.csv'), reportCsv);
  const config = ['--config', 'paygate.config.json', '--env', 'stand'];
  return {
    lint: (f) => ['b.rpcsv', 'broken.rpcsv'].map((file) => ({ args: ['lint', file, '--format', f, '--no-git'] })),
    schedule: (f) => ['b.rpcsv', 'broken.rpcsv'].map((file) => ({ args: ['schedule', file, '--format', f, '--today', start] })),
    diff: (f) => [{ args: ['diff', 'b.rpcsv', '--against', 'other.rpcsv', '--format', f] }],
    // Its values are the batch's dates and amounts and lint's reasons for skipping a row (no card reaches it whole).
    forecast: (f) => ['b.rpcsv', 'broken.rpcsv'].map((file) => ({ args: ['forecast', file, '--format', f, '--from', start] })),
    reconcile: (f) => [{ args: ['reconcile', 'b.rpcsv', '--report', 'report.csv', '--format', f] }],
    query: (f) => [
      { args: ['query', 'report.csv', '--group-by', 'Order_description,Merchant_OID,Transaction_id', '--sum', 'Amount', '--format', f] },
    ],
    report: (f) => [{ args: ['report', 'transactions.report.json', ...config, '--format', f] }],
    history: (f) => [{ args: ['history', '--format', f] }],
    listen: (f) => [
      {
        args: ['listen', '--port', '0', '--state', 'listen-state', '--format', f],
        during: async (stdout) => {
          const url = (await address(stdout)).replace(/\/$/, '');
          const form = new URLSearchParams({ status: 'approved', 'client-orderid': `O-${w[0]}`, comment: w[1] }).toString();
          await post(`${url}/cb?note=${encodeURIComponent(w[2])}`, 'application/x-www-form-urlencoded', form);
          await post(`${url}/cb`, 'application/json', JSON.stringify({ status: 'approved', note: w[3] }));
        },
      },
    ],
  };
}

async function post(url: string, type: string, body: string): Promise<void> {
  const res = await fetch(url, { method: 'POST', headers: { 'Content-Type': type }, body, signal: AbortSignal.timeout(WAIT_MS) });
  await res.arrayBuffer();
}

/** Waits until `paygate listen` says where it listens. */
async function address(stdout: () => string): Promise<string> {
  const deadline = Date.now() + WAIT_MS;
  for (let i = 0; Date.now() < deadline && i < 10_000; i++) {
    const m = /listening on (\S+)/.exec(stdout());
    if (m) return m[1];
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`no address in ${stdout()}`);
}

/** One command run in process, through the floor or without it; standard output and error together. */
async function drive(run: Run, floor: boolean): Promise<string> {
  let out = '';
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
    stderr: (t) => void (out += t),
    stopped: () => stopped,
  });
  const started = floor ? runPaygate(run.args, ctx) : (await paygate(ctx)).parseAsync(run.args, { from: 'user' }).catch(() => undefined);
  if (run.during) {
    await run.during(() => out);
    stop('SIGTERM');
  }
  await Promise.race([
    started,
    new Promise((_, reject) => setTimeout(() => reject(new Error(`${run.args.join(' ')}: no end`)), WAIT_MS).unref()),
  ]);
  return out;
}

/** The output as a person reads it, folded: digits as ASCII, separators (raw or escaped) and percent-encoding gone. */
const folded = (text: string) => withoutSeparators(asRead(text));

test('property: card numbers in any script and separator never leave whole, through every command and format', async () => {
  const shown = new Map<string, number>();
  // A file name cannot hold a slash: the ledger's record is named with a card written without one.
  const noSlash = Object.values(SEPARATORS).filter((s) => s !== '/');
  await fc.assert(
    fc.asyncProperty(fc.array(writtenCard(), { minLength: 4, maxLength: 4 }), writtenCard(noSlash), async (cards, named) => {
      const start = formatGatewayDate(gw.today());
      const recipes = inputs(
        cards.map((c) => c.text),
        start,
      );
      // A ledger record whose file is named with a card number, sent to the local gateway.
      const file = `sent ${named.text}.rpcsv`;
      // A payer of its own each run (its card), or the guard refuses it as already sent.
      const sent = plainBatch([plainRow(`S-${cards[0].pan.slice(0, 4)}-${Date.now()}`, start, '1.00', { card: named.pan })]);
      writeFileSync(at(file), sent);
      const submitted = await drive({ args: ['submit', file, '--env', 'local', '--base-url', gw.baseUrl, '--allow-resend'] }, true);
      // Its content hash (64 hex, digits and letters) comes out whole in both formats: a merchant quotes it.
      for (const f of formats.get('history') ?? [])
        assert.ok((await drive({ args: ['history', '--format', f] }, true)).includes(contentHash(sent)), `${f}: ${submitted}`);
      const pans = [...cards.map((c) => c.pan), named.pan];
      const problems: string[] = [];
      for (const [name, recipe] of Object.entries(recipes)) {
        for (const f of formats.get(name) ?? ['text']) {
          for (const run of recipe(f)) {
            for (const floor of [true, false]) {
              const seen = folded(await drive(run, floor));
              for (const pan of pans) {
                if (new RegExp(`(?<!\\d)${pan}(?!\\d)`).test(seen))
                  problems.push(`${run.args.join(' ')} (${floor ? 'floor' : 'no floor'}): ${pan} whole`);
                if (new RegExp(`${pan.slice(0, 6)}\\*+${pan.slice(-4)}`).test(seen)) shown.set(name, (shown.get(name) ?? 0) + 1);
              }
            }
          }
        }
      }
      assert.deepEqual(problems, [], problems.join('\n'));
    }),
    { numRuns: RUNS, endOnFailure: true },
  );
  for (const name of ['lint', 'schedule', 'diff', 'reconcile', 'query', 'report', 'history', 'listen'])
    assert.ok((shown.get(name) ?? 0) > 0, `${name}: no generated card number reached its output (masked)`);
});

test('paygate diff --format json writes through the boundary: no raw bidi control or line separator, even without the floor', async () => {
  const start = formatGatewayDate(gw.today());
  writeFileSync(at('d1.rpcsv'), plainBatch([plainRow('O-\u202eevil\u2028x', start, '1.00', { card: '5555555555554444', desc: 'a' })]));
  writeFileSync(at('d2.rpcsv'), plainBatch([plainRow('O-\u202eevil\u2028x', start, '2.00', { card: '5555555555554444', desc: 'b' })]));
  const out = await drive({ args: ['diff', 'd1.rpcsv', '--against', 'd2.rpcsv', '--format', 'json'] }, false);
  assert.match(out, /"changed":\[\{"client-orderid":"O-\\u202eevil\\u2028x"/);
  assert.doesNotMatch(out, /[\u202e\u2028]/);
});
