import path from 'node:path';
import { lint } from '../../src/core/rules/lint';
import { ROOT, TestClient } from '../language-server/client';
import { generateBatch } from './generate';
import { benchDisk, diskTable } from './language-server-disk';
import { benchEdits, editTable, rssMb } from './language-server-edits';
import { median, writeReadmeSection } from './report';
import { machineHeader } from './table';

// The language server on a 100k-row batch, driven over stdio like any editor: open → first diagnostics
// (the first screen) and → all diagnostics, a one-cell edit → diagnostics published (round trip), a hover
// after an edit, and the server's memory. Then the edit shapes on a million rows, over stdio too
// (language-server-edits.ts): every figure is the client's, in this process, of a server in its own. Last,
// a million rows checked from disk against the same file opened whole (language-server-disk.ts).
// The reference, measured in the same run: a whole-file lint of the same text in this process. Prints
// figures; asserts nothing about time.

const ROWS = 100_000;
const EDITS = 21;
const MILLION = 1_000_000;

function time<T>(fn: () => T): number {
  const t0 = process.hrtime.bigint();
  fn();
  return Number(process.hrtime.bigint() - t0) / 1e6;
}

async function main(): Promise<void> {
  const text = generateBatch(ROWS);
  lint(text);
  const reference = median([0, 1, 2].map(() => time(() => lint(text))));

  const client = new TestClient([path.join(ROOT, 'dist', 'language-server.js'), '--stdio']);
  await client.initialize({ textDocument: { codeAction: { resolveSupport: { properties: ['edit'] } } } });
  const uri = 'file:///bench/batch.rpcsv';
  let t0 = performance.now();
  await client.connection.sendNotification('textDocument/didOpen', {
    textDocument: { uri, languageId: 'paygate-recurring-csv', version: 1, text },
  });
  await client.diagnostics(uri, 'first diagnostics', (p) => p.version === 1);
  const open = performance.now() - t0;
  // The first screen comes first; the whole file's diagnostics are the second publish of version 1.
  await client.diagnostics(uri, 'all diagnostics', () => client.published.filter((p) => p.uri === uri && p.version === 1).length >= 2);
  const openAll = performance.now() - t0;

  const edits: number[] = [];
  const hovers: number[] = [];
  for (let v = 2; v < 2 + EDITS; v++) {
    const line = 1 + ((v * 4_099) % ROWS);
    t0 = performance.now();
    // Retype the first three characters of a row's client-orderid: one cell, one row.
    await client.connection.sendNotification('textDocument/didChange', {
      textDocument: { uri, version: v },
      contentChanges: [{ range: { start: { line, character: 0 }, end: { line, character: 3 } }, text: v % 2 ? 'ORD' : 'ORX' }],
    });
    await client.diagnostics(uri, `diagnostics of version ${v}`, (p) => p.version === v);
    edits.push(performance.now() - t0);
    t0 = performance.now();
    await client.connection.sendRequest('textDocument/hover', { textDocument: { uri }, position: { line, character: 1 } });
    hovers.push(performance.now() - t0);
  }
  const memory = rssMb(client.pid);
  await client.stop();

  const mb = Buffer.byteLength(text) / 1e6;
  const ratio = (ms: number) => `${(ms / reference).toFixed(3)}×`;
  const table = [
    `Language server over stdio, every figure as its client (this bench, another process) reads it; \`npm run bench:lsp\` rewrites these tables.`,
    '',
    `${ROWS.toLocaleString('en-US')} rows (${mb.toFixed(1)} MB):`,
    '',
    '| measure | ms | vs whole-file lint in-process |',
    '|---|---:|---:|',
    `| whole-file lint in-process (reference, median of 3) | ${reference.toFixed(0)} | 1× |`,
    `| open → first diagnostics (the first screen) | ${open.toFixed(0)} | ${ratio(open)} |`,
    `| open → all diagnostics | ${openAll.toFixed(0)} | ${ratio(openAll)} |`,
    `| one-cell edit → diagnostics (median of ${EDITS}) | ${median(edits).toFixed(1)} | ${ratio(median(edits))} |`,
    `| hover after an edit (median of ${EDITS}) | ${median(hovers).toFixed(1)} | ${ratio(median(hovers))} |`,
    '',
    `Server memory (RSS) with the batch open: ${memory === undefined ? 'n/a' : `${memory.toFixed(0)} MB`}.`,
    '',
    ...editTable(await benchEdits(MILLION, 21)),
    '',
    // The same on a file with a problem on every tenth row: the diagnostics published are the first 1,000.
    ...editTable(await benchEdits(MILLION, 21, 10)),
    '',
    // A batch over 50 MB, which VS Code passes to no extension: read from disk as a stream.
    ...diskTable(await benchDisk(MILLION)),
  ].join('\n');
  console.log(`${machineHeader()}\n\n${table}`);
  if (!process.env.PAYGATE_BENCH_NO_README) writeReadmeSection('lsp', table);
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
