import { test } from 'node:test';
import assert from 'node:assert/strict';
import Module from 'node:module';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type * as Stream from '../../src/extension/results/stream';

// A report's file reaches the table and the reconciliation in its template's encoding (reportEncode):
// results/stream.ts decodes it piece by piece, a character cut between two pieces included, against a fake
// of the one part of the vscode API it reads (the open documents: none here).

const fakeVscode = { workspace: { textDocuments: [] } };
const resolve = (Module as unknown as { _resolveFilename: (r: string, ...rest: unknown[]) => string })._resolveFilename;
(Module as unknown as { _resolveFilename: unknown })._resolveFilename = function (request: string, ...rest: unknown[]) {
  return request === 'vscode' ? 'vscode' : resolve.apply(this, [request, ...rest]);
};
require.cache.vscode = { id: 'vscode', filename: 'vscode', loaded: true, exports: fakeVscode } as unknown as NodeJS.Module;
/* eslint-disable @typescript-eslint/no-require-imports -- after the fake is in place */
const { streamUri, streamUriBytes } = require('../../src/extension/results/stream') as typeof Stream;
/* eslint-enable @typescript-eslint/no-require-imports */

const fileUri = (fsPath: string) => ({ scheme: 'file', fsPath, toString: () => `file://${fsPath}` }) as never;

async function all<T>(pieces: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const p of pieces) out.push(p);
  return out;
}

test('a windows-1252 report is decoded for the page and the reconciliation; a UTF-8 one passes as its bytes', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'paygate-stream-'));
  try {
    // Over 1 MiB, so the pieces are cut inside the text; "ü" and "€" are one byte each in windows-1252.
    const row = 'Müller;12,50 €;Zürich\r\n';
    const text = `Name;Amount;City\r\n${row.repeat(60_000)}`;
    const latin = join(dir, 'report-1252.csv');
    writeFileSync(latin, Buffer.from([...text].map((c) => (c === '€' ? 0x80 : c.charCodeAt(0)))));
    const bytes = await all(streamUriBytes(fileUri(latin), 'windows-1252'));
    assert.ok(bytes.length > 1, 'read in pieces');
    assert.ok(
      bytes.every((b) => b.constructor === Uint8Array),
      'plain Uint8Arrays, as postMessage needs',
    );
    assert.equal(Buffer.concat(bytes).toString('utf8'), text);
    assert.equal((await all(streamUri(fileUri(latin), 'windows-1252'))).join(''), text);

    const utf8 = join(dir, 'report-utf8.csv');
    writeFileSync(utf8, text, 'utf8');
    assert.equal(Buffer.concat(await all(streamUriBytes(fileUri(utf8), 'utf-8'))).toString('utf8'), text);
    assert.equal(Buffer.concat(await all(streamUriBytes(fileUri(utf8)))).toString('utf8'), text);
    assert.equal((await all(streamUri(fileUri(utf8)))).join(''), text);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
