// The practice loop from a terminal, in real `paygate` processes on one scratch state directory: submit,
// the same file again (refused), advance the clock with `paygate gateway --advance`, the report saved and
// reconciled (all ok), and `--out -`, which used to write a file named "-", refused.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { paygateArgs } from '../fixtures/cli/bin';

const root = path.join(__dirname, '..', '..');

function exitOf(err: { code?: unknown } | null): number {
  if (!err) return 0;
  return typeof err.code === 'number' ? err.code : -1;
}

function paygate(dir: string, args: string[]): Promise<{ code: number; out: string; err: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [...paygateArgs(), ...args],
      {
        cwd: dir,
        timeout: 60_000,
        env: {
          ...process.env,
          PAYGATE_STATE_DIR: path.join(dir, 'state'),
          PAYGATE_DATA_DIR: path.join(dir, 'data'),
          XDG_CONFIG_HOME: path.join(dir, 'config'),
        },
      },
      (err, out, stderr) => resolve({ code: exitOf(err), out, err: stderr }),
    );
  });
}

test(
  'terminal loop: submit, resend refused, gateway --advance, report, reconcile all ok; --out - refused',
  { timeout: 300_000 },
  async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'paygate-terminal-loop-'));
    try {
      for (const f of ['valid.rpcsv', 'transactions.report.json']) fs.copyFileSync(path.join(root, 'examples', f), path.join(dir, f));
      const sent = await paygate(dir, ['submit', 'valid.rpcsv']);
      assert.equal(sent.code, 0, sent.err);
      const again = await paygate(dir, ['submit', 'valid.rpcsv']);
      assert.equal(again.code, 2, again.out + again.err);

      const advanced = await paygate(dir, ['gateway', '--advance', '35']);
      assert.equal(advanced.code, 0, advanced.err);
      assert.match(
        advanced.out,
        /^Advanced the local gateway of .* 35 day\(s\): (\d\d\.\d\d\.\d{4}) → (\d\d\.\d\d\.\d{4}); [1-9]\d* charge\(s\) made/,
      );
      const refused = await paygate(dir, ['gateway', '--advance', '0']);
      assert.equal(refused.code, 2);

      const stdoutOut = await paygate(dir, ['report', 'transactions.report.json', '--out', '-']);
      assert.equal(stdoutOut.code, 2);
      assert.match(stdoutOut.err, /--out - is not standard output: .*--format csv/);
      assert.equal(fs.existsSync(path.join(dir, '-')), false, 'no file named "-"');

      const report = await paygate(dir, ['report', 'transactions.report.json', '--out', 'transactions.csv']);
      assert.equal(report.code, 0, report.err);
      const reconciled = await paygate(dir, ['reconcile', '--report', 'transactions.csv']);
      assert.equal(reconciled.code, 0, reconciled.out + reconciled.err);
      assert.match(reconciled.out, /^ {2}ok +4$/m);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  },
);
