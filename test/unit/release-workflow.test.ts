import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';

// The release workflow cannot run here (it needs a tag push on the repository host), so its shape is
// checked: it builds with the npm scripts CI runs, and each registry is published to only when its token
// is configured.

interface Step {
  name?: string;
  run?: string;
  uses?: string;
  if?: string;
  env?: Record<string, string>;
}
interface Workflow {
  on: { push: { tags: string[] } };
  jobs: Record<string, { env?: Record<string, string>; steps: Step[] }>;
}

const root = join(__dirname, '..', '..');
const workflow = parse(readFileSync(join(root, '.github', 'workflows', 'release.yml'), 'utf8')) as Workflow;
const scripts = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;
const job = Object.values(workflow.jobs)[0];
const runs = job.steps.map((s) => s.run ?? '');

test('runs on a version tag only', () => {
  assert.deepEqual(workflow.on.push.tags, ['v*.*.*']);
});

test('every npm script the workflow runs exists in package.json', () => {
  const used = runs.flatMap((r) => [...r.matchAll(/npm run ([\w:-]+)/g)].map((m) => m[1]));
  assert.ok(used.length > 0);
  assert.deepEqual(
    used.filter((s) => !(s in scripts)),
    [],
  );
});

test('tests as CI does, then builds the VSIX and the tarball with the scripts the pack test uses', () => {
  const ci = runs.findIndex((r) => r.trim() === 'bash .ci/run');
  const vsix = runs.findIndex((r) => /^npm run package\b/.test(r.trim()));
  const tarball = runs.findIndex((r) => r.trim() === 'npm pack');
  assert.ok(ci >= 0 && vsix > ci && tarball > ci, `order: .ci/run ${ci}, package ${vsix}, pack ${tarball}`);
  // The pack test builds the same two ways (test/pack/*.test.ts).
  assert.match(readFileSync(join(root, 'test', 'pack', 'pack.test.ts'), 'utf8'), /run\('npm', \['pack'/);
  assert.match(readFileSync(join(root, 'test', 'pack', 'vsix.test.ts'), 'utf8'), /run\('npm', \['run', 'package'/);
  const attach = runs.findIndex((r) => r.includes('gh release create') && r.includes('.vsix') && r.includes('.tgz'));
  assert.ok(attach > vsix && attach > tarball, 'both files are attached to the release after they are built');
});

test('each publish step is guarded by its own token, which comes from a secret', () => {
  const publishes: [RegExp, string, string][] = [
    [/vsce publish/, 'VSCE_PAT', 'VSCE_PAT'],
    [/ovsx(@[\d.]+)? publish/, 'OVSX_PAT', 'OVSX_PAT'],
    [/npm publish/, 'NODE_AUTH_TOKEN', 'NPM_TOKEN'],
  ];
  for (const [command, variable, secret] of publishes) {
    const steps = job.steps.filter((s) => s.run && command.test(s.run));
    assert.equal(steps.length, 1, `one step runs ${command}`);
    assert.equal(steps[0].if, `env.${variable} != ''`, `${command} runs only with ${variable} set`);
    assert.equal(job.env?.[variable], `\${{ secrets.${secret} }}`);
  }
  const unguarded = job.steps.filter((s) => s.run && /publish/.test(s.run) && !s.if);
  assert.deepEqual(unguarded, []);
});
