// Every `paygate` command line quoted in README.md and docs/*.md, run as a user would paste it, against
// the local gateway of a temporary state directory (127.0.0.1 only), so that a quoted command that fails
// fails the suite. The conventions the documents follow (CONTRIBUTING.md, "Commands in the docs"):
// - in a fenced block marked `sh` (or `bash`, `shell`), every `paygate …` line is run, in order (other
//   lines, such as curl or a tunnel, are not: they are not ours); in a `console` transcript, every
//   `$ paygate …` line;
// - in any other fenced block, a `paygate` line is a synopsis when it shows a placeholder (FILE,
//   [options], <…>, N, PORT) and a message when it reads `paygate lint: …`; any other is a command, and
//   is run;
// - a line meant to fail says so in its comment, `# exit N`, and must exit with N; every other line must
//   exit 0;
// - `paygate gateway` and `paygate listen` (without --advance) run until stopped: each is started, must say
//   it is ready, a listener must pass one callback on to the handler, and each must stop cleanly (exit 0)
//   on SIGTERM at the end of its document.
// Each document runs in its own scratch folder (the examples, and the files the documents name) with its
// own state, ledger and configuration directories. Addresses that only make sense on the reader's machine
// are pointed at the test's own: the handler `127.0.0.1:3000` at a handler this test runs, the listener's
// `--port 4567` at any free port, and a callback id written `cb_…` at the newest one the listener kept.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { callbackQuery } from '../../src/core/callbacks';
import { paygateArgs } from '../fixtures/cli/bin';
import { ownPayers } from '../fixtures/ledger/payers';

const root = path.join(__dirname, '..', '..');
const DOCS = ['README.md', ...fs.readdirSync(path.join(root, 'docs')).map((f) => `docs/${f}`)].filter((f) => f.endsWith('.md'));
const COMMAND_MS = 60_000;
const SERVERS = /^paygate (gateway(?!.*--advance)|listen)\b/;

interface Quoted {
  file: string;
  line: number;
  command: string;
  exit: number;
}

