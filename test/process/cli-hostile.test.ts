// `paygate lint` and `paygate fix` as a process against hostile inputs: what is not a regular file or is
// over the size limit is refused at once (exit 2, the file named), `fix` keeps a symlink, the mode and
// every value it does not mean to change, and no card number reaches the output.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { once } from 'node:events';
import { chmod, lstat, mkdtemp, readFile, readdir, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { FIXTURES } from '../fixtures/hostile/generate';
import { malformedRows } from '../fixtures/hostile/shapes';
import { PROCESS_MS } from '../fixtures/deadlines';
import { paygateArgs } from '../fixtures/cli/bin';

const ROOT = path.resolve(__dirname, '../..');
/** A refusal is immediate; a process still running after this long is reading for ever. */
const DEADLINE_MS = PROCESS_MS;

function paygate(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string; killed: boolean }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...paygateArgs(), ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    let killed = false;
    const timer = setTimeout(() => {
      killed = true;
      child.kill('SIGKILL');
    }, DEADLINE_MS);
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr, killed });
    });
  });
}

let dir = '';
const at = (name: string) => path.join(dir, name);

before(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'paygate-hostile-'));
});
after(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('paygate lint refuses what it cannot read safely', () => {
  it('/dev/zero, a FIFO nobody writes and a directory: exit 2 at once, each named', async () => {
    const fifo = at('fifo');
    execFileSync('mkfifo', [fifo]);
    const run = await paygate(['lint', '/dev/zero', fifo, dir]);
    assert.equal(run.killed, false);
    assert.equal(run.code, 2);
    assert.match(run.stderr, /paygate lint: \/dev\/zero: cannot read: not a regular file/);
    assert.ok(run.stderr.includes(`paygate lint: ${fifo}: cannot read: not a regular file`), run.stderr);
    assert.ok(run.stderr.includes(`paygate lint: ${dir}: cannot read: is a directory`), run.stderr);
  });

  it('a file over --max-bytes: exit 2 naming the file, the limit and the flag; a bad value is a usage error', async () => {
    await writeFile(at('ok.rpcsv'), FIXTURES['malformed-rows.rpcsv']);
    const size = Buffer.byteLength(FIXTURES['malformed-rows.rpcsv']);
    const over = await paygate(['lint', '--max-bytes', String(size - 1), at('ok.rpcsv')]);
    assert.equal(over.code, 2);
    assert.ok(
      over.stderr.includes(
        `${at('ok.rpcsv')}: the file (${size.toLocaleString('en-US')} bytes) is over the limit of ${(size - 1).toLocaleString('en-US')} bytes; --max-bytes N raises it`,
      ),
      over.stderr,
    );
    const fits = await paygate(['lint', '--max-bytes', String(size), at('ok.rpcsv')]);
    assert.equal(fits.code, 1, fits.stderr); // read and linted: the fixture has errors
    const bad = await paygate(['lint', '--max-bytes', 'lots', at('ok.rpcsv')]);
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /--max-bytes must be a whole number of bytes/);
  });

  it('standard input past --max-bytes: reading stops, exit 2', async () => {
    const child = spawn(process.execPath, [...paygateArgs(), 'lint', '--max-bytes', '1K', '-'], {
      cwd: ROOT,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.stdin.on('error', () => undefined); // the reader may stop before everything is written
    child.stdin.end('a;b\n'.repeat(1000));
    const timer = setTimeout(() => child.kill('SIGKILL'), DEADLINE_MS);
    const [code] = (await once(child, 'close')) as [number | null];
    clearTimeout(timer);
    assert.equal(code, 2);
    assert.match(stderr, /paygate lint: <stdin>: standard input is over the limit of 1,024 bytes; --max-bytes N raises it/);
  });

  it('no card number in the output, whatever column it sits in', async () => {
    await writeFile(at('cards.rpcsv'), FIXTURES['cards-everywhere.rpcsv']);
    await writeFile(at('row.rpcsv'), FIXTURES['header-is-a-row.rpcsv']);
    for (const format of ['text', 'json']) {
      const run = await paygate(['lint', '--format', format, at('cards.rpcsv'), at('row.rpcsv')]);
      assert.equal(run.code, 1);
      assert.doesNotMatch(run.stdout, /(?<!\d)\d{12,19}(?!\d)|\d{4}[ -]\d{4}[ -]\d{4}/);
      assert.match(run.stdout, /411111\*{6}1111/);
    }
  });
});

describe('paygate lint lists at most 10,000 problems a file', () => {
  it('the first 10,000 by position are listed, the rest counted in the summary and in JSON', async () => {
    // 12,500 broken rows (csv-syntax) and 12,500 rows with expire-month "1".."9" or more (invalid-value).
    await writeFile(at('many.rpcsv'), malformedRows(25_000));
    const text = await paygate(['lint', at('many.rpcsv')]);
    const lines = text.stdout.trimEnd().split('\n');
    const listed = lines.filter((l) => l.startsWith(`${at('many.rpcsv')}:`) && /: (error|warning|information) /.test(l));
    assert.equal(listed.length, 10_000);
    const json = await paygate(['lint', '--format', 'json', at('many.rpcsv')]);
    const report = JSON.parse(json.stdout) as {
      files: { diagnostics: { line: number }[]; omitted?: { errors: number; warnings: number } }[];
      summary: { errors: number; warnings: number };
    };
    const [file] = report.files;
    assert.equal(file.diagnostics.length, 10_000);
    assert.ok(file.omitted && file.omitted.errors > 0);
    // Listed by position: the last listed line is before anything omitted, which includes row 25,000.
    assert.ok(file.diagnostics[9_999].line < 25_001);
    assert.equal(
      report.summary.errors,
      file.diagnostics.filter((d) => (d as { severity?: string }).severity === 'error').length + file.omitted!.errors,
    );
    assert.ok(
      lines.includes(
        `${at('many.rpcsv')}: ${(report.summary.errors + report.summary.warnings - 10_000).toLocaleString('en-US')} more problems not listed (the first 10,000 are)`,
      ),
      lines.slice(-3).join('\n'),
    );
    assert.equal(
      lines[lines.length - 1],
      `${report.summary.errors.toLocaleString('en-US').replace(/,/g, '')} errors, ${report.summary.warnings} warnings in 1 file`,
    );
  });
});

describe('paygate fix cannot hurt', () => {
  it('a 0600 batch behind a symlink: the link stays, the target is fixed exactly and stays 0600, no file is left over', async () => {
    const target = at('real-batch.rpcsv');
    await writeFile(target, FIXTURES['bom-lines.rpcsv']);
    await chmod(target, 0o600);
    await symlink(target, at('link.rpcsv'));
    const before = new Set(await readdir(dir));
    const run = await paygate(['fix', at('link.rpcsv')]);
    assert.equal(run.killed, false);
    assert.ok((await lstat(at('link.rpcsv'))).isSymbolicLink());
    assert.equal((await stat(target)).mode & 0o777, 0o600);
    const fixed = await readFile(target, 'utf8');
    // The reported corruption: a BOM line after a broken row once became A2SRCc. The BOM inside the id
    // is id-whitespace now, whose safe fix removes it: the row is otherwise byte for byte as it was.
    assert.ok(fixed.includes('\r\nA2;SRC;5555555555554444;03;2031;10.00;EUR;03.01.2031\r'), JSON.stringify(fixed.slice(0, 400)));
    assert.ok(!fixed.includes('\ufeffA2'), 'the BOM inside the id is gone');
    assert.ok(!fixed.startsWith('\ufeff'));
    assert.deepEqual(new Set(await readdir(dir)), before);
    assert.match(run.stdout, /applied \d+ fixes/);
  });
});
