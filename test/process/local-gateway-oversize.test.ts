// A body over the local gateway's maximum (issue 37, item 8), scaled down: the local gateway reads it to
// its end, discards it and answers the validation error it gives a payload over its maximum (error-code
// 104, nothing created), never closing the connection while the client writes (which the CLI told as
// unknown, EPIPE). `paygate submit` refuses a batch over its environment's maximum before anything leaves,
// so the oversized send is made here by a client of its own (a raw socket, and the product's create client)
// and by `paygate submit` to a local gateway whose maximum is lower than the CLI's idea of it; then
// `paygate split` and `paygate submit NAME.part-*.rpcsv` send every part, accepted, each row created once.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as path from 'node:path';
import { createRecurringPayments } from '../../src/core/gateway';
import { signRequest } from '../../src/core/oauth';
import { PROCESS_MS } from '../fixtures/deadlines';
import { batch, createUrl, formFields, rsaCredentials, tempStateDir, withGateway } from '../fixtures/local-gateway/helpers';
import { ended, type Ended as Run } from '../fixtures/cli/process';
import { paygateArgs } from '../fixtures/cli/bin';

/** `n` valid rows, each its own client-orderid and amount. */
const rows = (tag: string, n: number) =>
  Array.from({ length: n }, (_, i) => ({ 'client-orderid': `${tag}-${i + 1}`, amount: `${10 + i}.00` }));

interface RawAnswer {
  head: string;
  body: string;
  /** Bytes of the answer that came before the whole request was written (none: the body was read first). */
  early: number;
  /** Whether the server closed the connection before the whole request was written. */
  closedEarly: boolean;
}

/**
 * Writes a signed-looking create request of `total` body bytes (Content-Length, or chunked) in 64 KiB
 * pieces, each after the last was taken, and reads the answer; 60 s at most.
 */
function rawCreate(port: number, pathName: string, authorization: string, total: number, chunked: boolean): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    let answer = Buffer.alloc(0);
    let written = false;
    let early = 0;
    let closedEarly = false;
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`no whole answer within 60 s (written: ${written})`));
    }, 60_000);
    const done = () => {
      clearTimeout(timer);
      const text = answer.toString('utf8');
      const split = text.indexOf('\r\n\r\n');
      resolve({ head: text.slice(0, split), body: text.slice(split + 4), early, closedEarly });
      socket.destroy();
    };
    socket.on('data', (d: Buffer) => {
      if (!written) early += d.length;
      answer = Buffer.concat([answer, d]);
      const text = answer.toString('latin1');
      const split = text.indexOf('\r\n\r\n');
      const length = /\r\ncontent-length: (\d+)/i.exec(text.slice(0, split));
      if (split >= 0 && length && answer.length >= split + 4 + Number(length[1])) done();
    });
    socket.on('close', () => {
      if (!written) closedEarly = true;
    });
    socket.on('error', (err) => {
      if (!written) closedEarly = true;
      clearTimeout(timer);
      reject(err);
    });
    const head = [
      `POST ${pathName} HTTP/1.1`,
      `host: 127.0.0.1:${port}`,
      'content-type: application/x-www-form-urlencoded',
      `authorization: ${authorization}`,
      chunked ? 'transfer-encoding: chunked' : `content-length: ${total}`,
    ];
    const piece = Buffer.alloc(64 * 1024, 0x41);
    let sent = 0;
    const writeMore = () => {
      while (sent < total) {
        const n = Math.min(piece.length, total - sent);
        const bytes = sent === 0 ? Buffer.concat([Buffer.from('payload='), piece.subarray(8, n)]) : piece.subarray(0, n);
        sent += n;
        const framed = chunked ? Buffer.concat([Buffer.from(`${n.toString(16)}\r\n`), bytes, Buffer.from('\r\n')]) : bytes;
        if (!socket.write(framed)) return void socket.once('drain', writeMore);
      }
      socket.write(chunked ? '0\r\n\r\n' : '', () => (written = true));
    };
    socket.write(`${head.join('\r\n')}\r\n\r\n`);
    writeMore();
  });
}

test('a body over the maximum is read to its end and answered as a validation error (104), never cut off, by Content-Length or chunked', async () => {
  await withGateway(
    async (gw) => {
      const url = createUrl(gw);
      const { authorization } = signRequest({ method: 'POST', url, form: [['payload', 'x']] }, rsaCredentials(gw));
      for (const chunked of [false, true]) {
        const r = await rawCreate(gw.port, new URL(url).pathname, authorization, 600 * 1024, chunked);
        const how = chunked ? 'chunked' : 'Content-Length';
        assert.equal(r.closedEarly, false, `${how}: the connection stays open while the client writes`);
        assert.equal(r.early, 0, `${how}: no answer before the whole body was read`);
        assert.match(r.head, /^HTTP\/1\.1 200 /, how);
        assert.doesNotMatch(r.head, /\r\nconnection: close/i, `${how}: the body was read, the connection may stay`);
        const fields = formFields(r.body);
        assert.equal(fields.type, 'validation-error', how);
        assert.equal(fields['error-code'], '104', how);
        assert.match(fields['error-message'], /request body of \d+ bytes is larger than the maximum of 524288 bytes; nothing was created/);
      }
      assert.equal(gw.payments().length, 0);
    },
    { maxBodyBytes: 512 * 1024 },
  );
});