/** The documents' command lines, in order. */
export function quotedCommands(file: string, text: string): Quoted[] {
  const commands: Quoted[] = [];
  let fence: string | undefined;
  text.split('\n').forEach((raw, i) => {
    const open = /^\s*```(\S*)/.exec(raw);
    if (open) {
      fence = fence === undefined ? open[1] : undefined;
      return;
    }
    if (fence === undefined) return;
    const line = raw.trim();
    if (['sh', 'bash', 'shell'].includes(fence) && /^paygate\b/.test(line)) commands.push(command(file, i + 1, line));
    else if (fence === 'console' && /^\$ paygate\b/.test(line)) commands.push(command(file, i + 1, line.slice(2)));
    else if (fence !== 'console' && /^(\$ )?paygate\b/.test(line) && !isSynopsis(line.replace(/^\$ /, '')))
      commands.push(command(file, i + 1, line.replace(/^\$ /, '')));
  });
  return commands;
}

function command(file: string, line: number, text: string): Quoted {
  const exit = /#.*\bexit (\d)\b/.exec(text);
  return { file, line, command: text, exit: exit ? Number(exit[1]) : 0 };
}

/** A usage line (a placeholder in it) or a message that names the command (`paygate lint: …`). */
function isSynopsis(line: string): boolean {
  const code = line.replace(/\s+#.*$/, '');
  return /^paygate [\w -]*:|^paygate:/.test(code) || /[[<]|\.\.\.|\b[A-Z][A-Z_]+\b|\bN\b/.test(code);
}

/** A scratch folder as a reader has it: the examples, and the files the documents name. */
function workspace(dir: string): void {
  const examples = path.join(root, 'examples');
  fs.cpSync(examples, path.join(dir, 'examples'), { recursive: true });
  for (const f of fs.readdirSync(examples)) fs.copyFileSync(path.join(examples, f), path.join(dir, f));
  // Each a batch of its own (other client-orderids and cards), as a reader's would be: sending one is not a
  // resend of another, nor the same payers under other ids (same-payer). try.rpcsv is the one README's first minute shows.
  const valid = fs.readFileSync(path.join(examples, 'valid.rpcsv'), 'utf8');
  for (const [name, prefix] of [
    ['batch.rpcsv', 'B'],
    ['batch.csv', 'C'],
  ])
    fs.writeFileSync(path.join(dir, name), ownPayers(valid.replace(/^([A-Z]+)-2027-/gm, `${prefix}$1-2027-`), prefix));
  fs.writeFileSync(path.join(dir, 'try.rpcsv'), firstMinuteBatch());
  // docs/limits.md's file over the size limit: sparse, so it takes no disk.
  fs.closeSync(fs.openSync(path.join(dir, 'huge.rpcsv'), 'w'));
  fs.truncateSync(path.join(dir, 'huge.rpcsv'), 734_003_200);
}

/** The batch README's first minute asks the reader to save as try.rpcsv: the block after those words. */
function firstMinuteBatch(): string {
  const readme = fs.readFileSync(path.join(root, 'README.md'), 'utf8');
  const block = /Save this as `try\.rpcsv`[^`]*```\n([\s\S]*?)```/.exec(readme.replace(/^ {3}/gm, ''));
  assert.ok(block, 'README shows the try.rpcsv batch');
  return block[1];
}

interface Context {
  dir: string;
  env: NodeJS.ProcessEnv;
  handler: string;
  servers: { name: string; child: ChildProcess; exit: Promise<number | null> }[];
}

function localise(c: Context, text: string): string {
  return text
    .replace(/127\.0\.0\.1:3000\b/g, c.handler)
    .replace(/--port 4567\b/g, '--port 0')
    .replace(/\bcb_\S*…/g, () => newestCallbackId(c));
}

function newestCallbackId(c: Context): string {
  const file = path.join(c.env.PAYGATE_STATE_DIR ?? '', 'callbacks.jsonl');
  const lines = fs.existsSync(file) ? fs.readFileSync(file, 'utf8').trim().split('\n') : [];
  const last = lines.at(-1);
  return last ? (JSON.parse(last) as { id: string }).id : 'cb_none_kept';
}

function run(c: Context, text: string): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve) => {
    const child = spawn('/bin/sh', ['-c', text], { cwd: c.dir, env: c.env, stdio: ['ignore', 'pipe', 'pipe'], timeout: COMMAND_MS });
    let out = '';
    child.stdout.on('data', (b: Buffer) => (out += b.toString()));
    child.stderr.on('data', (b: Buffer) => (out += b.toString()));
    child.on('close', (code) => resolve({ code, out }));
  });
}

/** Starts a server command and waits (bounded) for the line that says it is ready; returns its output so far. */
async function startServer(c: Context, text: string): Promise<string> {
  const child = spawn('/bin/sh', ['-c', `exec ${text.replace(/\s+#.*$/, '').replace(/&\s*$/, '')}`], {
    cwd: c.dir,
    env: c.env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exit = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
  c.servers.push({ name: text, child, exit });
  let out = '';
  const ready = /^paygate gateway/.test(text) ? /admin token:/ : /listening on (http:\/\/\S+)/;
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`not ready within ${COMMAND_MS} ms: ${out}`)), COMMAND_MS);
    const look = (b: Buffer) => {
      out += b.toString();
      if (!ready.test(out)) return;
      clearTimeout(timer);
      resolve();
    };
    child.stdout?.on('data', look);
    child.stderr?.on('data', look);
    void exit.then((code) => (clearTimeout(timer), reject(new Error(`exited ${code} before it was ready: ${out}`))));
  });
  return out;
}

/** A listener is proven by passing one callback on to the handler. */
async function callListener(out: string): Promise<number> {
  const url = /listening on (http:\/\/\S+)/.exec(out)?.[1] ?? '';
  const body = callbackQuery({
    type: 'sale',
    status: 'approved',
    orderid: '1',
    client_orderid: 'DOCS-1',
    amount: '1.000',
    currency: 'EUR',
  });
  const r = await fetch(`${url}paygate/notify`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body,
    signal: AbortSignal.timeout(COMMAND_MS),
  });
  await r.arrayBuffer();
  return r.status;
}

