// The pre-commit hooks of .pre-commit-hooks.yaml as a user gets them (issue 13 part 4): a scratch git
// repository with a bad and a good batch, `pre-commit try-repo` pointed at this repository. pre-commit
// clones it (a temporary commit when tracked files have uncommitted changes), runs `npm install` and
// `npm pack` (whose `prepack` builds dist/cli.js), installs the tarball into its own environment with
// the system Node (`language_version: system`: no Node download) and runs `paygate lint` / `paygate fix`.
// Needs Debian's pre-commit (installed by test/e2e/setup-system.sh when missing) and the npm registry.
import { spawn, spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PROCESS_MS } from '../fixtures/deadlines';

const ROOT = path.resolve(__dirname, '../..');
/** A try-repo installs the hook environment from scratch (npm install, build, pack): minutes at most. */
const RUN_TIMEOUT_MS = 10 * 60_000;

interface Run {
  code: number | null;
  output: string;
}

function fail(message: string, output = ''): never {
  if (output) process.stderr.write(`${output}\n`);
  process.stderr.write(`test:precommit: FAIL ${message}\n`);
  process.exit(1);
}

function which(cmd: string): boolean {
  return spawnSync('sh', ['-c', `command -v ${cmd}`], { stdio: 'ignore' }).status === 0;
}

function git(cwd: string, ...args: string[]): string {
  const r = spawnSync('git', args, { cwd, encoding: 'utf8', timeout: PROCESS_MS });
  if (r.status !== 0) fail(`git ${args.join(' ')}: ${r.stderr}`);
  return r.stdout;
}

/** Runs a command in its own process group so a timeout ends npm and everything it started. */
function run(cmd: string, args: string[], cwd: string, env: NodeJS.ProcessEnv): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { cwd, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (output += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (output += d));
    const timer = setTimeout(() => {
      output += `\n[killed after ${RUN_TIMEOUT_MS / 1000} s]`;
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        // already gone
      }
    }, RUN_TIMEOUT_MS);
    child.on('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}

function ensurePreCommit(): void {
  if (which('pre-commit')) return;
  const r = spawnSync('bash', [path.join(ROOT, 'test/e2e/setup-system.sh')], { stdio: 'inherit', timeout: 20 * 60_000 });
  if (r.status !== 0 || !which('pre-commit'))
    fail('pre-commit is not installed and could not be installed: run test/e2e/setup-system.sh as root (apt-get install pre-commit)');
}

function check(condition: boolean, message: string, output: string): void {
  if (!condition) fail(message, output);
  process.stdout.write(`  ok  ${message}\n`);
}

async function main(): Promise<void> {
  ensurePreCommit();
  // try-repo takes what is committed plus uncommitted changes to tracked files; an untracked hooks
  // manifest would not be seen at all.
  if (spawnSync('git', ['ls-files', '--error-unmatch', '.pre-commit-hooks.yaml'], { cwd: ROOT, stdio: 'ignore' }).status !== 0) {
    fail('.pre-commit-hooks.yaml is not tracked by git: pre-commit try-repo only sees tracked files (git add it)');
  }

  const tmp = mkdtempSync(path.join(tmpdir(), 'paygate-precommit-'));
  try {
    const work = path.join(tmp, 'work');
    mkdirSync(path.join(work, 'batches'), { recursive: true });
    git(work, 'init', '-q');
    git(work, 'config', 'user.email', 'test@example.invalid');
    git(work, 'config', 'user.name', 'test');
    git(work, 'config', 'commit.gpgsign', 'false');
    cpSync(path.join(ROOT, 'examples/mistakes.rpcsv'), path.join(work, 'batches/bad.rpcsv'));
    cpSync(path.join(ROOT, 'examples/valid.rpcsv'), path.join(work, 'batches/good.rpcsv'));
    cpSync(path.join(ROOT, 'examples/valid.rpcsv'), path.join(work, 'batches/good.recurring.csv'));
    // Not a batch by name: the hooks' `files` pattern leaves it alone although it is full of mistakes.
    cpSync(path.join(ROOT, 'examples/mistakes.rpcsv'), path.join(work, 'notes.csv'));
    git(work, 'add', '-A');

    const env: NodeJS.ProcessEnv = {
      ...process.env,
      PRE_COMMIT_HOME: path.join(tmp, 'pre-commit-home'),
      PRE_COMMIT_COLOR: 'never',
      npm_config_fund: 'false',
      npm_config_audit: 'false',
      npm_config_update_notifier: 'false',
    };
    const tryRepo = (...args: string[]) => run('pre-commit', ['try-repo', ROOT, ...args, '--verbose', '--color', 'never'], work, env);

    process.stdout.write('test:precommit: good batches, both hooks (installs the hook environment)\n');
    const good = await tryRepo('--files', 'batches/good.rpcsv', 'batches/good.recurring.csv', 'notes.csv');
    check(good.code === 0, `good batches pass (exit ${good.code})`, good.output);
    check(/^paygate lint\.+Passed$/m.test(good.output), 'paygate-lint passed', good.output);
    check(/^paygate fix\.+Passed$/m.test(good.output), 'paygate-fix passed', good.output);
    check(!good.output.includes('notes.csv'), 'notes.csv is not a batch: not checked', good.output);

    process.stdout.write('test:precommit: bad batch, paygate-lint\n');
    const bad = await tryRepo('paygate-lint', '--files', 'batches/bad.rpcsv', 'notes.csv');
    check(bad.code === 1, `bad batch fails (exit ${bad.code})`, bad.output);
    check(/^paygate lint\.+Failed$/m.test(bad.output), 'paygate-lint failed', bad.output);
    check(bad.output.includes('- exit code: 1'), "with the linter's exit code 1", bad.output);
    check(bad.output.includes('batches/bad.rpcsv:2:7: error invalid-value'), 'the output names file, line, column and code', bad.output);
    check(!bad.output.includes('notes.csv'), 'notes.csv is not checked', bad.output);
    process.stdout.write('test:precommit: passed\n');
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => fail(err instanceof Error ? (err.stack ?? err.message) : String(err)));
