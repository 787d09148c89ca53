import { execFile } from 'node:child_process';
import { delimiter } from 'node:path';

// Child processes for the pack tests: every one bounded by a timeout, none inheriting the settings
// `npm run` passes down (npm_config_local_prefix would point a nested `npm install` back at this
// repository, and node_modules/.bin on PATH would find tools other than the installed ones).

export interface RunResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** The environment without npm's per-run variables (lower-case npm_*), this repository's bins or CI log modes. */
export function cleanEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (k.startsWith('npm_') || k === 'INIT_CWD' || k === 'GITHUB_ACTIONS') continue;
    env[k] = v;
  }
  env.PATH = (process.env.PATH ?? '')
    .split(delimiter)
    .filter((p) => !/node_modules[\\/]\.bin|node-gyp-bin/.test(p))
    .join(delimiter);
  // No update check (a request to the registry, and a notice on stderr), no audit, no funding notes.
  return { ...env, npm_config_update_notifier: 'false', npm_config_audit: 'false', npm_config_fund: 'false', ...extra };
}

export function run(
  command: string,
  args: string[],
  options: { cwd: string; env?: NodeJS.ProcessEnv; timeoutMs: number },
): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    execFile(
      command,
      args,
      {
        cwd: options.cwd,
        env: options.env ?? cleanEnv(),
        timeout: options.timeoutMs,
        killSignal: 'SIGKILL',
        maxBuffer: 64 * 1024 * 1024,
        encoding: 'utf8',
      },
      (err, stdout, stderr) => {
        if (err && (err as NodeJS.ErrnoException).code === 'ENOENT') return reject(new Error(`${command}: not found`));
        if (err && err.killed)
          return reject(new Error(`${command} ${args.join(' ')}: no answer within ${options.timeoutMs} ms\n${stdout}\n${stderr}`));
        let code: number | null = 0;
        if (err) code = typeof err.code === 'number' ? err.code : null;
        resolve({ code, stdout, stderr });
      },
    );
  });
}

/** stderr without npm's notices about this machine's own npmrc ("Unknown user config …"). */
export function ownStderr(stderr: string): string {
  return stderr
    .split('\n')
    .filter((l) => !/^npm warn Unknown (user|env|project|builtin|global) config /.test(l))
    .join('\n')
    .trim();
}
