import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { spawnSync } from 'node:child_process';
import { CHECKS, COPIED, SUITES, checkScript, jobOrder, schedule, timed, withDurations, withoutBuild } from '../tools/test-all';
import { childCpuSeconds, fileTimes, outlivedTests, shown, slowestFiles, suiteTable } from '../tools/test-report';

const scripts: Record<string, string> = JSON.parse(readFileSync(path.join(__dirname, '..', '..', 'package.json'), 'utf8')).scripts;

test('npm test runs every check and every suite: nothing is dropped by running them side by side', () => {
  const run = [...CHECKS, ...SUITES];
  for (const name of run) assert.ok(scripts[name], `package.json has "${name}"`);
  // Every test:* script is in the run, except the ones that repeat a part of it or need what CI lacks.
  const elsewhere = new Set(['test:e2e:person', 'test:integration']);
  const missing = Object.keys(scripts).filter((n) => n.startsWith('test:') && !elsewhere.has(n) && !run.includes(n));
  assert.deepEqual(missing, []);
  assert.equal(new Set(run).size, run.length, 'each once');
  // The pack tests build production bundles into dist/: they run in the pool, on a copy of the work tree.
  assert.ok(COPIED.includes('test:pack') && COPIED.every((n) => SUITES.includes(n)));
});

test('a suite runs without its own build, which the first stage made once; the rest of its command is kept', () => {
  assert.equal(withoutBuild('node esbuild.js && node --test a.ts'), 'node --test a.ts');
  assert.equal(withoutBuild('npm run build && tsx test/e2e/run.ts'), 'tsx test/e2e/run.ts');
  assert.equal(withoutBuild('tsx test/precommit/run.ts'), 'tsx test/precommit/run.ts');
  assert.equal(
    withoutBuild('node esbuild.js --production && x'),
    'node esbuild.js --production && x',
    'only the development build ran first',
  );
});

test('with the e2e suite in the run, the build stage makes the VSIX first, then the development build; otherwise scripts as they are', () => {
  assert.equal(checkScript('build', 'node esbuild.js', '/x/out/p.vsix'), 'npm run package -- -o "/x/out/p.vsix" && node esbuild.js');
  assert.equal(checkScript('build', 'node esbuild.js', undefined), 'node esbuild.js');
  assert.equal(checkScript('lint', 'eslint .', '/x/out/p.vsix'), 'eslint .');
  assert.ok(CHECKS.includes('build') && SUITES.includes('test:e2e'));
});

test('each node:test suite gets the durations reporter beside its spec output, and the CPU probe; other scripts are kept', () => {
  assert.equal(
    withDurations('test:unit', 'node --require ./test/tools/ts-hook.js --test --test-reporter=spec test/unit/*.test.ts'),
    'node --require ./test/tools/ts-hook.js --require ./test/tools/test-cpu.js --test --test-reporter=spec --test-reporter-destination=stdout --test-reporter=./test/tools/test-durations.mjs --test-reporter-destination=out/test-durations/test-unit.jsonl test/unit/*.test.ts',
  );
  assert.equal(withDurations('test:e2e', 'tsx test/e2e/run.ts'), 'tsx test/e2e/run.ts');
  // A suite run in a copy of the work tree writes its durations into this run's folder, named whole.
  assert.match(
    withDurations('test:pack', scripts['test:pack'], '"/r/out/test-durations"'),
    / --test-reporter-destination="\/r\/out\/test-durations"\/test-pack\.jsonl /,
  );
  for (const name of SUITES) {
    if (scripts[name].includes('--test-reporter=spec')) assert.match(withDurations(name, scripts[name]), /test-durations\.mjs/, name);
  }
});

