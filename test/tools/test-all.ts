// `npm test`: every suite, with the independent ones side by side. On two cores the suites spend much of
// their time waiting (on a browser, an editor, a local gateway's clock or a child process), so running a
// few at once takes the whole run from the sum of the suites' times towards the longest of them.
//
// 1. The checks and one development build, side by side.
// 2. The suites, at most MAX_PARALLEL at a time, longest first. Each runs its package.json script without
//    its leading build (`node esbuild.js && …`, `npm run build && …`): stage 1 built once for all of them.
// 3. The pack tests alone, last: they build production bundles into dist/, which the others read.
//
// Each suite's output is printed whole when it ends, so two suites' lines never interleave. A failed
// check stops the run there; otherwise every suite has its turn, and the run fails when any failed.
// The run closes with each suite's time and the slowest test files of the node:test suites (each such
// suite gets a second reporter, test/tools/test-durations.mjs, writing its files' times to out/).
// Usage: tsx test/tools/test-all.ts [--parallel N]

import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import path from 'node:path';

const ROOT = path.join(__dirname, '..', '..');
const scripts: Record<string, string> = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')).scripts;

export const CHECKS = ['typecheck', 'lint', 'format:check', 'knip', 'build'];
export const SUITES = ['test:e2e', 'test:process', 'test:faults', 'test:webview', 'test:unit', 'test:lsp', 'test:precommit'];
export const LAST = ['test:pack'];

const flag = process.argv.indexOf('--parallel');
const MAX_PARALLEL = flag > 0 ? Math.max(1, Number(process.argv[flag + 1]) || 1) : 3;

/** A suite's script without the build in front of it. */
export function withoutBuild(script: string): string {
  return script.replace(/^(node esbuild\.js|npm run build) && /, '');
}

const DURATIONS = path.join(ROOT, 'out', 'test-durations');

/**
 * A node:test suite's script with a second reporter that writes each test file's time to
 * out/test-durations/NAME.jsonl; its spec reporter stays on standard output. Other scripts as they are.
 */
export function withDurations(name: string, script: string): string {
  return script.replace(
    /--test-reporter=spec(?! --test-reporter-destination)/,
    `--test-reporter=spec --test-reporter-destination=stdout --test-reporter=./test/tools/test-durations.mjs --test-reporter-destination=out/test-durations/${name.replace(/\W/g, '-')}.jsonl`,
  );
}

/** The slowest test files of the run, from what each suite's durations reporter wrote. */
export function slowestFiles(lines: { suite: string; text: string }[], count: number): string[] {
  const files = lines.flatMap(({ suite, text }) =>
    text
      .split('\n')
      .filter((l) => l.trim() !== '')
      .map((l) => ({ suite, ...(JSON.parse(l) as { file: string; ms: number }) })),
  );
  return files
    .sort((a, b) => b.ms - a.ms)
    .slice(0, count)
    .map((f) => `${(f.ms / 1000).toFixed(1).padStart(7)} s  ${path.relative(ROOT, f.file)}  (${f.suite})`);
}

interface Run {
  name: string;
  ok: boolean;
  seconds: number;
}

function run(name: string, command: string): Promise<Run> {
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn(command, { cwd: ROOT, shell: true, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, FORCE_COLOR: '0' } });
    const out: Buffer[] = [];
    child.stdout.on('data', (b: Buffer) => out.push(b));
    child.stderr.on('data', (b: Buffer) => out.push(b));
    child.on('close', (code) => {
      const seconds = (Date.now() - started) / 1000;
      const ok = code === 0;
      process.stdout.write(`\n===== ${name}: ${ok ? 'passed' : `FAILED (exit ${code})`} in ${seconds.toFixed(0)} s\n`);
      process.stdout.write(Buffer.concat(out));
      resolve({ name, ok, seconds });
    });
  });
}

async function stage(names: string[], parallel: number, strip: boolean): Promise<Run[]> {
  const queue = [...names];
  const done: Run[] = [];
  const worker = async () => {
    for (let name = queue.shift(); name !== undefined; name = queue.shift()) {
      const script = scripts[name];
      if (script === undefined) throw new Error(`package.json has no script "${name}"`);
      done.push(await run(name, withDurations(name, strip ? withoutBuild(script) : script)));
    }
  };
  await Promise.all(Array.from({ length: Math.min(parallel, names.length) }, worker));
  return done;
}

async function main(): Promise<number> {
  const started = Date.now();
  rmSync(DURATIONS, { recursive: true, force: true });
  mkdirSync(DURATIONS, { recursive: true });
  const runs = await stage(CHECKS, 2, false);
  // A failed check or build stops the run, as before: the suites would only repeat its failure, slower.
  if (runs.every((r) => r.ok)) {
    for (const r of await stage(SUITES, MAX_PARALLEL, true)) runs.push(r);
    for (const r of await stage(LAST, 1, false)) runs.push(r);
  }
  process.stdout.write('\n===== npm test\n');
  for (const r of runs) process.stdout.write(`${r.ok ? 'passed' : 'FAILED'}  ${r.seconds.toFixed(0).padStart(4)} s  ${r.name}\n`);
  process.stdout.write(`whole run: ${((Date.now() - started) / 1000).toFixed(0)} s\n`);
  const reports = readdirSync(DURATIONS).map((f) => ({
    suite: f.replace(/\.jsonl$/, ''),
    text: readFileSync(path.join(DURATIONS, f), 'utf8'),
  }));
  if (reports.length > 0) process.stdout.write(`\n===== slowest test files\n${slowestFiles(reports, 15).join('\n')}\n`);
  return runs.every((r) => r.ok) ? 0 : 1;
}

if (require.main === module) {
  void main().then((code) => process.exit(code));
}
