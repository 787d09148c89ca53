import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { benchRegions, summary } from '../bench/targets';
import { machineHeader, targetLines, targetsIn, type Machine } from '../bench/table';

// The README's Performance section is what `npm run bench` writes: every bench that writes a table has its
// markers there and is run by that one command; every table says where and when it was measured; the
// targets at the section's top are the ones the tables record (`npm run bench:targets` rewrites them).
const root = join(__dirname, '..', '..');
const readme = readFileSync(join(root, 'README.md'), 'utf8');
const scripts = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;

/** Each bench file and the README region it writes. */
const writers = readdirSync(join(root, 'test', 'bench'))
  .filter((f) => f.endsWith('.ts'))
  .flatMap((file) =>
    [...readFileSync(join(root, 'test', 'bench', file), 'utf8').matchAll(/writeReadmeSection\(\s*'([a-z-]+)'/g)].map((m) => ({
      file,
      name: m[1],
    })),
  );

/** The commands `npm run NAME` runs, with every `npm run` inside expanded. */
function expand(name: string, seen = new Set<string>()): string {
  if (seen.has(name)) return '';
  seen.add(name);
  return (scripts[name] ?? '').replace(/npm run ([a-z:-]+)/g, (_m, inner: string) => expand(inner, seen));
}

const HEADER =
  /^\*Measured \d{4}-\d{2}-\d{2} on .+ \(\d+ cores\), Node v[\d.]+, commit `[^`]+`; load average [\d.]+ \/ [\d.]+ \/ [\d.]+ \(1 \/ 5 \/ 15 min\) as the run ended\.\*$/;

test('every bench that writes a README table has its markers there, and npm run bench runs it', () => {
  assert.ok(writers.length >= 10, writers.map((w) => w.file).join(', '));
  const bench = expand('bench');
  for (const { file, name } of writers) {
    assert.ok(readme.includes(`<!-- bench:${name}:start -->`) && readme.includes(`<!-- bench:${name}:end -->`), `README has bench:${name}`);
    assert.ok(bench.includes(`test/bench/${file}`), `npm run bench runs test/bench/${file}`);
  }
});

test('every table in the Performance section starts with the machine, the date, the commit and the load average', () => {
  const regions = benchRegions(readme);
  assert.deepEqual(
    regions.map((r) => r.name).sort(),
    writers
      .map((w) => w.name)
      .filter((n) => n !== 'targets')
      .sort(),
    'one region per bench table',
  );
  for (const r of [
    ...regions,
    { name: 'targets', text: /<!-- bench:targets:start -->\n([\s\S]*?)<!-- bench:targets:end -->/.exec(readme)?.[1] ?? '' },
  ])
    assert.match(r.text.split('\n')[0], HEADER, `bench:${r.name}`);
  const m: Machine = {
    cpu: 'Some CPU @ 2.00GHz',
    cores: 2,
    node: 'v20.20.2',
    date: '2026-11-26',
    commit: 'abc1234567',
    load: [1.5, 0.25, 3],
  };
  assert.match(machineHeader(m), HEADER);
});

test('the targets at the top of the Performance section are the ones the tables record (npm run bench:targets)', () => {
  const region = /<!-- bench:targets:start -->\n([\s\S]*?)\n<!-- bench:targets:end -->/.exec(readme);
  assert.ok(region, 'README has bench:targets');
  const body = region[1].split('\n').slice(2).join('\n');
  assert.equal(body, summary(readme));
  assert.ok(targetsIn(readme).length > 0, 'the tables record their targets');
});

test('a missed target is said plainly, beside its figure', () => {
  const lines = targetLines([
    { what: 'lint ÷ uDSV', target: '≤ 1.00×', figure: '1.12×', met: false },
    { what: 'git check', target: '≤ 1.10×', figure: '1.02×', met: true },
  ]);
  assert.ok(lines.includes('| lint ÷ uDSV ≤ 1.00× | 1.12× | **missed** |'));
  assert.ok(lines.includes('| git check ≤ 1.10× | 1.02× | met |'));
  assert.ok(lines.includes('**Missed: lint ÷ uDSV (1.12×, target ≤ 1.00×).**'));
  assert.deepEqual(
    targetsIn(lines.join('\n')).map((t) => t.met),
    [false, true],
  );
});
