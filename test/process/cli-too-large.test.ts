import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { trustFile } from '../../src/cli/trust';
import { PROCESS_MS } from '../fixtures/deadlines';
import { ownPayers } from '../fixtures/ledger/payers';
import { ended, type Ended as Run } from '../fixtures/cli/process';
import { paygateArgs } from '../fixtures/cli/bin';

// HTTP 413 from something in front of the gateway (issue 37, item 8): a proxy whose body limit is under the
// environment's maxPayloadBytes answers 413 (text/plain, or nginx's HTML page) after reading the request.
// `paygate submit` tells it as "Rejected as too large", the ledger records `too-large`, nothing holds the
// batch back (lint shows no already-sent, the same file is sent again when asked), and `paygate split` then
// `paygate submit NAME.part-*.rpcsv` sends every part. Real `paygate` processes; the stand-in counts bodies.

const root = join(__dirname, '..', '..');
const valid = readFileSync(join(root, 'examples', 'valid.rpcsv'), 'utf8');
const SUCCESS = 'type=create-recurring-payment-response&status=active&recurring-payment-id=1&serial-number=s-1';
/** The proxy's limit on a request body, in bytes. */
const PROXY_LIMIT = 3000;
const NGINX_413 =
  '<html>\r\n<head><title>413 Request Entity Too Large</title></head>\r\n<body>\r\n<center><h1>413 Request Entity Too Large</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n';
let dir: string;
let server: http.Server;
let port = 0;
/** Bodies the gateway behind the proxy received (under its limit), and 413s the proxy gave. */
let passed = 0;
let refused = 0;
let html = false;

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'paygate-cli-too-large-'));
  server = http.createServer((req, res) => {
    let size = 0;
    req.on('data', (c: Buffer) => (size += c.length));
    req.on('end', () => {
      if (size > PROXY_LIMIT) {
        refused++;
        if (html) res.writeHead(413, { 'Content-Type': 'text/html', Server: 'nginx' }).end(NGINX_413);
        else res.writeHead(413, { 'Content-Type': 'text/plain' }).end('Request body too large\n');
        return;
      }
      passed++;
      res.writeHead(200, { 'Content-Type': 'application/x-www-form-urlencoded' }).end(SUCCESS);
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  port = (server.address() as AddressInfo).port;
  const environment = {
    name: 'behind-proxy',
    baseUrl: `http://127.0.0.1:${port}`,
    reportBaseUrl: `http://127.0.0.1:${port}`,
    endpointId: '1001',
    consumerKey: 'merchant',
    maxPayloadBytes: 1_000_000,
  };
  const config = join(dir, 'paygate.config.json');
  writeFileSync(config, JSON.stringify({ environments: [environment], environment: 'behind-proxy', requestTimeoutSeconds: 30 }));
  mkdirSync(join(dir, 'config'), { recursive: true });
  trustFile({ XDG_CONFIG_HOME: join(dir, 'config') }, config, readFileSync(config));
});

after(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
  rmSync(dir, { recursive: true, force: true });
});

function paygate(args: string[]): Promise<Run> {
  const child = spawn(process.execPath, [...paygateArgs(), ...args], {
    cwd: dir,
    env: {
      ...process.env,
      PAYGATE_DATA_DIR: join(dir, 'data'),
      PAYGATE_STATE_DIR: join(dir, 'gateway-state'),
      PAYGATE_CONSUMER_SECRET: 'secret',
      XDG_CONFIG_HOME: join(dir, 'config'),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return ended(child, `paygate ${args.join(' ')}`, PROCESS_MS);
}

/** A batch of `n` rows from the example's, each with a client-orderid of its own. */
function bigBatch(name: string, n: number): string {
  const [head, ...rows] = valid.split(/(?<=\r\n)(?=[A-Z]{3}-2027-)/);
  const out = [head];
  // Each row a payer of its own too: rows repeating a card and schedule under other ids would be same-payer across parts.
  for (let i = 0; i < n; i++) out.push(ownPayers(rows[i % rows.length].replace(/^[A-Z]{3}-2027-\d+/, `TL-${name}-${i}`), `${name}-${i}`));
  writeFileSync(join(dir, `${name}.rpcsv`), out.join(''));
  return `${name}.rpcsv`;
}

test('a 413 (text/plain, then an HTML page) is rejected, nothing created: never blocks the file, its rows or its parts', async () => {
  const file = bigBatch('monthly', 12);
  const first = await paygate(['submit', file]);
  assert.equal(first.code, 1, first.out + first.err);
  assert.match(first.out, /^Rejected as too large \(HTTP 413\): monthly\.rpcsv/m);
  assert.match(first.out, /nothing was created/);
  assert.equal(refused, 1);

  const history = await paygate(['history', '--limit', '1']);
  assert.match(history.out, /too-large/, history.out);
  const lint = await paygate(['lint', file, '--format', 'json', '--no-git']);
  assert.doesNotMatch(lint.out, /already-sent/, 'nothing was created: no row counts as sent');

  // The same file again is sent (not refused as possibly sent); a proxy's HTML page is the same outcome.
  html = true;
  const again = await paygate(['submit', file, '--format', 'json']);
  assert.equal(again.code, 1, again.out + again.err);
  assert.equal((JSON.parse(again.out) as { outcome: string }).outcome, 'too-large');
  assert.equal(refused, 2, 'sent again');

  mkdirSync(join(dir, 'parts'));
  const split = await paygate(['split', file, '--max-bytes', '2000', '--out-dir', 'parts']);
  assert.equal(split.code, 0, split.err);
  const parts = readdirSync(join(dir, 'parts'))
    .sort()
    .map((p) => join('parts', p));
  assert.ok(parts.length > 1, `${parts.length} parts`);
  const sent = await paygate(['submit', ...parts]);
  assert.equal(sent.code, 0, sent.out + sent.err);
  assert.equal(passed, parts.length, 'each part sent once, none held back by the 413s');
});
