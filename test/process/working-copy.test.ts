// The copy of the work tree `npm test` runs the pack tests in (test/tools/working-copy.ts): what a clone
// would hold, as it is on disk (an uncommitted edit included), nothing git ignores, node_modules a link to
// the work tree's, and the original left alone.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import {
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readlinkSync,
  realpathSync,
  rmSync,
  existsSync,
  writeFileSync,
  statSync,
  readdirSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { workingCopy } from '../tools/working-copy';

function git(cwd: string, ...args: string[]) {
  execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.invalid', ...args], { cwd, stdio: 'ignore', timeout: 30_000 });
}

test('the copy holds the tracked and the untracked files as they are on disk, not the ignored ones, and links node_modules', () => {
  const root = realpathSync(mkdtempSync(path.join(tmpdir(), 'paygate-copy-test-')));
  let copy: string | undefined;
  try {
    git(root, 'init', '-q');
    mkdirSync(path.join(root, 'src', 'deep'), { recursive: true });
    mkdirSync(path.join(root, 'dist'));
    mkdirSync(path.join(root, 'node_modules', 'lib'), { recursive: true });
    mkdirSync(path.join(root, 'out', 'ts-cache', 'src'), { recursive: true });
    writeFileSync(path.join(root, '.gitignore'), 'dist/\nnode_modules/\nout/\n');
    writeFileSync(path.join(root, 'src', 'deep', 'a.ts'), 'committed\n');
    writeFileSync(path.join(root, 'gone.ts'), 'committed, then deleted\n');
    writeFileSync(path.join(root, 'run.sh'), '#!/bin/sh\n', { mode: 0o755 });
    git(root, 'add', '.');
    git(root, 'commit', '-q', '-m', 'first');
    writeFileSync(path.join(root, 'src', 'deep', 'a.ts'), 'edited, not committed\n');
    rmSync(path.join(root, 'gone.ts'));
    writeFileSync(path.join(root, 'src', 'new.ts'), 'untracked\n');
    writeFileSync(path.join(root, 'dist', 'cli.js'), 'built\n');
    writeFileSync(path.join(root, 'node_modules', 'lib', 'index.js'), 'installed\n');
    writeFileSync(path.join(root, 'out', 'ts-cache', 'src', 'new.js'), 'cached\n');
    writeFileSync(path.join(root, 'out', 'ts-cache', 'src', 'new.js.123.tmp'), 'half written\n');
    writeFileSync(path.join(root, 'out', 'other.json'), 'ignored\n');

    copy = workingCopy(root);
    assert.ok(copy.startsWith(realpathSync(tmpdir())), copy);
    assert.equal(readFileSync(path.join(copy, 'src', 'deep', 'a.ts'), 'utf8'), 'edited, not committed\n');
    assert.equal(readFileSync(path.join(copy, 'src', 'new.ts'), 'utf8'), 'untracked\n');
    assert.equal(existsSync(path.join(copy, 'gone.ts')), false, 'a deleted file stays deleted');
    assert.equal(existsSync(path.join(copy, 'dist')), false, 'the build output is not copied');
    assert.equal(existsSync(path.join(copy, 'out', 'other.json')), false);
    assert.equal(statSync(path.join(copy, 'run.sh')).mode & 0o777, 0o755);
    assert.equal(readlinkSync(path.join(copy, 'node_modules')), path.join(root, 'node_modules'));
    assert.equal(readFileSync(path.join(copy, 'node_modules', 'lib', 'index.js'), 'utf8'), 'installed\n');
    // The test hook's cache comes along, without a writer's temp file.
    assert.deepEqual(readdirSync(path.join(copy, 'out', 'ts-cache', 'src')), ['new.js']);
    assert.deepEqual(readdirSync(copy).sort(), ['.gitignore', 'node_modules', 'out', 'run.sh', 'src']);

    // Building in the copy leaves the work tree as it was.
    writeFileSync(path.join(copy, 'src', 'deep', 'a.ts'), 'changed in the copy\n');
    mkdirSync(path.join(copy, 'dist'));
    writeFileSync(path.join(copy, 'dist', 'cli.js'), 'production\n');
    assert.equal(readFileSync(path.join(root, 'src', 'deep', 'a.ts'), 'utf8'), 'edited, not committed\n');
    assert.equal(readFileSync(path.join(root, 'dist', 'cli.js'), 'utf8'), 'built\n');
  } finally {
    if (copy) rmSync(copy, { recursive: true, force: true });
    rmSync(root, { recursive: true, force: true });
  }
});

test('outside a git work tree the copy fails and leaves no folder behind', () => {
  const root = realpathSync(mkdtempSync(path.join(tmpdir(), 'paygate-copy-test-')));
  const prefix = `paygate-copy-none-${process.pid}-`;
  try {
    assert.throws(() => workingCopy(root, prefix), /git ls-files failed/);
    assert.deepEqual(
      readdirSync(tmpdir()).filter((f) => f.startsWith(prefix)),
      [],
    );
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});
