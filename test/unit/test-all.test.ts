import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { CHECKS, LAST, SUITES, withoutBuild } from '../tools/test-all';

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
