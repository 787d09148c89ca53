// `npm test`: every suite, with the independent ones side by side. On two cores the suites spend much of
// their time waiting (on a browser, an editor, a local gateway's clock or a child process), so running a
// few at once takes the whole run from the sum of the suites' times towards the longest of them.
//
// 1. The checks and the builds, side by side: the VSIX (`npm run package`: production bundles into dist/,
//    then vsce) and after it the development build, which the suites run. The e2e suite installs that VSIX
//    (PAYGATE_E2E_VSIX) instead of building its own in the middle of the run, which would rewrite dist/
//    under the suites reading it.
// 2. The suites, longest first, each once the build passed, in the same pool of MAX_PARALLEL workers as
//    the checks: a core a last check leaves idle takes a suite, rather than waiting for that check, and the
//    longest suite (e2e) starts the moment the build passed, ahead of the checks still queued. The fault
//    suite, which mostly waits, runs in a lane of its own beside the pool (SIDE). Each
//    runs its package.json script without its leading build (`node esbuild.js && …`, `npm run build &&
//    …`): the build ran once for all of them.
// 3. The pack tests build production bundles into dist/, which the others read: they run in the pool like
//    the others, but on a copy of the work tree (test/tools/working-copy.ts), removed when they end.
//
// Each suite's output is printed whole when it ends, so two suites' lines never interleave. A failed
// check or build starts no further suite (those running end); otherwise every suite has its turn, and
// the run fails when any failed.
// The run closes with the duration report (test/tools/test-report.ts): each suite's wall and CPU time, and
// the slowest test files of the node:test suites (each such suite gets a second reporter,
// test/tools/test-durations.mjs, and a probe in each file's process, test/tools/test-cpu.js).
// Usage: tsx test/tools/test-all.ts [--parallel N] [--only SUITE,SUITE]
//   --only: the build, then only the named suites (`--only test:unit,test:process`), with the same report.

import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { workingCopy } from './working-copy';
import { childCpuSeconds, fileTimes, outlivedTests, slowestFiles, suiteTable, type SuiteRun } from './test-report';

const ROOT = path.join(__dirname, '..', '..');
const scripts: Record<string, string> = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')).scripts;

// Each list longest first (wall seconds of a quiet fresh-clone run at fd632ae, 2026-11-29, side by side:
// unit 187, e2e 169, process 129, faults 128, webview 92, precommit 69, pack 20, lsp 15; lint 158,
// typecheck 101, format 59, knip 20). The e2e suite stays first: it mostly waits, so it starts with the
// build; the unit suite started last of the long ones there and was the run's tail (365 s whole).
export const CHECKS = ['build', 'lint', 'format:check', 'typecheck', 'knip'];
export const SUITES = ['test:e2e', 'test:faults', 'test:unit', 'test:process', 'test:webview', 'test:precommit', 'test:pack', 'test:lsp'];
// Suites that build into dist/ themselves: each runs in a copy of the work tree of its own.
export const COPIED = ['test:pack'];
// Beside the pool, in a lane of its own: the fault suite spends about a fifth of its time on a core (33 s of
// CPU in 168 s in a quiet run): the rest it waits on its stand-in's 400 ms answers and the processes it kills.
export const SIDE = ['test:faults'];

const flag = process.argv.indexOf('--parallel');
// Three on two cores. Four were tried and were no faster: quiet fresh-clone runs took 387 and 424 s whole
// with three workers, 419 s with four (where the e2e suite stretched from 214 to 304 s).
const MAX_PARALLEL = flag > 0 ? Math.max(1, Number(process.argv[flag + 1]) || 1) : 3;
const onlyFlag = process.argv.indexOf('--only');
const ONLY = onlyFlag > 0 ? (process.argv[onlyFlag + 1] ?? '').split(',').filter((n) => n !== '') : undefined;
const SUITES_RUN = ONLY ?? SUITES;

/** A suite's script without the build in front of it. */
export function withoutBuild(script: string): string {
  return script.replace(/^(node esbuild\.js|npm run build) && /, '');
}

