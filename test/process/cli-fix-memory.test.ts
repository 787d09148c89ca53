// `paygate fix` on a file broken on every line keeps what it fixes, not a diagnostic per line: with
// a heap far smaller than one diagnostic per row would need, it finishes and counts every error.
// (It once held every problem of every row: header + 1M rows of `a` took 1.7 GB where lint took 0.2.)
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { paygateArgs } from '../fixtures/cli/bin';

const ROOT = path.resolve(__dirname, '../..');
const ROWS = 300_000;
/** Heap for the whole CLI: about a third of what one diagnostic per row took. */
const HEAP_MB = 128;

test(`fix of a header and ${ROWS.toLocaleString('en-US')} rows of "a" runs in a ${HEAP_MB} MB heap and counts the errors`, async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'paygate-fix-memory-'));
  try {
    const file = path.join(dir, 'short.rpcsv');
    writeFileSync(file, `client-orderid;rp_card_type;credit-card-number;amount;currency\n${'a\n'.repeat(ROWS)}`);
    const child = spawn(process.execPath, [`--max-old-space-size=${HEAP_MB}`, ...paygateArgs(), 'fix', '--dry-run', file], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d.slice(0, 4000)));
    // Bounded: a run that neither finishes nor runs out of memory is killed.
    const timer = setTimeout(() => child.kill('SIGKILL'), 120_000);
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    clearTimeout(timer);
    assert.equal(code, 1, `exit 1 (errors remain), not a crash: ${stderr}`);
    const m = /would apply 0 fixes; (\d+) errors remain/.exec(stdout);
    assert.ok(m, stdout.slice(0, 2000));
    assert.ok(Number(m[1]) >= ROWS, `at least one error per row: ${m[1]}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
