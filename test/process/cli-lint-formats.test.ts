// Issue 13 part 3: every `paygate lint` format exits as the text format always has (0 clean or warnings
// only, 1 errors, 2 unreadable file or usage error), and prints in one stable order (file, line,
// column, code) whatever the order of the arguments or of the core's diagnostics.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { lint } from '../../src/core/rules/lint';
import { formatLint, LINT_FORMATS, type FileLint } from '../../src/cli/format';
import { TODAY } from '../fixtures/lint-cases/helpers';
import { PROCESS_MS } from '../fixtures/deadlines';
import { paygateArgs } from '../fixtures/cli/bin';

const TIMEOUT_MS = PROCESS_MS;

function paygate(args: string[], cwd: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...paygateArgs(), ...args], {
      cwd,
      stdio: ['ignore', 'pipe', 'pipe'],
      timeout: TIMEOUT_MS,
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

const MIN = 'client-orderid;rp_card_type;credit-card-number;amount;currency';
const FILES: Record<string, string> = {
  'clean.rpcsv': `${MIN}\no1;DST;5555555555554444;1;EUR\n`,
  'warnings.rpcsv': `${MIN}\no1;DST;5555555555554445;1;EUR\n`,
  'errors.rpcsv': `\ufeffClient_OrderId;rp_card_type;credit-card-number;amount;currency\no1;dst;5555555555554445;0;EUR\no1;DST;5555555555554444;1;usd\n`,
  'b/more.rpcsv': `${MIN}\no1;DST;5555555555554444;0;EUR\n`,
};

let dir = '';
before(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'paygate-lint-formats-'));
  await mkdir(path.join(dir, 'b'));
  for (const [name, text] of Object.entries(FILES)) await writeFile(path.join(dir, name), text);
});
after(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('paygate lint exit codes, the same for every format', () => {
  const cases: [string, string[], number][] = [
    ['clean', ['clean.rpcsv'], 0],
    ['warnings only', ['warnings.rpcsv'], 0],
    ['errors', ['clean.rpcsv', 'errors.rpcsv'], 1],
    ['an unreadable file beside errors', ['errors.rpcsv', 'missing.rpcsv'], 2],
  ];
  for (const format of LINT_FORMATS) {
    it(`--format ${format}`, async () => {
      const runs = await Promise.all(cases.map(([, files]) => paygate(['lint', '--format', format, ...files], dir)));
      runs.forEach((r, i) => assert.equal(r.code, cases[i][2], `${format} ${cases[i][0]}: ${r.stderr}`));
      assert.match(runs[3].stderr, /missing\.rpcsv: cannot read: no such file/);
      if (format === 'text') {
        const alone = await paygate(['lint', 'missing.rpcsv'], dir);
        assert.deepEqual([alone.code, alone.stdout], [2, ''], 'only the error is printed');
        assert.match(alone.stderr, /^paygate lint: missing\.rpcsv: cannot read: no such file/);
      }
      if (format === 'sarif') {
        assert.equal(JSON.parse(runs[3].stdout).runs[0].invocations[0].executionSuccessful, false);
        assert.equal(JSON.parse(runs[2].stdout).runs[0].tool.driver.version, (await import('../../package.json')).default.version);
      }
    });
  }
  it('an unknown format or no file is a usage error (2)', async () => {
    const [bad, none] = await Promise.all([
      paygate(['lint', '--format', 'xml', 'clean.rpcsv'], dir),
      paygate(['lint', '--format', 'sarif'], dir),
    ]);
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /--format must be text, json, sarif or github, not "xml"/);
    assert.equal(none.code, 2);
  });
});

describe('paygate lint output order', () => {
  it('the same bytes whatever the order of the files on the command line, in every format', async () => {
    const names = ['warnings.rpcsv', 'b/more.rpcsv', 'errors.rpcsv', 'clean.rpcsv'];
    for (const format of LINT_FORMATS) {
      const [a, b] = await Promise.all([
        paygate(['lint', '--format', format, ...names], dir),
        paygate(['lint', '--format', format, ...[...names].reverse()], dir),
      ]);
      assert.equal(a.code, 1);
      assert.equal(a.stdout, b.stdout, format);
    }
  });

  it('text lines come sorted by file, line, column and code', async () => {
    const r = await paygate(['lint', 'warnings.rpcsv', 'errors.rpcsv', 'b/more.rpcsv'], dir);
    const keys = r.stdout
      .split('\n')
      .map((l) => /^(.*):(\d+):(\d+): \w+ ([a-z-]+) /.exec(l))
      .filter((m) => m !== null)
      .map((m) => [m![1], Number(m![2]), Number(m![3]), m![4]] as const);
    assert.deepEqual(keys, [
      ['b/more.rpcsv', 2, 25, 'invalid-value'],
      ['errors.rpcsv', 1, 1, 'bom'],
      ['errors.rpcsv', 1, 1, 'column-alias'],
      ['errors.rpcsv', 2, 4, 'invalid-value'],
      ['errors.rpcsv', 2, 8, 'card-luhn'],
      ['errors.rpcsv', 2, 25, 'invalid-value'],
      ['errors.rpcsv', 3, 1, 'duplicate-order-id'],
      ['errors.rpcsv', 3, 27, 'invalid-value'],
      ['warnings.rpcsv', 2, 8, 'card-luhn'],
    ]);
  });

  it('diagnostics in any order from the core come out in the same order', () => {
    const text = FILES['errors.rpcsv'];
    const diagnostics = lint(text, { today: TODAY }).diagnostics;
    const reversed: FileLint = { file: 'e.rpcsv', text, diagnostics: [...diagnostics].reverse() };
    const forward: FileLint = { file: 'e.rpcsv', text, diagnostics };
    const context = { cwd: '/w', version: '0.0.0', failures: [] };
    for (const format of LINT_FORMATS)
      assert.equal(formatLint(format, [reversed], context), formatLint(format, [forward], context), format);
  });
});

describe('paygate fix with several files (as pre-commit passes them)', () => {
  it('fixes each file in place and exits with the worst status', async () => {
    const fixable = `client-orderid;rp_card_type;credit-card-number;amount;currency\no1;dst;5555555555554444;1;EUR\n`;
    await writeFile(path.join(dir, 'f1.rpcsv'), fixable);
    await writeFile(path.join(dir, 'f2.rpcsv'), fixable.replace(';1;EUR', ';0;EUR'));
    const r = await paygate(['fix', 'f1.rpcsv', 'f2.rpcsv'], dir);
    assert.equal(r.code, 1, r.stdout + r.stderr);
    assert.equal(await readFile(path.join(dir, 'f1.rpcsv'), 'utf8'), fixable.replace('dst', 'DST'));
    assert.equal(await readFile(path.join(dir, 'f2.rpcsv'), 'utf8'), fixable.replace('dst', 'DST').replace(';1;EUR', ';0;EUR'));
    assert.match(r.stdout, /^f1\.rpcsv: applied 1 fix; 0 errors remain$/m);
    assert.match(r.stdout, /^f2\.rpcsv: applied 1 fix; 1 error remains$/m);
    const missing = await paygate(['fix', 'f1.rpcsv', 'nope.rpcsv'], dir);
    assert.equal(missing.code, 2);
  });
});