const DURATIONS = path.join(ROOT, 'out', 'test-durations');
/** The VSIX stage 1 builds for the e2e suite's installed run (out/npm-test/paygate.vsix). */
const VSIX = path.join(ROOT, 'out', 'npm-test', 'paygate.vsix');
const E2E = 'test:e2e';

/**
 * What a check runs: its package.json script; but when the e2e suite is in the run, `build` first makes the
 * VSIX `vsix` (`npm run package`: production bundles, then vsce), then the development build.
 */
export function checkScript(name: string, script: string, vsix: string | undefined): string {
  return name === 'build' && vsix !== undefined ? `npm run package -- -o ${JSON.stringify(vsix)} && ${script}` : script;
}

/** A suite's name as a file name: `test:unit` → `test-unit`. */
const fileName = (name: string) => name.replace(/\W/g, '-');

/**
 * A node:test suite's script with a second reporter that writes each test file's time to
 * out/test-durations/NAME.jsonl (its spec reporter stays on standard output), and test/tools/test-cpu.js
 * loaded into each file's process, which writes its wall and CPU time to NAME.cpu.jsonl when run() names
 * that file in PAYGATE_TEST_CPU. Other scripts as they are.
 */
export function withDurations(name: string, script: string, dir = 'out/test-durations'): string {
  if (!/--test-reporter=spec(?! --test-reporter-destination)/.test(script)) return script;
  return script
    .replace(/ --test(?= )/, ' --require ./test/tools/test-cpu.js --test')
    .replace(
      /--test-reporter=spec/,
      `--test-reporter=spec --test-reporter-destination=stdout --test-reporter=./test/tools/test-durations.mjs --test-reporter-destination=${dir}/${fileName(name)}.jsonl`,
    );
}

/**
 * A command run by bash, followed by `times` on file descriptor 3: the user and system time of every
 * process the command waited for. The command's own exit status is kept.
 */
export function timed(command: string): string {
  return `${command}\nstatus=$?\ntimes >&3\nexit $status`;
}

function run(name: string, command: string, cwd = ROOT): Promise<SuiteRun> {
  const started = Date.now();
  return new Promise((resolve) => {
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      FORCE_COLOR: '0',
      PAYGATE_TEST_CPU: path.join(DURATIONS, `${fileName(name)}.cpu.jsonl`),
    };
    if (existsSync(VSIX)) env.PAYGATE_E2E_VSIX = VSIX;
    const child = spawn('bash', ['-c', timed(command)], { cwd, stdio: ['ignore', 'pipe', 'pipe', 'pipe'], env });
    const out: Buffer[] = [];
    let times = '';
    child.stdout?.on('data', (b: Buffer) => out.push(b));
    child.stderr?.on('data', (b: Buffer) => out.push(b));
    child.stdio[3]?.on('data', (b: Buffer) => (times += b.toString()));
    child.on('close', (code) => {
      const seconds = (Date.now() - started) / 1000;
      const ok = code === 0;
      const cpu = childCpuSeconds(times);
      const cost = cpu === undefined ? '' : `, ${cpu.toFixed(0)} s CPU`;
      process.stdout.write(`\n===== ${name}: ${ok ? 'passed' : `FAILED (exit ${code})`} in ${seconds.toFixed(0)} s${cost}\n`);
      process.stdout.write(Buffer.concat(out));
      resolve({ name, ok, seconds, cpu });
    });
  });
}

/**
 * The order workers take the jobs in: the build, the first (longest) suite, the other checks, the other
 * suites. With the rule in schedule() that a suite waits for the build and a worker then takes a check, the
 * longest suite starts the moment the build passed, and no check waits behind a suite.
 */
export function jobOrder(checks: string[], suites: string[]): string[] {
  return [...checks.slice(0, 1), ...suites.slice(0, 1), ...checks.slice(1), ...suites.slice(1)];
}

/**
 * Runs `checks` (the build first) and `suites` in one pool of `parallel` workers, in jobOrder(): each worker
 * takes the first job it can start now, where a suite can start only once the `build` check passed (a
 * worker finding only suites before the build ended waits for it). No suite starts after a check failed.
 * The suites named in `side` run in a lane of their own beside the pool, under the same rules: suites that
 * mostly wait (on a stand-in gateway's slow answers, on processes they kill) would hold a worker idle.
 * Returns the runs that took place, in the order they ended.
 */