async function stopServers(c: Context): Promise<string[]> {
  const bad: string[] = [];
  for (const s of c.servers) {
    s.child.kill('SIGTERM');
    // The bound's timer is cleared once the server ended: left pending, it kept this file's process alive
    // for a minute after its last test.
    let timer: ReturnType<typeof setTimeout> | undefined;
    const hung = new Promise<'hung'>((r) => (timer = setTimeout(() => r('hung'), COMMAND_MS)));
    const code = await Promise.race([s.exit, hung]).finally(() => clearTimeout(timer));
    if (code === 'hung') s.child.kill('SIGKILL');
    if (code !== 0) bad.push(`${s.name}: stopped with ${code}`);
  }
  return bad;
}

async function withHandler<T>(fn: (address: string) => Promise<T>): Promise<T> {
  const server = http.createServer((req, res) => req.resume().on('end', () => res.end('handled')));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  try {
    return await fn(`127.0.0.1:${(server.address() as AddressInfo).port}`);
  } finally {
    await new Promise<void>((r) => (server.close(() => r()), server.closeAllConnections()));
  }
}

function scratchEnv(dir: string, bin: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, PATH: `${bin}${path.delimiter}${process.env.PATH ?? ''}`, HOME: path.join(dir, 'home') };
  for (const k of Object.keys(env)) if (k.startsWith('PAYGATE_') || k.startsWith('XDG_')) delete env[k];
  return {
    ...env,
    PAYGATE_STATE_DIR: path.join(dir, 'state', 'gateway'),
    PAYGATE_DATA_DIR: path.join(dir, 'data'),
    XDG_CONFIG_HOME: path.join(dir, 'config'),
    XDG_STATE_HOME: path.join(dir, 'state'),
    XDG_DATA_HOME: path.join(dir, 'data'),
  };
}

for (const file of DOCS) {
  const commands = quotedCommands(file, fs.readFileSync(path.join(root, file), 'utf8'));
  if (commands.length === 0) continue;
  test(
    `${file}: its ${commands.length} quoted paygate command line(s) run as documented`,
    { timeout: commands.length * COMMAND_MS * 2 },
    async () => {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'paygate-docs-'));
      const bin = path.join(dir, 'bin');
      fs.mkdirSync(bin);
      const argv = [process.execPath, ...paygateArgs()].map((a) => `"${a}"`).join(' ');
      fs.writeFileSync(path.join(bin, 'paygate'), `#!/bin/sh\nexec ${argv} "$@"\n`, {
        mode: 0o755,
      });
      const cwd = path.join(dir, 'work');
      fs.mkdirSync(cwd);
      workspace(cwd);
      const failures: string[] = [];
      await withHandler(async (handler) => {
        const c: Context = { dir: cwd, env: scratchEnv(dir, bin), handler, servers: [] };
        try {
          for (const q of commands) {
            const text = localise(c, q.command);
            const where = `${q.file}:${q.line}: ${q.command}`;
            if (SERVERS.test(text)) {
              const out = await startServer(c, text).catch((err: Error) => (failures.push(`${where}: ${err.message}`), undefined));
              if (out !== undefined && /^paygate listen/.test(text)) {
                const status = await callListener(out);
                if (status !== 200) failures.push(`${where}: the listener answered a callback ${status}`);
              }
              continue;
            }
            const r = await run(c, text);
            if (r.code !== q.exit) failures.push(`${where}: exit ${r.code}, documented ${q.exit}\n${r.out.slice(0, 600)}`);
          }
        } finally {
          for (const bad of await stopServers(c)) failures.push(bad);
        }
      });
      fs.rmSync(dir, { recursive: true, force: true });
      assert.deepEqual(failures, []);
    },
  );
}
