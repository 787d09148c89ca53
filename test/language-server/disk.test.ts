// Batches the editor does not pass to the server (over 50 MB in VS Code), checked from disk: the client
// names the file with paygate/batchOnDisk and the server, over stdio, reads it as a stream and publishes
// what a whole-file lint of the same text shows; again when the file changes on disk; nothing once it is
// closed; and a didOpen of the same URI takes over. The files here are about 11 MB (the server cuts them
// into 4 MB pieces); the size that makes VS Code hold a file back is the client's business. Their payload
// (about 15 MB of Base64) is over the default maximum: batch-too-large, as `paygate lint` says it, until
// the client names a larger maximum.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Diagnostic } from 'vscode-languageserver-protocol';
import { DEFAULT_MAX_PAYLOAD_BYTES } from '../../src/core/payload';
import { lint } from '../../src/core/rules/lint';
import { firstLineRange, payloadDiagnostic } from '../../src/core/rules/payloadCheck';
import { publishedDiagnostics } from '../../src/language-server/diagnostics';
import {
  BATCH_ON_DISK_CHECKED_NOTIFICATION,
  BATCH_ON_DISK_NOTIFICATION,
  PAYLOAD_LIMIT_NOTIFICATION,
  type BatchOnDisk,
  type BatchOnDiskChecked,
} from '../../src/shared/lintProtocol';
import { generateBatch } from '../bench/generate';
import { CLI, LANGUAGE_ID, messageText, TestClient } from './client';
import { saidText } from '../../src/core/output';

const DEADLINE_MS = 20_000;

/** A generated batch of `rows` rows with a currency the gateway does not take on the rows given (0-based). */
function batchWith(rows: number, wrong: number[]): string {
  const lines = generateBatch(rows).split('\r\n');
  for (const r of wrong) lines[r + 1] = lines[r + 1].replace(';EUR;', ';E1;');
  return lines.join('\r\n');
}

/**
 * What the editor is shown for a whole-file lint of `text` (the server's "today" is this machine's, as
 * here), and batch-too-large after the rest when the payload is over `max`, as for an open document.
 */
function expected(uri: string, text: string, max = DEFAULT_MAX_PAYLOAD_BYTES): Diagnostic[] {
  const whole = text.replace(/^\uFEFF/, '');
  const { diagnostics } = lint(whole);
  const tooLarge = payloadDiagnostic(whole, max, firstLineRange(whole));
  return JSON.parse(JSON.stringify(publishedDiagnostics(tooLarge ? [...diagnostics, tooLarge] : diagnostics, uri))) as Diagnostic[];
}

/** batch-too-large as `paygate lint` words it for `text` (lint with the maximum). */
function cliTooLarge(text: string): string | undefined {
  const d = lint(text, { maxPayloadBytes: DEFAULT_MAX_PAYLOAD_BYTES }).diagnostics.find((d) => d.code === 'batch-too-large');
  return d && saidText(d.message);
}