test('the slowest test files come first, across the suites, by wall time and then by CPU time', () => {
  const line = (file: string, ms: number) => JSON.stringify({ file: path.join(__dirname, file), ms });
  const cpu = (file: string, wallMs: number, cpuMs: number) => JSON.stringify({ file: path.join(__dirname, file), wallMs, cpuMs });
  const files = [
    ...fileTimes('test-unit', `${line('a.test.ts', 1200)}\n${line('b.test.ts', 300)}\n`, `${cpu('a.test.ts', 1900, 1700)}\n`),
    ...fileTimes('test-process', `${line('../process/c.test.ts', 45_000)}\n`, `${cpu('../process/c.test.ts', 46_000, 800)}\n`),
  ];
  assert.deepEqual(slowestFiles(files, 2), [
    'slowest test files by wall time:',
    '   wall       CPU   file  (suite)',
    '   46.0 s     0.8 s  test/process/c.test.ts  (test-process)',
    '    1.9 s     1.7 s  test/unit/a.test.ts  (test-unit)',
    '',
    'costliest test files by CPU time (with the processes they waited for):',
    '   wall       CPU   file  (suite)',
    '    1.9 s     1.7 s  test/unit/a.test.ts  (test-unit)',
    '   46.0 s     0.8 s  test/process/c.test.ts  (test-process)',
  ]);
  // A file of a suite run in a copy of the work tree is named from its test/ folder on.
  assert.equal(shown('/tmp/paygate-test-pack-Ab1/test/pack/pack.test.ts'), 'test/pack/pack.test.ts');
  assert.equal(shown(path.join(__dirname, 'a.test.ts')), 'test/unit/a.test.ts');
  // A file without a process line (its probe did not run) keeps its tests' sum and no CPU time.
  assert.deepEqual(fileTimes('s', line('b.test.ts', 300), ''), [
    { suite: 's', file: path.join(__dirname, 'b.test.ts'), wallMs: 300, testsMs: 300 },
  ]);
});

test('files whose process outlived their tests by more than the gap are listed, the longest gap first', () => {
  const line = (file: string, ms: number) => JSON.stringify({ file: path.join(__dirname, file), ms });
  const cpu = (file: string, wallMs: number) => JSON.stringify({ file: path.join(__dirname, file), wallMs, cpuMs: 100 });
  const files = fileTimes(
    'test-process',
    [line('a.test.ts', 27_000), line('b.test.ts', 9_000), line('c.test.ts', 1_000)].join('\n'),
    [cpu('a.test.ts', 88_000), cpu('b.test.ts', 12_000), cpu('c.test.ts', 20_000)].join('\n'),
  );
  assert.deepEqual(outlivedTests(files, 5000), [
    'test files whose process lived over 5 s past their tests (a timer or handle left open?):',
    '   wall     tests   file  (suite)',
    '   88.0 s    27.0 s  test/unit/a.test.ts  (test-process)',
    '   20.0 s     1.0 s  test/unit/c.test.ts  (test-process)',
  ]);
  assert.deepEqual(outlivedTests(files, 100_000), []);
});

test("a suite's CPU time is bash's `times` for its children, and its command's exit status is kept", () => {
  assert.equal(childCpuSeconds('0m0.004s 0m0.001s\n1m2.50s 0m0.25s\n'), 62.75);
  assert.equal(childCpuSeconds('garbled'), undefined);
  const r = spawnSync(
    'bash',
    ['-c', timed(`${JSON.stringify(process.execPath)} -e "for (const t = Date.now(); Date.now() - t < 300;); process.exit(3)"`)],
    {
      stdio: ['ignore', 'ignore', 'ignore', 'pipe'],
      encoding: 'utf8',
    },
  );
  assert.equal(r.status, 3);
  const seconds = childCpuSeconds(String(r.output[3]));
  assert.ok(seconds !== undefined && seconds > 0, String(r.output[3]));
});

test('the suite table gives each suite its wall and CPU time, and the CPU sum over the cores', () => {
  const table = suiteTable(
    [
      { name: 'test:unit', ok: true, seconds: 100.4, cpu: 150 },
      { name: 'test:e2e', ok: false, seconds: 300, cpu: 50 },
      { name: 'lint', ok: true, seconds: 20 },
    ],
    400,
    2,
  );
  assert.deepEqual(table, [
    'result    wall    CPU  suite',
    'passed   100 s   150 s  test:unit',
    'FAILED   300 s    50 s  test:e2e',
    'passed    20 s     - s  lint',
    'whole run: 400 s wall; CPU of the suites 200 s, 100 s on 2 cores at best',
  ]);
});

