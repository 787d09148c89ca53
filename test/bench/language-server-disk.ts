import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { BATCH_ON_DISK_CHECKED_NOTIFICATION, BATCH_ON_DISK_NOTIFICATION, type BatchOnDiskChecked } from '../../src/shared/lintProtocol';
import { ROOT, TestClient } from '../language-server/client';
import { generateBatch } from './generate';

// A batch too large for VS Code to pass to extensions, checked from disk (paygate/batchOnDisk: the server
// reads it as a stream), against the same file opened whole with didOpen (what Neovim or Helix do), each
// in a fresh server over stdio: the time until the whole file's problems are published, as the client
// sees it, and the server's peak memory (VmHWM). The file has a wrong row every 100,000 rows.

export interface DiskFigures {
  rows: number;
  mb: number;
  disk: { ms: number; peakMb: number | undefined; problems: number };
  whole: { ms: number; peakMb: number | undefined; problems: number };
}

/** A process's peak resident memory in MB (Linux /proc), or undefined elsewhere. */
function peakMb(pid: number | undefined): number | undefined {
  try {
    const kb = /VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    return kb === undefined ? undefined : Number(kb) / 1024;
  } catch {
    return undefined;
  }
}

async function server(): Promise<TestClient> {
  const client = new TestClient([path.join(ROOT, 'dist', 'language-server.js'), '--stdio']);
  await client.initialize({});
  return client;
}

export async function benchDisk(rows = 1_000_000): Promise<DiskFigures> {
  const dir = mkdtempSync(path.join(tmpdir(), 'paygate-bench-disk-'));
  try {
    const lines = generateBatch(rows).split('\r\n');
    for (let r = 50_000; r < rows; r += 100_000) lines[r + 1] = lines[r + 1].replace(';EUR;', ';E1;');
    const text = lines.join('\r\n');
    const file = path.join(dir, 'big.rpcsv');
    writeFileSync(file, text);
    const uri = pathToFileURL(file).href;

    const onDisk = await server();
    const checked = new Promise<BatchOnDiskChecked>((resolve) =>
      onDisk.connection.onNotification(BATCH_ON_DISK_CHECKED_NOTIFICATION, resolve),
    );
    let t0 = performance.now();
    await onDisk.connection.sendNotification(BATCH_ON_DISK_NOTIFICATION, { uri, event: 'opened' });
    const done = await checked;
    const disk = { ms: performance.now() - t0, peakMb: peakMb(onDisk.pid), problems: done.problems };
    await onDisk.stop();

    const opened = await server();
    t0 = performance.now();
    await opened.connection.sendNotification('textDocument/didOpen', {
      textDocument: { uri, languageId: 'paygate-recurring-csv', version: 1, text },
    });
    // The first screen, then the whole file's: the second publish of version 1.
    const all = await opened.diagnostics(uri, 'the whole file', () => opened.published.filter((p) => p.uri === uri).length >= 2, 600_000);
    const whole = { ms: performance.now() - t0, peakMb: peakMb(opened.pid), problems: all.diagnostics.length };
    await opened.stop();
    return { rows, mb: statSync(file).size / 1024 / 1024, disk, whole };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export function diskTable(f: DiskFigures): string[] {
  const mb = (x: number | undefined) => (x === undefined ? 'n/a' : x.toFixed(0));
  return [
    `| ${f.rows.toLocaleString('en-US')} rows (${f.mb.toFixed(0)} MB), each in a fresh server | checked from disk (a batch VS Code does not pass) | opened whole (didOpen) |`,
    '|---|---:|---:|',
    `| → the whole file's problems published, ms | ${f.disk.ms.toFixed(0)} | ${f.whole.ms.toFixed(0)} |`,
    `| server peak memory (VmHWM), MB | ${mb(f.disk.peakMb)} | ${mb(f.whole.peakMb)} |`,
    `| problems published | ${f.disk.problems} | ${f.whole.problems} |`,
  ];
}

// Alone (`tsx test/bench/language-server-disk.ts ROWS`); not when bundled into the language-server bench.
if (require.main === module && process.argv[1]?.endsWith('language-server-disk.ts')) {
  benchDisk(Number(process.argv[2] ?? 1_000_000)).then(
    (r) => console.log(diskTable(r).join('\n')),
    (err: unknown) => {
      console.error(err);
      process.exit(1);
    },
  );
}