describe('batches checked from disk (paygate/batchOnDisk)', () => {
  let client: TestClient;
  let dir: string;
  const checked: BatchOnDiskChecked[] = [];
  const waiters: (() => void)[] = [];

  /** The next check's end for `uri` after the `seen`th one. */
  async function checkOf(uri: string, seen: number): Promise<BatchOnDiskChecked> {
    const deadline = Date.now() + DEADLINE_MS;
    for (;;) {
      const mine = checked.filter((c) => c.uri === uri);
      if (mine.length > seen) return mine[seen];
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`no check of ${uri} ended (${seen} before)`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }
  const lastPublished = (uri: string) => [...client.published].reverse().find((p) => p.uri === uri);
  const notify = (p: BatchOnDisk) => client.connection.sendNotification(BATCH_ON_DISK_NOTIFICATION, p);
  /** A request answered after every notification sent before it has been handled. */
  const roundTrip = () =>
    client.connection.sendRequest('textDocument/hover', { textDocument: { uri: 'file:///none' }, position: { line: 0, character: 0 } });

  before(async () => {
    assert.ok(existsSync(CLI), `${CLI} is built (npm run build)`);
    dir = mkdtempSync(path.join(tmpdir(), 'paygate-disk-'));
    client = new TestClient();
    client.connection.onNotification(BATCH_ON_DISK_CHECKED_NOTIFICATION, (c: BatchOnDiskChecked) => {
      checked.push(c);
      waiters.splice(0).forEach((w) => w());
    });
    await client.initialize({});
  });

  after(async () => {
    const code = await client.stop();
    rmSync(dir, { recursive: true, force: true });
    assert.equal(code, 0, `the server exits cleanly: ${client.stderr}`);
  });

  it('publishes what a whole-file lint shows, then again when the file changes on disk, and clears them when closed', async () => {
    const file = path.join(dir, 'big.rpcsv');
    const uri = pathToFileURL(file).href;
    // 60,000 rows (11 MB): three pieces for the server. Wrong rows in each, and a client-orderid used
    // again 45,000 rows later.
    const lines = batchWith(60_000, [5, 30_000, 59_990]).split('\r\n');
    lines[50_001] = `ORD-0005000${lines[50_001].slice(lines[50_001].indexOf(';'))}`;
    const text = lines.join('\r\n');
    writeFileSync(file, text);
    await notify({ uri, event: 'opened' });
    const first = await checkOf(uri, 0);
    assert.equal(first.rows, 60_000);
    assert.equal(first.problems, 4);
    assert.equal(first.problem, undefined);
    const shown = lastPublished(uri)!;
    assert.equal(shown.version, undefined, 'a file the editor does not pass has no version');
    assert.deepEqual(shown.diagnostics, expected(uri, text));
    assert.ok(shown.diagnostics.some((d) => d.code === 'duplicate-order-id' && /already used on row 5001$/.test(messageText(d))));
    const tooLarge = shown.diagnostics.filter((d) => d.code === 'batch-too-large');
    assert.equal(tooLarge.length, 1, 'weighed from disk: over the 8 MiB default');
    assert.equal(tooLarge[0].message, cliTooLarge(text), 'in the words of paygate lint');
    assert.deepEqual(tooLarge[0].range.start, { line: 0, character: 0 });

    // Saved with a fix of two rows and a new mistake: the next check shows the file as it is now.
    const fixed = batchWith(60_000, [7]);
    writeFileSync(file, fixed);
    await notify({ uri, event: 'changed' });
    const second = await checkOf(uri, 1);
    assert.equal(second.problems, 1);
    assert.deepEqual(lastPublished(uri)!.diagnostics, expected(uri, fixed));
    assert.equal(lastPublished(uri)!.diagnostics[0].range.start.line, 8);

    // A larger maximum (another environment): the file is weighed again, and is no longer too large.
    await client.connection.sendNotification(PAYLOAD_LIMIT_NOTIFICATION, { maxPayloadBytes: 64 * 1024 * 1024 });
    await checkOf(uri, 2);
    assert.deepEqual(lastPublished(uri)!.diagnostics, expected(uri, fixed, 64 * 1024 * 1024));
    assert.ok(!lastPublished(uri)!.diagnostics.some((d) => d.code === 'batch-too-large'));
    await client.connection.sendNotification(PAYLOAD_LIMIT_NOTIFICATION, { maxPayloadBytes: null });

    await notify({ uri, event: 'closed' });
    await roundTrip();
    assert.deepEqual(lastPublished(uri)!.diagnostics, [], 'closed: its problems are cleared');
  });

  it('lets a didOpen of the same file take over, and then leaves its problems alone', async () => {
    const file = path.join(dir, 'synced.rpcsv');
    const uri = pathToFileURL(file).href;
    const text = batchWith(200, [3]);
    writeFileSync(file, text);
    await notify({ uri, event: 'opened' });
    await checkOf(uri, 0);
    await client.connection.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: LANGUAGE_ID, version: 1, text } });
    await client.diagnostics(uri, 'the synced document', (p) => p.version === 1);
    await notify({ uri, event: 'changed' });
    await notify({ uri, event: 'closed' });
    await roundTrip();
    const last = lastPublished(uri)!;
    assert.equal(last.version, 1, "the synced document's problems stay");
    assert.equal(last.diagnostics.length, 1);
    assert.equal(checked.filter((c) => c.uri === uri).length, 1, 'no second check from disk');
  });

  it('says when the file cannot be read, and shows no problems for it', async () => {
    const uri = pathToFileURL(path.join(dir, 'gone.rpcsv')).href;
    await notify({ uri, event: 'opened' });
    const result = await checkOf(uri, 0);
    assert.match(result.problem ?? '', /^gone\.rpcsv could not be read: .*no such file/);
    assert.deepEqual(lastPublished(uri)!.diagnostics, []);
  });
});
