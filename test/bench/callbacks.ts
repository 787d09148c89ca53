// `npm run bench:callbacks`: the callback listener under load, as ratios to a reference measured in the
// same run (never as timed assertions in tests).
//  1. calls per second through `listen` (masking, control check, one append to the store) against a bare
//     Node server answering 200 on the same machine, both with 50 callers at a time;
//  2. the store at its bound: one append with 10,000 entries kept against one on an empty store (the
//     file is appended to, never rewritten), and the rotation every 10,000 calls;
//  3. reading 10,000 kept calls (what the editor's view and `paygate callbacks list` do once).

import * as fs from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { callbackQuery } from '../../src/core/callbacks';
import { CallbackStore, MAX_STORED_CALLBACKS, startCallbackListener } from '../../src/callback-listener';
import { writeReadmeSection } from './report';

const agent = new http.Agent({ keepAlive: true, maxSockets: 50 });

function post(url: string, body: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method: 'POST', agent, headers: { 'content-type': 'application/x-www-form-urlencoded' } }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    req.end(body);
  });
}

async function callsPerSecond(url: string, n: number): Promise<number> {
  const started = process.hrtime.bigint();
  let next = 0;
  const worker = async () => {
    while (next < n) {
      const i = next++;
      const body = callbackQuery(
        { type: 'sale', status: 'approved', orderid: String(i), client_orderid: `B-${i}`, amount: '1.000', currency: 'EUR' },
        'k',
      );
      if ((await post(url, body)) !== 200) throw new Error('not 200');
    }
  };
  await Promise.all(Array.from({ length: 50 }, worker));
  return n / (Number(process.hrtime.bigint() - started) / 1e9);
}

function ms(fn: () => void): number {
  const t = process.hrtime.bigint();
  fn();
  return Number(process.hrtime.bigint() - t) / 1e6;
}

async function main(): Promise<void> {
  const n = Number(process.env.BENCH_CALLS ?? 5000);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'paygate-bench-cb-'));
  const rows: string[] = [];
  try {
    const bare = http.createServer((req, res) => {
      req.resume();
      req.on('end', () => res.end('OK'));
    });
    bare.listen(0, '127.0.0.1');
    await new Promise((r) => bare.once('listening', r));
    const bareUrl = `http://127.0.0.1:${(bare.address() as AddressInfo).port}/`;
    await callsPerSecond(bareUrl, 500); // warm-up: the first calls of a run pay for the JIT, not the server
    const bareRate = await callsPerSecond(bareUrl, n);
    bare.close();
    const store = new CallbackStore(path.join(dir, 'listen'));
    const l = await startCallbackListener({ store, controlKey: 'k' });
    const listenRate = await callsPerSecond(l.url, n);
    await l.close();
    rows.push(
      `| ${n} calls, 50 at a time | bare Node server ${bareRate.toFixed(0)}/s | \`paygate listen\` ${listenRate.toFixed(0)}/s | ${(listenRate / bareRate).toFixed(2)} |`,
    );
    console.log(
      `1. ${n} calls, 50 at a time: bare server ${bareRate.toFixed(0)}/s, paygate listen ${listenRate.toFixed(0)}/s (ratio ${(listenRate / bareRate).toFixed(2)})`,
    );

    const entry = store.list()[0];
    const empty = new CallbackStore(path.join(dir, 'empty'));
    const full = new CallbackStore(path.join(dir, 'full'));
    for (let i = 0; i < MAX_STORED_CALLBACKS; i++) full.append({ ...entry, id: `cb_${i}` });
    const median = (s: CallbackStore) => {
      const t = Array.from({ length: 200 }, (_, i) => ms(() => s.append({ ...entry, id: `m_${i}` }))).sort((a, b) => a - b);
      return t[100];
    };
    const e = median(empty);
    const f = median(full);
    // `full` holds the bound in its older file plus the 200 appends timed: fill the current file to one
    // short of the bound, and the next append renames it over the older one.
    for (let i = 0; i < MAX_STORED_CALLBACKS - 201; i++) full.append({ ...entry, id: `f_${i}` });
    const rotate = ms(() => full.append({ ...entry, id: 'last' }));
    console.log(
      `2. one append: empty store ${e.toFixed(3)} ms, ${MAX_STORED_CALLBACKS} kept ${f.toFixed(3)} ms (ratio ${(f / e).toFixed(2)}); the rotation every ${MAX_STORED_CALLBACKS} calls ${rotate.toFixed(1)} ms`,
    );
    rows.push(
      `| one append to the store | empty: ${e.toFixed(3)} ms | ${MAX_STORED_CALLBACKS} kept: ${f.toFixed(3)} ms | ${(f / e).toFixed(2)} |`,
    );
    rows.push(`| the rotation (a count and a rename), once per ${MAX_STORED_CALLBACKS} calls | | ${rotate.toFixed(1)} ms | |`);
    const read = ms(() => full.list());
    rows.push(`| reading ${MAX_STORED_CALLBACKS} kept calls (the view, \`callbacks list\`) | | ${read.toFixed(0)} ms | |`);
    writeReadmeSection(
      'callbacks',
      [
        `Callback listener, ${os.cpus().length} cores, Node ${process.version}; \`npm run bench:callbacks\` rewrites this table.`,
        '',
        '| what | reference | measured | ratio |',
        '|---|---|---|---|',
        ...rows,
      ].join('\n'),
    );
    console.log(
      `3. reading ${full.list().length} kept calls: ${read.toFixed(1)} ms (${([full.file, full.previousFile].filter((f) => fs.existsSync(f)).reduce((n, f) => n + fs.statSync(f).size, 0) / 1024 / 1024).toFixed(1)} MiB on disk)`,
    );
  } finally {
    agent.destroy();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

void main();
