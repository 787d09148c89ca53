// A copy of the work tree in a temporary folder, for a suite that builds into dist/ (the pack tests: `npm
// pack` and `npm run package` write production bundles there) while the other suites read the work tree's
// development build. With the copy, that suite runs beside them instead of alone after them.
//
// The copy holds what a clone of this work tree holds: the files git tracks and the untracked ones it does
// not ignore (`git ls-files --cached --others --exclude-standard`), as they are on disk now, so an
// uncommitted edit is tested too. node_modules is a link to the work tree's (nothing is installed), and the
// test hook's transpiled cache (out/ts-cache, checked by content hash on every load) is copied along.
import { spawnSync } from 'node:child_process';
import { copyFileSync, cpSync, existsSync, lstatSync, mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/** The work tree's files a clone would have, relative to `root`, from git. */
export function workTreeFiles(root: string): string[] {
  const r = spawnSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], {
    cwd: root,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
    timeout: 60_000,
  });
  if (r.status !== 0) throw new Error(`git ls-files failed in ${root} (exit ${r.status}): ${r.stderr ?? r.error?.message ?? ''}`);
  return r.stdout.split('\0').filter((f) => f !== '');
}

/**
 * Copies `root`'s work tree into a new folder under the system's temporary folder and returns it; the
 * caller removes it. A tracked file deleted on disk is left out, as a commit of the work tree would.
 */
export function workingCopy(root: string, prefix = 'paygate-copy-'): string {
  const copy = realpathSync(mkdtempSync(path.join(tmpdir(), prefix)));
  try {
    for (const file of workTreeFiles(root)) {
      const from = path.join(root, file);
      // A deleted tracked file, or a submodule's folder: nothing to copy.
      if (!existsSync(from) || lstatSync(from).isDirectory()) continue;
      mkdirSync(path.dirname(path.join(copy, file)), { recursive: true });
      if (lstatSync(from).isSymbolicLink()) cpSync(from, path.join(copy, file), { verbatimSymlinks: true });
      else copyFileSync(from, path.join(copy, file));
    }
    const modules = path.join(root, 'node_modules');
    if (existsSync(modules)) symlinkSync(realpathSync(modules), path.join(copy, 'node_modules'), 'dir');
    const cache = path.join(root, 'out', 'ts-cache');
    // Only a head start (a missing or stale entry is transpiled on load): a suite writing it meanwhile
    // (temp file, then rename) must not fail the copy.
    if (existsSync(cache)) {
      try {
        cpSync(cache, path.join(copy, 'out', 'ts-cache'), { recursive: true, filter: (src) => !src.endsWith('.tmp') });
      } catch {
        rmSync(path.join(copy, 'out', 'ts-cache'), { recursive: true, force: true });
      }
    }
    return copy;
  } catch (err) {
    rmSync(copy, { recursive: true, force: true });
    throw err;
  }
}
