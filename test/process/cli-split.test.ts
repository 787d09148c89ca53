import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { once } from 'node:events';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { trustFile } from '../../src/cli/trust';
import { parseCsv } from '../../src/core/csv/parse';
import { ownPayers } from '../fixtures/ledger/payers';
import { ended, type Ended as Run } from '../fixtures/cli/process';
import { paygateArgs } from '../fixtures/cli/bin';

// `paygate split` and sending its parts, as a merchant runs them: real `paygate` processes. The parts are
// written with the header, rows in order (a quoted line break kept inside its row), card numbers never
// printed; a second split refuses to write beside the first; a file that cannot be split is named at its
// line and column. `paygate submit NAME.part-*.rpcsv` sends each part as its own submission; a run that
// stops after part 2 (the gateway gone, or the process killed) and is run again sends only the parts not
// sent: a gateway stand-in on 127.0.0.1 counts every request body it received.

const root = join(__dirname, '..', '..');
const valid = readFileSync(join(root, 'examples', 'valid.rpcsv'), 'utf8');
const SUCCESS = 'type=create-recurring-payment-response&status=active&recurring-payment-id=1&serial-number=s-1';
let dir: string;

/** The gateway stand-in: answers every create as accepted unless `onRequest` takes the request; counts bodies by hash. */
class StandIn {
  readonly bodies = new Map<string, number>();
  onRequest?: (n: number, res: http.ServerResponse) => boolean;
  private server?: http.Server;
  port = 0;

  async start(): Promise<void> {
    const server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const hash = createHash('sha256').update(Buffer.concat(chunks)).digest('hex');
        this.bodies.set(hash, (this.bodies.get(hash) ?? 0) + 1);
        const n = [...this.bodies.values()].reduce((a, b) => a + b, 0);
        if (this.onRequest?.(n, res)) return;
        res.writeHead(200, { 'Content-Type': 'application/x-www-form-urlencoded' }).end(SUCCESS);
      });
    });
    server.listen(this.port, '127.0.0.1');
    await once(server, 'listening');
    this.port = (server.address() as AddressInfo).port;
    this.server = server;
  }

  async stop(): Promise<void> {
    const server = this.server;
    if (!server) return;
    this.server = undefined;
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  }

  get requests(): number {
    return [...this.bodies.values()].reduce((a, b) => a + b, 0);
  }
}

function spawnPaygate(args: string[], data: string): ChildProcess {
  return spawn(process.execPath, [...paygateArgs(), ...args], {
    cwd: dir,
    env: {
      ...process.env,
      PAYGATE_DATA_DIR: join(dir, data),
      PAYGATE_STATE_DIR: join(dir, 'gateway-state'),
      PAYGATE_CONSUMER_SECRET: 'secret',
      XDG_CONFIG_HOME: join(dir, 'config'),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

/** Runs `paygate ARGS` to its end (60 s at most); `started` sees the process first. */
function paygate(args: string[], data = 'data', started?: (child: ChildProcess) => void): Promise<Run> {
  const child = spawnPaygate(args, data);
  started?.(child);
  return ended(child, `paygate ${args.join(' ')}`, 60_000);
}

/** A batch of `n` rows from the example's, each with a client-orderid of its own (the third row's quoted line break kept). */
function bigBatch(name: string, n: number): string {
  const [head, ...rows] = valid.split(/(?<=\r\n)(?=[A-Z]{3}-2027-)/);
  const out = [head];
  // Each row a payer of its own (a card of its own): rows repeating a card and schedule under other ids
  // would be same-payer across parts.
  for (let i = 0; i < n; i++) out.push(ownPayers(rows[i % rows.length].replace(/^[A-Z]{3}-2027-\d+/, `SPL-${name}-${i}`), `${name}-${i}`));
  writeFileSync(join(dir, `${name}.rpcsv`), out.join(''));
  return `${name}.rpcsv`;
}

/** The rows of a file, each as its text (quoted line breaks inside), in order. */
function rowsOf(text: string): string[] {
  const csv = parseCsv(text);
  const out: string[] = [];
  for (let r = 1; r < csv.recordCount; r++) if (!csv.isBlankAt(r)) out.push(text.slice(csv.recordStart(r), csv.record(r).end));
  return out;
}

const standIn = new StandIn();

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'paygate-cli-split-'));
  await standIn.start();
  const environment = {
    name: 'stand-in',
    baseUrl: `http://127.0.0.1:${standIn.port}`,
    reportBaseUrl: `http://127.0.0.1:${standIn.port}`,
    endpointId: '1001',
    consumerKey: 'merchant',
    maxPayloadBytes: 2000,
  };
  const config = join(dir, 'paygate.config.json');
  writeFileSync(config, JSON.stringify({ environments: [environment], environment: 'stand-in', requestTimeoutSeconds: 5 }));
  mkdirSync(join(dir, 'config'), { recursive: true });
  trustFile({ XDG_CONFIG_HOME: join(dir, 'config') }, config, readFileSync(config));
});

