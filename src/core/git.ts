import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { withGitignoreEntry, type GitTracking } from './rules/cardDataInGit';

// Asks git where a file stands: tracked, not ignored in a work tree, ignored, or outside any work tree.
// git itself decides (its ignore rules, nested repositories, worktrees), never a guess from folder names.
// No git, or any failure, counts as outside: the check is a guard, not a gate.

/**
 * node:fs/promises, loaded when a file is first looked at: a lint that finds no card number never does, and
 * in Node 20 the module brings readline's line reader, file watchers and directory streams (issue 40).
 */
const fsp = () => import('node:fs/promises');

/** Environment variables, as git sees them (undefined: this process's own). */
export type GitEnv = Record<string, string | undefined>;

async function git(cwd: string, args: string[], env?: GitEnv): Promise<{ code: number; stdout: string }> {
  // Loaded when git is first asked: most lints never ask it, and node:child_process (with node:net and
  // the streams under it) is a fifth of a one-row lint's start-up.
  const { execFile } = await import('node:child_process');
  return new Promise((resolve) => {
    // A directory's listing may be long (gitTrackings): a cut one would read as "ignored".
    const options = { cwd, env, timeout: 10_000, windowsHide: true, maxBuffer: 256 * 1024 * 1024 };
    execFile('git', args, options, (err, stdout) => {
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

const exists = async (p: string): Promise<boolean> =>
  (await fsp()).lstat(p).then(
    () => true,
    // Only "no such entry" is an answer; anything else (no permission) leaves the question to git.
    (err: NodeJS.ErrnoException) => err.code !== 'ENOENT' && err.code !== 'ENOTDIR',
  );

/** The variables that point git at a repository or work tree, whatever the folder. */
const DISCOVERY_VARIABLES = ['GIT_DIR', 'GIT_WORK_TREE', 'GIT_COMMON_DIR'];

/**
 * Whether git could find a work tree from `dir`: a folder from it up to the root holds `.git` (a
 * repository or a worktree's link) or `HEAD` (is a repository itself), or a variable points git at one
 * (GIT_DIR, GIT_WORK_TREE, GIT_COMMON_DIR; the others, such as GIT_CEILING_DIRECTORIES, only narrow the
 * search, which this walk does not). Git finds a work tree no other way, so when this is false git would
 * answer "outside" and is not started: for a file outside any repository the check costs a few lstat
 * calls, not a process. The folder's real path is walked, as git walks it (a link into a repository is
 * in it).
 */
export async function mayBeInWorkTree(dir: string, env: GitEnv): Promise<boolean> {
  if (DISCOVERY_VARIABLES.some((name) => env[name] !== undefined && env[name] !== '')) return true;
  let at: string;
  try {
    at = await (await fsp()).realpath(dir);
  } catch {
    return true;
  }
  for (;;) {
    if ((await exists(path.join(at, '.git'))) || (await exists(path.join(at, 'HEAD')))) return true;
    const parent = path.dirname(at);
    if (parent === at) return false;
    at = parent;
  }
}

/**
 * Where each file stands, for a run over many files (`paygate lint *.rpcsv`): one git call per directory
 * instead of three per file, and none for a directory no work tree can hold (mayBeInWorkTree). `git
 * ls-files -t` lists the directory's own tracked files and its untracked ones that are not ignored (`?`);
 * a file it leaves out is ignored. A directory outside any work tree, or any failure, counts as outside.
 * Keys are the files as given, resolved. `env` is what git runs with.
 */
export async function gitTrackings(files: readonly string[], env: GitEnv): Promise<Map<string, GitTracking>> {
  const byDir = new Map<string, string[]>();
  for (const file of files) {
    const abs = path.resolve(file);
    const dir = path.dirname(abs);
    const inDir = byDir.get(dir);
    if (inDir) inDir.push(abs);
    else byDir.set(dir, [abs]);
  }
  const out = new Map<string, GitTracking>();
  // One directory after another: a run over many folders does not start a git per folder at once.
  for (const [dir, inDir] of byDir) {
    if (!(await mayBeInWorkTree(dir, env))) {
      for (const file of inDir) out.set(file, 'outside');
      continue;
    }
    // `:(glob)*` is this directory's entries only (in glob magic `*` does not cross a `/`).
    const listed = await git(dir, ['ls-files', '-z', '-t', '--cached', '--others', '--exclude-standard', '--', ':(glob)*'], env);
    const tags = new Map<string, string>();
    if (listed.code === 0) for (const entry of listed.stdout.split('\0')) if (entry !== '') tags.set(entry.slice(2), entry[0]);
    for (const file of inDir) {
      const tag = tags.get(path.basename(file));
      if (listed.code !== 0) out.set(file, 'outside');
      else if (tag === undefined) out.set(file, 'ignored');
      else out.set(file, tag === '?' ? 'unignored' : 'tracked');
    }
  }
  return out;
}

/** The file a `file:` URI names; undefined for any other scheme (untitled, virtual documents). */
export function fileOfUri(uri: string): string | undefined {
  if (!uri.startsWith('file:')) return undefined;
  try {
    return fileURLToPath(uri);
  } catch {
    return undefined;
  }
}

export const fileNameOf = (file: string): string => path.basename(file);

/**
 * Adds `file` to the `.gitignore` at the root of its work tree (one line naming exactly this file) and
 * returns that .gitignore's path.
 */
export async function addToGitignore(root: string, file: string): Promise<string> {
  // git names the root with links resolved, so the file is too, or the entry could start with `..`.
  const { readFile, realpath, writeFile } = await fsp();
  const real = await realpath(file);
  const gitignore = path.join(root, '.gitignore');
  let text = '';
  try {
    text = await readFile(gitignore, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  await writeFile(gitignore, withGitignoreEntry(text, path.relative(root, real).split(path.sep).join('/')));
  return gitignore;
}
