import { test, after, mock } from 'node:test';
import assert from 'node:assert/strict';
import Module from 'node:module';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type * as ReportFile from '../../src/extension/results/reportFile';
import type * as FsPromises from 'node:fs/promises';
import { PDF_HEAD_BYTES } from '../../src/core/pdfSignature';
import { saidText } from '../../src/core/output';

// Issue 42: a report opened from disk ("Open Report File…", a restored PDF pane) is read once and told once.
// Before, a PDF whose name does not say so was opened for its first bytes, told by its signature, then read
// again whole through the editor's file system and told again. Counted here: every byte read through
// node:fs/promises' file handles and through the editor's file system (a fake of the one part of the vscode
// API the module reads).

let editorBytes = 0;
const fakeVscode = {
  workspace: {
    fs: {
      stat: (uri: { fsPath: string }) => {
        const s = statSync(uri.fsPath);
        return Promise.resolve({ size: s.size, mtime: s.mtimeMs });
      },
      readFile: (uri: { fsPath: string }) => {
        const bytes = new Uint8Array(readFileSync(uri.fsPath));
        editorBytes += bytes.length;
        return Promise.resolve(bytes);
      },
    },
  },
};
const resolve = (Module as unknown as { _resolveFilename: (r: string, ...rest: unknown[]) => string })._resolveFilename;
(Module as unknown as { _resolveFilename: unknown })._resolveFilename = function (request: string, ...rest: unknown[]) {
  return request === 'vscode' ? 'vscode' : resolve.apply(this, [request, ...rest]);
};
require.cache.vscode = { id: 'vscode', filename: 'vscode', loaded: true, exports: fakeVscode } as unknown as NodeJS.Module;
/* eslint-disable @typescript-eslint/no-require-imports -- after the fake is in place; node:fs/promises itself, whose members can be replaced */
const { readReportFile } = require('../../src/extension/results/reportFile') as typeof ReportFile;
const fsp = require('node:fs/promises') as typeof FsPromises;
/* eslint-enable @typescript-eslint/no-require-imports */

const dir = mkdtempSync(join(tmpdir(), 'paygate-report-file-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const fileUri = (fsPath: string) => ({ scheme: 'file', fsPath, path: fsPath, toString: () => `file://${fsPath}` }) as never;

/** Reads `file` as the editor opens a report, counting the bytes read and the files opened. */
async function opened(file: string) {
  editorBytes = 0;
  let handleBytes = 0;
  let opens = 0;
  const realOpen = fsp.open;
  const spy = mock.method(fsp, 'open', async (path: string, flags: string) => {
    opens++;
    const handle = await realOpen(path, flags);
    const read = handle.read.bind(handle) as (b: Uint8Array, o: number, l: number, p: number | null) => Promise<{ bytesRead: number }>;
    const readFile = handle.readFile.bind(handle) as () => Promise<Buffer>;
    return Object.assign(handle, {
      read: async (buffer: Uint8Array, offset: number, length: number, position: number | null) => {
        const r = await read(buffer, offset, length, position);
        handleBytes += r.bytesRead;
        return r;
      },
      readFile: async () => {
        const r = await readFile();
        handleBytes += r.length;
        return r;
      },
    });
  });
  try {
    const read = await readReportFile(fileUri(file));
    return { read, opens, bytes: handleBytes + editorBytes };
  } finally {
    spy.mock.restore();
  }
}

const pdf = Buffer.concat([
  Buffer.from('\r\n'),
  Buffer.alloc(700, 0x20),
  Buffer.from('%PDF-1.4\n'),
  Buffer.alloc(100_000, 0x41),
  Buffer.from('\n%%EOF\n'),
]);

test('a PDF whose name does not say so is read once, whole, and shown as it is', async () => {
  const file = join(dir, 'statement.bin');
  writeFileSync(file, pdf);
  const r = await opened(file);
  assert.equal(r.read.kind, 'pdf');
  assert.ok(r.read.kind === 'pdf');
  assert.deepEqual(Buffer.from(r.read.content.bytes), pdf);
  assert.equal(r.read.content.bytes.constructor, Uint8Array, 'a plain Uint8Array, as the page needs');
  assert.equal(r.opens, 1);
  assert.equal(r.bytes, pdf.length, 'each byte read once');
});

test('a PDF named .pdf is read once; a named one without the signature is refused', async () => {
  const file = join(dir, 'report.pdf');
  writeFileSync(file, pdf);
  const r = await opened(file);
  assert.equal(r.read.kind, 'pdf');
  assert.equal(r.bytes, pdf.length);
  const fake = join(dir, 'fake.pdf');
  writeFileSync(fake, 'Merchant;Amount\r\nShop;1.00\r\n');
  const refused = await opened(fake);
  assert.equal(refused.read.kind, 'refused');
  assert.ok(refused.read.kind === 'refused');
  assert.equal(saidText(refused.read.message), 'fake.pdf is not a PDF: the PDF signature (%PDF-) is not in its first 1,024 bytes.');
  // A card number in the file's name is masked where the page lays the line out; the rest is our words.
  const card = join(dir, '4111 1111 1111 1111.pdf');
  writeFileSync(card, 'Merchant;Amount\r\n');
  const named = await opened(card);
  assert.ok(named.read.kind === 'refused');
  assert.equal(
    saidText(named.read.message),
    '4111 11** **** 1111.pdf is not a PDF: the PDF signature (%PDF-) is not in its first 1,024 bytes.',
  );
});

test('a CSV report is told from its first bytes only: the table streams the rest', async () => {
  const file = join(dir, 'report.csv');
  const csv = `Merchant;Amount\r\n${'Shop;1.00\r\n'.repeat(20_000)}`;
  writeFileSync(file, csv);
  const r = await opened(file);
  assert.equal(r.read.kind, 'csv');
  assert.ok(r.read.kind === 'csv' && r.read.info?.bytes === csv.length);
  assert.ok(r.bytes <= PDF_HEAD_BYTES, `${r.bytes} bytes read to tell it`);
});