after(async () => {
  await standIn.stop();
  rmSync(dir, { recursive: true, force: true });
});

test('paygate split writes the parts within the limit, prints what it wrote without a card number, and never writes over them', async () => {
  const file = bigBatch('march', 10);
  const r = await paygate(['split', file, '--max-bytes', '1200', '--out-dir', 'parts']);
  assert.equal(r.code, 0, r.err);
  const parts = readdirSync(join(dir, 'parts')).sort();
  assert.ok(parts.length >= 3, `${parts.length} parts`);
  assert.deepEqual(
    parts,
    parts.map((_, i) => `march.part-${String(i + 1).padStart(3, '0')}.rpcsv`),
  );
  const texts = parts.map((p) => readFileSync(join(dir, 'parts', p), 'utf8'));
  assert.deepEqual(texts.flatMap(rowsOf), rowsOf(readFileSync(join(dir, file), 'utf8')), "the parts' rows joined are the file's");
  for (const [i, t] of texts.entries()) {
    assert.ok(t.startsWith(valid.slice(0, valid.indexOf('\r\n') + 2)), `part ${i + 1} starts with the header`);
    assert.ok(Buffer.from(t.replace(/\r\n|\r|\n/g, '\r\n'), 'utf8').toString('base64').length <= 1200, `part ${i + 1} within 1200 bytes`);
    assert.equal(statSync(join(dir, 'parts', parts[i])).mode & 0o777, 0o600, 'card data: only the owner reads a part');
    assert.match(r.out, new RegExp(`${parts[i].replace(/\./g, '\\.')}  \\d+ rows? \\(lines \\d+–\\d+\\), payload \\d[\\d,]* bytes`));
  }
  assert.match(r.out, new RegExp(`^march\\.rpcsv: 10 rows in ${parts.length} parts, written to `));
  assert.doesNotMatch(r.out + r.err, /\d{13,19}/, 'no card number printed');

  const again = await paygate(['split', file, '--max-rows', '2', '--out-dir', 'parts']);
  assert.equal(again.code, 2);
  assert.match(again.err, new RegExp(`${parts.length} parts of march\\.rpcsv already in .*nothing was written`));
  assert.deepEqual(readdirSync(join(dir, 'parts')).sort(), parts, 'nothing written beside them');
});

test('paygate split names the line and column of what stops it, and writes nothing', async () => {
  writeFileSync(join(dir, 'broken.rpcsv'), `${valid.slice(0, valid.indexOf('\r\n'))}\r\nB-1;SRC;"never closed\r\n`);
  const quote = await paygate(['split', 'broken.rpcsv', '--max-rows', '1']);
  assert.equal(quote.code, 2);
  assert.match(quote.err, /^paygate split: broken\.rpcsv:2:9: .*quote.*nothing was written/);
  const big = await paygate(['split', bigBatch('wide', 2), '--max-bytes', '300']);
  assert.equal(big.code, 2);
  assert.match(big.err, /wide\.rpcsv:2:1: this row with the header makes a payload of \d+ bytes, over the maximum of 300/);
  const usage = await paygate(['split', 'wide.rpcsv']);
  assert.equal(usage.code, 2);
  assert.match(usage.err, /give one of --max-rows N or --max-bytes N/);
  assert.ok(!readdirSync(dir).some((f) => f.includes('.part-')), 'no part written');
});

