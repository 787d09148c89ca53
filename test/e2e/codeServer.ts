// Starts code-server on loopback with a throwaway profile and builds the workbench URL whose payload
// loads our extension in development mode (and, for the suite, the test runner module). Server flags
// such as --extensionDevelopmentPath are refused by code-server; the payload is what works.
import type { ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { onCleanup, spawnTracked, waitForOutput } from './processes';
import { LONG } from './workbench';

export interface CodeServer {
  origin: string;
  port: number;
  process: ChildProcess;
  /** folder open in the workbench */
  workspace: string;
  /** workbench URL with the extension under development (and its tests, when given) */
  url(opts: { extensionPath: string; extensionTestsPath?: string }): string;
  logFile: string;
}

export interface StartOptions {
  entry: string;
  /** Node binary for code-server (default: this one) */
  node?: string;
  workspace: string;
  /** user settings for the throwaway profile */
  settings?: Record<string, unknown>;
  /** extra environment for the server and so for the extension host */
  env?: Record<string, string>;
  port?: number;
  logFile: string;
  /** a profile directory kept between runs (npm start: settings and secrets survive); default a fresh temp one */
  profileDir?: string;
}

// Nothing in a test or demo run should reach for the network: no gallery, no update checks, no telemetry,
// no startup editor competing for focus.
const QUIET_SETTINGS: Record<string, unknown> = {
  'telemetry.telemetryLevel': 'off',
  'update.mode': 'none',
  'extensions.autoCheckUpdates': false,
  'extensions.autoUpdate': false,
  'extensions.ignoreRecommendations': true,
  'workbench.enableExperiments': false,
  'workbench.startupEditor': 'none',
  'workbench.tips.enabled': false,
  'workbench.welcomePage.walkthroughs.openOnInstall': false,
  'security.workspace.trust.enabled': false,
  'npm.fetchOnlinePackageInfo': false,
  'git.enabled': false,
  'chat.commandCenter.enabled': false,
  'chat.disableAIFeatures': true,
  'workbench.secondarySideBar.defaultVisibility': 'hidden',
};

export async function startCodeServer(o: StartOptions): Promise<CodeServer> {
  let profile = o.profileDir;
  if (!profile) {
    const temp = fs.mkdtempSync(path.join(os.tmpdir(), 'paygate-code-server-'));
    onCleanup('code-server profile', () => fs.rmSync(temp, { recursive: true, force: true }));
    profile = temp;
  }
  const userDataDir = path.join(profile, 'user-data');
  const extensionsDir = path.join(profile, 'extensions');
  fs.mkdirSync(path.join(userDataDir, 'User'), { recursive: true });
  fs.mkdirSync(extensionsDir, { recursive: true });
  const settingsFile = path.join(userDataDir, 'User', 'settings.json');
  // A kept profile keeps the person's own settings; the quiet ones are only the starting point.
  if (!o.profileDir || !fs.existsSync(settingsFile)) {
    fs.writeFileSync(settingsFile, JSON.stringify({ ...QUIET_SETTINGS, ...o.settings }, null, 2));
  }
  // An explicit config file, or code-server writes one into ~/.config.
  const config = path.join(profile, 'config.yaml');
  fs.writeFileSync(config, 'auth: none\ncert: false\n');

  fs.mkdirSync(path.dirname(o.logFile), { recursive: true });
  const log = fs.createWriteStream(o.logFile);
  const child = spawnTracked(
    'code-server',
    o.node ?? process.execPath,
    [
      o.entry,
      '--config',
      config,
      '--bind-addr',
      `127.0.0.1:${o.port ?? 0}`,
      '--auth',
      'none',
      '--user-data-dir',
      userDataDir,
      '--extensions-dir',
      extensionsDir,
      '--disable-telemetry',
      '--disable-update-check',
      '--disable-workspace-trust',
      '--disable-getting-started-override',
      o.workspace,
    ],
    {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: {
        ...process.env,
        // An empty gallery switches the marketplace off entirely.
        EXTENSIONS_GALLERY: '{}',
        // The server must not inherit a password or a proxy from whoever runs this.
        PASSWORD: '',
        HASHED_PASSWORD: '',
        ...o.env,
      },
    },
  );
  child.stdout?.pipe(log, { end: false });
  child.stderr?.pipe(log, { end: false });
  onCleanup('code-server log', () => new Promise<void>((r) => log.end(r)));

  const m = await waitForOutput(child, /HTTP server listening on http:\/\/127\.0\.0\.1:(\d+)\//, LONG, 'code-server');
  const port = Number(m[1]);
  const origin = `http://127.0.0.1:${port}`;
  return {
    origin,
    port,
    process: child,
    workspace: o.workspace,
    logFile: o.logFile,
    url({ extensionPath, extensionTestsPath }) {
      const remote = (p: string) => `vscode-remote://127.0.0.1:${port}${path.resolve(p)}`;
      const payload: [string, string][] = [['extensionDevelopmentPath', remote(extensionPath)]];
      if (extensionTestsPath) payload.push(['extensionTestsPath', remote(extensionTestsPath)]);
      return `${origin}/?folder=${encodeURIComponent(path.resolve(o.workspace))}&payload=${encodeURIComponent(JSON.stringify(payload))}`;
    },
  };
}
