// `npm start`: a new user's first minute. Starts the local gateway (`paygate gateway`) and a real VS Code
// (code-server) with this extension in development mode on a scratch copy of examples/ (outside the
// clone, so a first try never edits the repository's files), and prints the URL to open. The editor's
// `local` environment finds that same gateway through its running-gateway file, so the terminal, curl
// and the editor share one clock. Ctrl+C stops everything. Options: --port N (code-server's port).
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { parseArgs } from 'node:util';
import { startCodeServer } from './codeServer';
import { cacheRoot, ensureCodeServer, ensureSystemTools } from './install';
import { guardRun, isStopping, onCleanup, spawnTracked, waitForOutput } from './processes';
import { defaultStateDir, RUNNING_FILE } from '../../src/local-gateway';

const ROOT = path.resolve(__dirname, '..', '..');

async function startGateway(stateDir: string): Promise<string | undefined> {
  const cli = path.join(ROOT, 'dist', 'cli.js');
  const child = spawnTracked('local gateway', process.execPath, [cli, 'gateway', '--state', stateDir], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (d: Buffer) => process.stdout.write(d));
  child.stderr?.on('data', (d: Buffer) => process.stderr.write(d));
  try {
    await waitForOutput(child, /Press Ctrl\+C to stop\./, 30_000, 'paygate gateway');
  } catch (err) {
    console.error(`[start] the local gateway did not start: ${err instanceof Error ? err.message : String(err)}`);
    return undefined;
  }
  try {
    const info = JSON.parse(fs.readFileSync(path.join(stateDir, RUNNING_FILE), 'utf8')) as { baseUrl?: string; reportBaseUrl?: string };
    return `${info.baseUrl ?? '?'} (reports ${info.reportBaseUrl ?? '?'})`;
  } catch {
    return 'running';
  }
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { port: { type: 'string' } }, strict: true });
  const port = Number(values.port ?? process.env.PAYGATE_START_PORT ?? 0);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error('--port must be a number from 0 to 65535');

  ensureSystemTools({ browser: false });
  const install = await ensureCodeServer();

  // The CLI's default state directory, so `paygate submit` in a terminal finds this gateway.
  const stateDir = defaultStateDir();
  const gateway = await startGateway(stateDir);

  // The examples to try things on: a copy, removed when this stops (auto-save would otherwise edit the clone's).
  const workspace = fs.mkdtempSync(path.join(os.tmpdir(), 'paygate-start-'));
  onCleanup('examples copy', () => fs.rmSync(workspace, { recursive: true, force: true }));
  fs.cpSync(path.join(ROOT, 'examples'), workspace, { recursive: true });

  const profileDir = path.join(cacheRoot(), 'start-profile');
  const server = await startCodeServer({
    entry: install.entry,
    node: install.node,
    workspace,
    port,
    profileDir,
    env: { PAYGATE_STATE_DIR: stateDir },
    logFile: path.join(profileDir, 'code-server.log'),
  });
  const url = server.url({ extensionPath: ROOT });
  console.log('');
  console.log('PayGate Toolkit in VS Code (code-server', install.version + ')');
  console.log(`  local gateway: ${gateway ?? 'not running (see above)'}`);
  console.log('                 the editor\'s "local" environment, `paygate` in a terminal and curl …/_local/advance all use it');
  console.log(`  examples:      ${workspace} (a scratch copy of examples/, removed when you stop)`);
  console.log(`  server log:    ${server.logFile}`);
  console.log('');
  console.log('Open this URL in a browser on this machine (the extension runs in development mode):');
  console.log('');
  console.log(`  ${url}`);
  console.log('');
  console.log('Press Ctrl+C to stop.');

  await new Promise<void>((resolve) => server.process.once('exit', () => resolve()));
  if (!isStopping()) throw new Error(`code-server stopped; see ${server.logFile}`);
}

const guard = guardRun('start', 0);
main().catch((err: unknown) => {
  console.error(`[start] ${err instanceof Error ? err.message : String(err)}`);
  return guard.finish(1);
});