test("the product's create client sends an over-maximum batch whole and reads the answer: rejected, nothing created, never unknown", async () => {
  await withGateway(
    async (gw) => {
      const payload = Buffer.from(batch(rows('BIG', 60)), 'utf8').toString('base64');
      assert.ok(payload.length > 8000, `${payload.length} bytes`);
      const o = await createRecurringPayments({ environment: gw.environment, credentials: rsaCredentials(gw), payload, timeoutMs: 60_000 });
      assert.equal(o.outcome, 'validation-error', JSON.stringify(o));
      assert.equal('errorCode' in o ? o.errorCode : undefined, '104');
      assert.equal(gw.payments().length, 0);
      // Under the maximum, the same client and gateway create the payments.
      const small = Buffer.from(batch(rows('SMALL', 2)), 'utf8').toString('base64');
      const ok = await createRecurringPayments({
        environment: gw.environment,
        credentials: rsaCredentials(gw),
        payload: small,
        timeoutMs: 60_000,
      });
      assert.equal(ok.outcome, 'accepted', JSON.stringify(ok));
    },
    { maxBodyBytes: 8000 },
  );
});

/** `paygate ARGS` in `dir`, with its own data, configuration and the local gateway of `stateDir`. */
function paygate(dir: string, stateDir: string, args: string[]): Promise<Run> {
  const child = spawn(process.execPath, [...paygateArgs(), ...args], {
    cwd: dir,
    env: {
      ...process.env,
      PAYGATE_DATA_DIR: path.join(dir, 'data'),
      PAYGATE_STATE_DIR: stateDir,
      XDG_CONFIG_HOME: path.join(dir, 'config'),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return ended(child, `paygate ${args.join(' ')}`, PROCESS_MS);
}

test('paygate submit of a batch over the local gateway maximum: rejected, nothing created; split, then its parts send, each row once', async () => {
  const dir = fs.mkdtempSync(path.join(tempStateDir(), 'cli-'));
  const stateDir = path.join(dir, 'state');
  try {
    // The CLI weighs `local` by the 8 MiB default, so it sends this batch; the local gateway's maximums
    // are lowered (a body of 8,000 bytes, a payload of 6,000) as the 82 MB against 8/16 MiB.
    await withGateway(
      async (gw) => {
        const n = 40;
        fs.writeFileSync(path.join(dir, 'big.rpcsv'), batch(rows('BIG', n)));
        const sent = await paygate(dir, stateDir, ['submit', 'big.rpcsv']);
        assert.equal(sent.code, 1, sent.out + sent.err);
        assert.match(sent.out, /^Rejected \(validation-error, code 104\)/m);
        assert.match(sent.out, /nothing was created/);
        assert.doesNotMatch(sent.out + sent.err, /UNKNOWN|EPIPE/);
        assert.equal(gw.payments().length, 0);

        const lint = await paygate(dir, stateDir, ['lint', 'big.rpcsv', '--format', 'json', '--no-git']);
        assert.doesNotMatch(lint.out, /already-sent/, 'nothing created: no row is already sent');

        fs.mkdirSync(path.join(dir, 'parts'));
        const split = await paygate(dir, stateDir, ['split', 'big.rpcsv', '--max-bytes', '6000', '--out-dir', 'parts']);
        assert.equal(split.code, 0, split.err);
        const parts = fs
          .readdirSync(path.join(dir, 'parts'))
          .sort()
          .map((p) => path.join('parts', p));
        assert.ok(parts.length > 1, `${parts.length} parts`);
        const run = await paygate(dir, stateDir, ['submit', ...parts]);
        assert.equal(run.code, 0, run.out + run.err);
        assert.equal((run.out.match(/^Accepted/gm) ?? []).length, parts.length, run.out);
        const ids = gw.payments().map((p) => p['client-orderid']);
        assert.equal(ids.length, n);
        assert.deepEqual(
          [...new Set(ids)].sort(),
          rows('BIG', n)
            .map((r) => r['client-orderid'])
            .sort(),
          'every row created once',
        );
      },
      { stateDir, maxBodyBytes: 8000, maxPayloadBytes: 6000 },
    );
  } finally {
    fs.rmSync(path.dirname(dir), { recursive: true, force: true });
  }
});