test("paygate lint warns batch-too-large over the active environment's maximum (paygate.config.json), not under it", async () => {
  const file = bigBatch('large', 10);
  const r = await paygate(['lint', file, '--format', 'json', '--no-git']);
  const found = (
    JSON.parse(r.out) as { files: { diagnostics: { code: string; message: string; line: number }[] }[] }
  ).files[0].diagnostics.filter((d) => d.code === 'batch-too-large');
  assert.equal(found.length, 1, r.out);
  assert.match(found[0].message, /over the environment's maximum of 2,000.*paygate split --max-bytes 2000/);
  const small = await paygate(['lint', bigBatch('small', 1), '--no-git']);
  assert.doesNotMatch(small.out, /batch-too-large/);
  const local = await paygate(['lint', file, '--env', 'local', '--no-git']);
  assert.doesNotMatch(local.out, /batch-too-large/, "the local gateway's 8 MiB");
});

test('paygate submit refuses a batch over the maximum before anything leaves, naming paygate split; its parts then send', async () => {
  const file = bigBatch('oversized', 10);
  const start = standIn.requests;
  const r = await paygate(['submit', file], 'oversized-data');
  assert.equal(r.code, 2, r.err);
  assert.match(r.err, /over the environment's maximum of 2,000.*paygate split --max-bytes 2000; nothing was sent/);
  assert.equal(standIn.requests, start, 'nothing left');
  mkdirSync(join(dir, 'oversized'));
  assert.equal((await paygate(['split', file, '--max-bytes', '2000', '--out-dir', 'oversized'])).code, 0);
  const parts = readdirSync(join(dir, 'oversized'))
    .sort()
    .map((p) => join('oversized', p));
  assert.ok(parts.length > 1);
  const sent = await paygate(['submit', ...parts], 'oversized-data');
  assert.equal(sent.code, 0, sent.err);
  assert.equal(standIn.requests - start, parts.length, 'each part sent once');
});

/** Splits a 4-row batch into 4 parts in its own folder; the parts' names and the SHA-256 of the body each is sent as. */
async function fourParts(name: string): Promise<string[]> {
  bigBatch(name, 4);
  mkdirSync(join(dir, name));
  const r = await paygate(['split', `${name}.rpcsv`, '--max-rows', '1', '--out-dir', name]);
  assert.equal(r.code, 0, r.err);
  return readdirSync(join(dir, name))
    .sort()
    .map((p) => join(name, p));
}

test('parts: a run stopped after part 2 (the gateway gone) sends, when run again, only parts 3 and 4; each part once', async () => {
  const parts = await fourParts('gone');
  const start = standIn.requests;
  // The gateway goes away once it has answered part 2: part 3 finds no one listening (nothing sent).
  standIn.onRequest = (n, res) => {
    if (n - start !== 2) return false;
    res.on('finish', () => void standIn.stop());
    res.writeHead(200, { 'Content-Type': 'application/x-www-form-urlencoded' }).end(SUCCESS);
    return true;
  };
  const first = await paygate(['submit', ...parts], 'gone-data');
  standIn.onRequest = undefined;
  assert.equal(first.code, 4, first.err);
  assert.match(first.err, /stopped at gone\/gone\.part-003\.rpcsv; the 1 file after it was not sent/);
  assert.equal(standIn.requests - start, 2);
  await standIn.start();
  const again = await paygate(['submit', ...parts], 'gone-data');
  assert.equal(again.code, 0, again.err);
  assert.match(again.out, /gone\.part-001\.rpcsv: already accepted .*; skipped/);
  assert.match(again.out, /gone\.part-002\.rpcsv: already accepted .*; skipped/);
  assert.match(again.out, /4 files: 2 sent and accepted, 2 already accepted before \(skipped\)/);
  assert.equal(standIn.requests - start, 4, 'parts 3 and 4 sent, 1 and 2 not again');
  assert.ok(
    [...standIn.bodies.values()].every((n) => n === 1),
    'no part sent twice',
  );
  const third = await paygate(['submit', ...parts], 'gone-data');
  assert.equal(third.code, 0);
  assert.equal(standIn.requests - start, 4, 'a third run sends nothing');
});

test('parts: a run killed after part 2, as part 3 goes out, is run again: parts 1 and 2 skipped, part 3 refused as possibly sent, nothing twice', async () => {
  const parts = await fourParts('killed');
  const start = standIn.requests;
  let child: ChildProcess | undefined;
  standIn.onRequest = (n) => {
    if (n - start !== 3) return false;
    child!.kill('SIGKILL');
    return true; // never answered: part 3's fate is unknown to the merchant
  };
  const first = await paygate(['submit', ...parts], 'killed-data', (c) => (child = c));
  standIn.onRequest = undefined;
  assert.equal(first.code, null, 'killed');
  assert.equal(standIn.requests - start, 3);
  const again = await paygate(['submit', ...parts], 'killed-data');
  assert.equal(again.code, 2, again.err);
  assert.match(again.out, /killed\.part-001\.rpcsv: already accepted/);
  assert.match(again.out, /killed\.part-002\.rpcsv: already accepted/);
  assert.match(again.err, /killed\.part-003\.rpcsv: the same content was already sent .*interrupted while sending/);
  assert.match(again.err, /stopped at killed\/killed\.part-003\.rpcsv; the 1 file after it was not sent/);
  assert.equal(standIn.requests - start, 3, 'nothing sent by the re-run');
  assert.ok(
    [...standIn.bodies.values()].every((n) => n === 1),
    'no part sent twice',
  );
  // The way on it offers names that one part; a bare --allow-resend sends no accepted part again either
  // (it used to send parts 1 and 2 again).
  assert.match(again.err, /pass --allow-resend killed\/killed\.part-003\.rpcsv to send this part again/);
  const before = new Map(standIn.bodies);
  const bare = await paygate(['submit', ...parts.slice(0, 2), '--allow-resend'], 'killed-data');
  assert.equal(bare.code, 0, bare.err);
  assert.match(bare.out, /killed\.part-001\.rpcsv: already accepted.*skipped/);
  assert.match(bare.out, /killed\.part-002\.rpcsv: already accepted.*skipped/);
  assert.deepEqual(standIn.bodies, before, 'no accepted part sent again');
  const named = await paygate(['submit', ...parts, '--allow-resend', parts[2]], 'killed-data');
  assert.equal(named.code, 0, named.err);
  assert.equal(standIn.requests - start, 5, 'part 3 (chosen) and part 4, nothing else');
  assert.equal([...standIn.bodies.values()].filter((n) => n === 2).length, 1, 'only the part named was sent again');
  const wrong = await paygate(['submit', ...parts, '--allow-resend', 'other.rpcsv'], 'killed-data');
  assert.equal(wrong.code, 2);
  assert.match(wrong.err, /--allow-resend other\.rpcsv: not one of the files given; nothing was sent/);
  assert.equal(standIn.requests - start, 5);
});

test("a killed split's temporary files (card data) are removed by the next split into that folder; a running one's are kept", async () => {
  const name = bigBatch('swept', 2);
  const out = join(dir, 'swept');
  mkdirSync(out);
  // A process that is gone, and one that is running (this test's own parent stands for a split at work).
  const gone = spawn(process.execPath, ['-e', '0']);
  await once(gone, 'exit');
  const hex = 'ab'.repeat(12);
  const dead = `.swept.part-001.rpcsv.${gone.pid}-${hex}.paygate-tmp`;
  const running = `.swept.part-002.rpcsv.${process.pid}-${hex}.paygate-tmp`;
  const old = `.other.part-007.rpcsv.${hex}.paygate-tmp`;
  for (const f of [dead, running, old]) writeFileSync(join(out, f), 'SWP-1;4111111111111111;123\r\n');
  // Without a process id (an earlier version's): taken for a killed split's once a minute old.
  utimesSync(join(out, old), new Date(Date.now() - 120_000), new Date(Date.now() - 120_000));
  const r = await paygate(['split', name, '--max-rows', '1', '--out-dir', 'swept']);
  assert.equal(r.code, 0, r.err);
  assert.deepEqual(readdirSync(out).sort(), [running, 'swept.part-001.rpcsv', 'swept.part-002.rpcsv']);
});
