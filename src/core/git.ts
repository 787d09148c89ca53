import { execFile } from 'node:child_process';
import * as path from 'node:path';
import type { GitTracking } from './rules/cardDataInGit';

// Asks git where a file stands: tracked, not ignored in a work tree, ignored, or outside any work tree.
// git itself decides (its ignore rules, nested repositories, worktrees), never a guess from folder names.
// No git, or any failure, counts as outside: the check is a guard, not a gate.

function git(cwd: string, args: string[]): Promise<{ code: number; stdout: string }> {
  return new Promise((resolve) => {
    execFile('git', args, { cwd, timeout: 10_000, windowsHide: true }, (err, stdout) => {
      let code = 0;
      if (err) code = typeof (err as { code?: unknown }).code === 'number' ? (err as { code: number }).code : -1;
      resolve({ code, stdout: String(stdout) });
    });
  });
}

export interface GitFileStatus {
  tracking: GitTracking;
  /** The work tree's root, when the file is in one. */
  root?: string;
}

export async function gitFileStatus(file: string): Promise<GitFileStatus> {
  const dir = path.dirname(path.resolve(file));
  const top = await git(dir, ['rev-parse', '--show-toplevel']);
  if (top.code !== 0) return { tracking: 'outside' };
  const root = top.stdout.trim();
  const name = path.basename(file);
  const tracked = await git(dir, ['ls-files', '--error-unmatch', '--', name]);
  if (tracked.code === 0) return { tracking: 'tracked', root };
  const ignored = await git(dir, ['check-ignore', '-q', '--', name]);
  if (ignored.code === 0) return { tracking: 'ignored', root };
  if (ignored.code === 1) return { tracking: 'unignored', root };
  return { tracking: 'outside' };
}