/** A stand-in for a script: ends `ok` after `ms`, noting when it started and ended. */
function fakeRuns(outcomes: Record<string, { ms: number; ok?: boolean }>) {
  const log: string[] = [];
  const start = async (name: string) => {
    log.push(`start ${name}`);
    await new Promise((r) => setTimeout(r, outcomes[name]?.ms ?? 1));
    log.push(`end ${name}`);
    return { name, ok: outcomes[name]?.ok ?? true, seconds: 0 };
  };
  return { log, start };
}

test('the checks and the suites share one pool: a suite starts once the build passed, while a last check still runs', async () => {
  const { log, start } = fakeRuns({ build: { ms: 20 }, lint: { ms: 120 }, typecheck: { ms: 5 } });
  const runs = await schedule(['build', 'lint', 'typecheck'], ['test:a', 'test:b'], 3, start);
  assert.deepEqual(runs.map((r) => r.name).sort(), ['build', 'lint', 'test:a', 'test:b', 'typecheck']);
  assert.ok(log.indexOf('start test:a') > log.indexOf('end build'), log.join(', '));
  assert.ok(log.indexOf('start test:a') < log.indexOf('end lint'), `a free worker does not wait for lint: ${log.join(', ')}`);
});

test('a failed build starts no suite; a failed check starts no further suite', async () => {
  const broken = fakeRuns({ build: { ms: 5, ok: false }, lint: { ms: 5 } });
  const runs = await schedule(['build', 'lint'], ['test:a'], 3, broken.start);
  assert.deepEqual(runs.map((r) => r.name).sort(), ['build', 'lint']);
  const failing = fakeRuns({ build: { ms: 1 }, lint: { ms: 5, ok: false }, 'test:a': { ms: 30 } });
  const after = await schedule(['build', 'lint'], ['test:a', 'test:b'], 2, failing.start);
  assert.deepEqual(
    after.map((r) => r.name),
    ['build', 'lint', 'test:a'],
    `test:a started beside lint and ends; test:b never starts: ${failing.log.join(', ')}`,
  );
});

test('the longest suite starts the moment the build passed, ahead of the checks still waiting; a worker never idles behind the build', async () => {
  assert.deepEqual(jobOrder(['build', 'lint', 'knip'], ['test:long', 'test:short']), ['build', 'test:long', 'lint', 'knip', 'test:short']);
  const { log, start } = fakeRuns({ build: { ms: 20 }, lint: { ms: 60 }, knip: { ms: 60 }, 'test:long': { ms: 5 } });
  await schedule(['build', 'lint', 'knip'], ['test:long', 'test:short'], 2, start);
  // Two workers: the build and lint first (the suite cannot start yet, so the free worker takes a check),
  // then test:long as soon as the build ended, before knip, which was queued ahead of it as a check.
  assert.deepEqual(log.slice(0, 4), ['start build', 'start lint', 'end build', 'start test:long'], log.join(', '));
  assert.ok(log.indexOf('start knip') > log.indexOf('start test:long'), log.join(', '));
});

test('a suite of the side lane runs beside the pool once the build passed, and not after a failed build', async () => {
  const { log, start } = fakeRuns({ build: { ms: 10 }, lint: { ms: 80 }, 'test:waits': { ms: 20 } });
  const runs = await schedule(['build', 'lint'], ['test:a', 'test:waits'], 1, start, ['test:waits']);
  assert.deepEqual(runs.map((r) => r.name).sort(), ['build', 'lint', 'test:a', 'test:waits']);
  // One pool worker, busy with the build then lint: the side suite does not wait for it.
  assert.ok(log.indexOf('start test:waits') > log.indexOf('end build'), log.join(', '));
  assert.ok(log.indexOf('end test:waits') < log.indexOf('end lint'), log.join(', '));
  const broken = fakeRuns({ build: { ms: 5, ok: false } });
  const none = await schedule(['build'], ['test:a', 'test:waits'], 1, broken.start, ['test:waits']);
  assert.deepEqual(
    none.map((r) => r.name),
    ['build'],
  );
});