export async function schedule(
  checks: string[],
  suites: string[],
  parallel: number,
  start: (name: string, isSuite: boolean) => Promise<SuiteRun>,
  side: string[] = [],
): Promise<SuiteRun[]> {
  const queue = jobOrder(
    checks,
    suites.filter((n) => !side.includes(n)),
  );
  const sideQueue = suites.filter((n) => side.includes(n));
  const done: SuiteRun[] = [];
  let built: Promise<SuiteRun> | undefined;
  let buildEnded = !checks.includes('build');
  let checkFailed = false;
  const isSuite = (name: string) => !checks.includes(name);
  const next = (from: string[]): string | undefined => {
    const at = from.findIndex((name) => !isSuite(name) || buildEnded);
    return at < 0 ? undefined : from.splice(at, 1)[0];
  };
  const worker = async (from: string[]) => {
    while (from.length > 0) {
      const name = next(from);
      if (name === undefined) {
        // Only suites are left and the build still runs: they wait for it.
        await built;
        continue;
      }
      if (isSuite(name) && (checkFailed || (built !== undefined && !(await built).ok))) {
        checkFailed = true;
        continue;
      }
      const running = start(name, isSuite(name));
      if (name === 'build') {
        built = running;
        void running.then(() => (buildEnded = true));
      }
      const r = await running;
      if (!isSuite(name) && !r.ok) checkFailed = true;
      done.push(r);
    }
  };
  const pool = Array.from({ length: Math.min(parallel, queue.length) }, () => worker(queue));
  await Promise.all([...pool, worker(sideQueue)]);
  return done;
}

function startScript(name: string, isSuite: boolean): Promise<SuiteRun> {
  const script = scripts[name];
  if (script === undefined) throw new Error(`package.json has no script "${name}"`);
  const vsix = SUITES_RUN.includes(E2E) ? VSIX : undefined;
  if (!COPIED.includes(name)) return run(name, withDurations(name, isSuite ? withoutBuild(script) : checkScript(name, script, vsix)));
  // Its own copy of the work tree; its durations still go to this run's folder.
  const copy = workingCopy(ROOT, `paygate-${fileName(name)}-`);
  const removeCopy = () => rmSync(copy, { recursive: true, force: true });
  process.once('exit', removeCopy);
  return run(name, withDurations(name, script, JSON.stringify(DURATIONS)), copy).finally(() => {
    process.off('exit', removeCopy);
    removeCopy();
  });
}

async function main(): Promise<number> {
  const started = Date.now();
  rmSync(DURATIONS, { recursive: true, force: true });
  mkdirSync(DURATIONS, { recursive: true });
  rmSync(VSIX, { force: true });
  mkdirSync(path.dirname(VSIX), { recursive: true });
  const runs = await schedule(ONLY ? ['build'] : CHECKS, SUITES_RUN, MAX_PARALLEL, startScript, SIDE);
  const whole = (Date.now() - started) / 1000;
  process.stdout.write(`\n===== npm test\n${suiteTable(runs, whole, availableParallelism()).join('\n')}\n`);
  const files = readdirSync(DURATIONS)
    .filter((f) => !f.endsWith('.cpu.jsonl'))
    .flatMap((f) => {
      const suite = f.replace(/\.jsonl$/, '');
      const cpu = path.join(DURATIONS, `${suite}.cpu.jsonl`);
      return fileTimes(suite, readFileSync(path.join(DURATIONS, f), 'utf8'), existsSync(cpu) ? readFileSync(cpu, 'utf8') : '');
    });
  if (files.length > 0) process.stdout.write(`\n===== test files\n${slowestFiles(files, 15).join('\n')}\n`);
  const late = outlivedTests(files, 5000);
  if (late.length > 0) process.stdout.write(`\n${late.join('\n')}\n`);
  return runs.every((r) => r.ok) ? 0 : 1;
}

if (require.main === module) {
  void main().then((code) => process.exit(code));
}
