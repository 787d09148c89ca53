import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { CHECKS, LAST, SUITES, slowestFiles, withDurations, withoutBuild } from '../tools/test-all';

const scripts: Record<string, string> = JSON.parse(readFileSync(path.join(__dirname, '..', '..', 'package.json'), 'utf8')).scripts;

test('npm test runs every check and every suite: nothing is dropped by running them side by side', () => {
  const run = [...CHECKS, ...SUITES, ...LAST];
  for (const name of run) assert.ok(scripts[name], `package.json has "${name}"`);
  // Every test:* script is in the run, except the ones that repeat a part of it or need what CI lacks.
  const elsewhere = new Set(['test:e2e:person', 'test:integration']);
  const missing = Object.keys(scripts).filter((n) => n.startsWith('test:') && !elsewhere.has(n) && !run.includes(n));
  assert.deepEqual(missing, []);
  assert.equal(new Set(run).size, run.length, 'each once');
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

test('each node:test suite gets the durations reporter beside its spec output; other scripts are kept', () => {
  assert.equal(
    withDurations('test:unit', 'node --import tsx --test --test-reporter=spec test/unit/*.test.ts'),
    'node --import tsx --test --test-reporter=spec --test-reporter-destination=stdout --test-reporter=./test/tools/test-durations.mjs --test-reporter-destination=out/test-durations/test-unit.jsonl test/unit/*.test.ts',
  );
  assert.equal(withDurations('test:e2e', 'tsx test/e2e/run.ts'), 'tsx test/e2e/run.ts');
  for (const name of [...SUITES, ...LAST]) {
    if (scripts[name].includes('--test-reporter=spec')) assert.match(withDurations(name, scripts[name]), /test-durations\.mjs/, name);
  }
});

test('the slowest test files come first, across the suites', () => {
  const line = (file: string, ms: number) => JSON.stringify({ file: path.join(__dirname, file), ms });
  const rows = slowestFiles(
    [
      { suite: 'test-unit', text: `${line('a.test.ts', 1200)}\n${line('b.test.ts', 300)}\n` },
      { suite: 'test-process', text: `${line('../process/c.test.ts', 45_000)}\n` },
    ],
    2,
  );
  assert.deepEqual(rows, ['   45.0 s  test/process/c.test.ts  (test-process)', '    1.2 s  test/unit/a.test.ts  (test-unit)']);
});
