// Proof in a second real editor: Debian's Neovim, headless, with its built-in LSP client talking to
// `paygate lsp --stdio` (this checkout's build). neovim/init.lua drives it the way a user would (open the
// file, read the diagnostics, hover, pick a code action from Neovim's own menu) and writes what Neovim
// saw as JSON; this test checks it. CI installs neovim through test/e2e/setup-system.sh.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CLI, ROOT, cellRange } from './client';
import { WAIT_MS } from '../fixtures/deadlines';

const NVIM_DEADLINE_MS = WAIT_MS;
const hasNvim = spawnSync('nvim', ['--version'], { stdio: 'ignore' }).status === 0;
// Outside CI a machine without Neovim skips this file; in CI its absence is a failure.
const skip = !hasNvim && !process.env.CI ? 'nvim is not installed (bash test/e2e/setup-system.sh installs it)' : false;

interface NvimDiagnostic {
  code: string;
  href: string | null;
  lnum: number;
  col: number;
  end_lnum: number;
  end_col: number;
  severity: number;
  source: string;
  message: string;
}

interface NvimRun {
  error?: string;
  diagnostics: NvimDiagnostic[];
  hover: { value: string; range: { start: { line: number; character: number }; end: { line: number; character: number } } } | null;
  offered: string[];
  after_fix: string[];
  diagnostics_after_fix: NvimDiagnostic[];
  offered_missing: string[];
  after_missing: string[];
  diagnostics_after_missing: NvimDiagnostic[];
}

/** Runs headless Neovim on the script, bounded by a deadline, and returns what it wrote. */
function runNvim(dir: string, env: Record<string, string>): Promise<NvimRun> {
  const out = path.join(dir, 'out.json');
  const home = path.join(dir, 'home');
  return new Promise((resolve, reject) => {
    const child = spawn('nvim', ['--headless', '--clean', '-u', path.join(__dirname, 'neovim', 'init.lua')], {
      cwd: dir,
      stdio: ['ignore', 'pipe', 'pipe'],
      // Neovim's state, logs and caches in the scratch folder, not the user's.
      env: {
        ...process.env,
        ...env,
        PAYGATE_OUT: out,
        HOME: home,
        XDG_CONFIG_HOME: home,
        XDG_DATA_HOME: home,
        XDG_STATE_HOME: home,
        XDG_CACHE_HOME: home,
      },
    });
    let output = '';
    child.stdout!.on('data', (b: Buffer) => (output += b.toString()));
    child.stderr!.on('data', (b: Buffer) => (output += b.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), NVIM_DEADLINE_MS);
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      if (!existsSync(out)) return reject(new Error(`nvim exited (${code ?? signal}) without results: ${output}`));
      resolve(JSON.parse(readFileSync(out, 'utf8')) as NvimRun);
    });
  });
}

describe('Neovim with paygate lsp --stdio', { skip }, () => {
  let dir = '';
  let run: NvimRun;
  let text = '';
  let missingText = '';

  before(async () => {
    assert.ok(existsSync(CLI), `${CLI} is built (npm run build)`);
    dir = mkdtempSync(path.join(os.tmpdir(), 'paygate-nvim-'));
    const alias = path.join(dir, 'mistakes.rpcsv');
    copyFileSync(path.join(ROOT, 'test', 'fixtures', 'lint', 'mistakes.rpcsv'), alias);
    text = readFileSync(alias, 'utf8');
    const missing = path.join(dir, 'missing.rpcsv');
    missingText =
      'client-orderid;rp_card_type;credit-card-number;amount\nord-1;DST;4111111111111111;5.00\nord-2;DST;5555555555554444;7.00\n';
    writeFileSync(missing, missingText);
    run = await runNvim(dir, {
      PAYGATE_CMD: JSON.stringify([process.execPath, CLI, 'lsp', '--stdio']),
      PAYGATE_ALIAS: alias,
      PAYGATE_MISSING: missing,
    });
    assert.equal(run.error, undefined, `the Neovim script failed: ${run.error}`);
  });

  after(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  const span = (d: NvimDiagnostic) => ({ start: { line: d.lnum, character: d.col }, end: { line: d.end_lnum, character: d.end_col } });

  it('shows the diagnostics with their codes, exact ranges and rule links', () => {
    assert.deepEqual(
      run.diagnostics.map((d) => ({ code: d.code, range: span(d) })),
      [
        { code: 'column-alias', range: cellRange(text, 0, 'Rp_Card_Type') },
        { code: 'column-alias', range: cellRange(text, 0, 'notify-url') },
        { code: 'dst-unsupported', range: cellRange(text, 1, 'DE') },
        { code: 'dst-unsupported', range: cellRange(text, 1, 'Berlin') },
      ],
    );
    for (const d of run.diagnostics) {
      assert.equal(d.source, 'paygate');
      assert.equal(d.severity, 1, 'error');
      assert.equal(d.href, `https://github.com/paygate/paygate-toolkit/blob/main/docs/rules.md#${d.code}`);
    }
  });

  it('hovers a header cell with its column documentation', () => {
    assert.ok(run.hover, 'a hover');
    assert.match(run.hover.value, /\*\*currency\*\*/);
    assert.match(run.hover.value, /3 upper-case letters/);
    assert.deepEqual(run.hover.range, cellRange(text, 0, 'currency'));
  });

  it("applies a quick fix's edit from Neovim's code action menu, and the problem goes", () => {
    assert.ok(run.offered.includes('Rename column to rp_card_type'), run.offered.join(' | '));
    assert.ok(
      run.offered.some((t) => /Fix all 2 column-alias/.test(t)),
      'fix all of this kind offered',
    );
    const lines = text.split('\n');
    assert.deepEqual(run.after_fix, [lines[0].replace('Rp_Card_Type', 'rp_card_type'), ...lines.slice(1, -1)]);
    assert.deepEqual(
      run.diagnostics_after_fix.map((d) => d.code),
      ['column-alias', 'dst-unsupported', 'dst-unsupported'],
    );
    assert.deepEqual(span(run.diagnostics_after_fix[0]), cellRange(text, 0, 'notify-url'));
  });

  it('adds a missing column to the header and every row through a resolved code action', () => {
    assert.ok(
      run.offered_missing.some((t) => t.startsWith('Add column currency')),
      run.offered_missing.join(' | '),
    );
    const lines = missingText.split('\n').slice(0, -1);
    assert.deepEqual(run.after_missing, [`${lines[0]};currency`, ...lines.slice(1).map((l) => `${l};`)]);
    assert.ok(!run.diagnostics_after_missing.some((d) => d.code === 'missing-column'));
    assert.deepEqual(
      run.diagnostics_after_missing.map((d) => d.code),
      ['required-value', 'required-value'],
      'the new column is there, its cells still to fill',
    );
  });
});
