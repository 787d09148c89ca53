// Bursts of concurrent callbacks forwarded to a plain HTTP/1.1 handler written in another language
// (test/fixtures/callbacks/handler.py: Python's threaded http.server, which closes a connection once asked
// to). Every call of every burst reaches the handler exactly once and its caller gets the handler's
// answer: none is lost as a 502 "socket hang up" on a pooled socket the handler had closed. The listener
// and the handler bind 127.0.0.1; the test stops both; every wait has a deadline and the counts are bounded.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import * as http from 'node:http';
import * as path from 'node:path';
import { startCallbackListener, type CallbackEntry } from '../../src/callback-listener';
import { PROCESS_MS, WAIT_MS } from '../fixtures/deadlines';

const HANDLER = path.join(__dirname, '..', 'fixtures', 'callbacks', 'handler.py');
const BURSTS = 12;
const PER_BURST = 8;

/** The Python handler: its port, and the client-orderids it handled so far (one per line it printed). */
async function pythonHandler() {
  const child = spawn('python3', [HANDLER], { stdio: ['ignore', 'pipe', 'pipe'] });
  const handled: string[] = [];
  let stderr = '';
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  const port = await new Promise<number>((resolve, reject) => {
    let buffered = '';
    const timer = setTimeout(() => reject(new Error(`the Python handler did not start within 20 s: ${stderr}`)), 20_000);
    child.once('exit', (code) => reject(new Error(`the Python handler exited (${code}): ${stderr}`)));
    child.stdout!.setEncoding('utf8');
    child.stdout!.on('data', (d: string) => {
      buffered += d;
      const lines = buffered.split('\n');
      buffered = lines.pop()!;
      for (const line of lines) {
        if (/^\d+$/.test(line)) {
          clearTimeout(timer);
          resolve(Number(line));
        } else if (line.startsWith('handled ')) handled.push(line.slice('handled '.length));
      }
    });
  });
  return { port, handled, stop: () => child.kill('SIGTERM') };
}

function post(url: string, clientOrderId: string): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      url,
      { method: 'POST', agent: false, headers: { 'content-type': 'application/x-www-form-urlencoded' }, timeout: WAIT_MS },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (d: string) => (text += d));
        res.on('end', () => resolve({ status: res.statusCode!, text }));
      },
    );
    req.on('timeout', () => req.destroy(new Error(`no answer for ${clientOrderId} within 30 s`)));
    req.on('error', reject);
    req.end(`status=approved&orderid=1&client-orderid=${clientOrderId}`);
  });
}

test(
  `${BURSTS} bursts of ${PER_BURST} concurrent callbacks forwarded to a Python HTTP/1.1 handler: each reaches it once, none answered 502`,
  { timeout: 2 * PROCESS_MS },
  async () => {
    const py = await pythonHandler();
    const calls: CallbackEntry[] = [];
    const l = await startCallbackListener({ forwardTo: `http://127.0.0.1:${py.port}/hook`, onCall: (e) => calls.push(e) });
    try {
      const answers: { id: string; status: number; text: string }[] = [];
      for (let b = 0; b < BURSTS; b++) {
        const ids = Array.from({ length: PER_BURST }, (_, i) => `B${b}-${i}`);
        const got = await Promise.all(ids.map(async (id) => ({ id, ...(await post(l.url, id)) })));
        for (const a of got) answers.push(a);
      }
      const failed = answers.filter((a) => a.status !== 200 || a.text !== `handled ${a.id}`);
      assert.deepEqual(failed, [], `${failed.length} of ${answers.length} calls were not answered by the handler`);
      assert.deepEqual(
        calls.filter((c) => c.forwarded?.status !== 200).map((c) => c.forwarded),
        [],
      );
      // The handler prints a line after answering: every call is there, once.
      const deadline = Date.now() + WAIT_MS;
      while (py.handled.length < answers.length && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      assert.deepEqual([...py.handled].sort(), answers.map((a) => a.id).sort());
    } finally {
      await l.close();
      py.stop();
    }
  },
);
