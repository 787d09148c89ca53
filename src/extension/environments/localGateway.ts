import * as vscode from 'vscode';
import { Disposable } from '../disposable';
import type { PayGateLog } from '../log';
import { DEFAULT_PATHS } from '../../core/gateway/environments';
import { terminalField, said, typed } from '../../core/output';
import { findOrStartLocalGateway, type LocalGatewayUse } from '../../local-gateway';
import { localGatewayPort, pathTemplates } from './settings';

// The built-in `local` environment: the local gateway of the local state directory, the same one the
// `paygate` CLI uses (paygate.localGateway.stateDirectory, else the CLI's default: localState.ts). Found or
// started through the one finding module the CLI uses too: when a gateway already runs there (`paygate gateway` in a terminal, npm
// start, another window) `local` is that gateway; otherwise it is started in this extension host, the
// first time something needs it, and stopped with the extension. Either way one state directory has one
// gateway, one clock and one set of payments for the terminal and the editor. While the editor uses it,
// a client lease in the state directory says so (`paygate gateway` lists it). Concurrent callers share one
// start. Only with paths other than the defaults (which a `paygate gateway` would not serve) does the
// editor run a local gateway of its own, on a state directory in the extension's storage.

export interface LocalGatewayInfo {
  running: boolean;
  baseUrl?: string;
  reportBaseUrl?: string;
  endpointId?: string;
  consumerKey?: string;
  /** Its state directory. */
  stateDir?: string;
  /** Set when another process runs it (the editor neither started it nor stops it). */
  externalPid?: number;
  /** Who runs it, in its own words ("paygate gateway"), when another process does. */
  runBy?: string;
}

/** What `local` needs of a local gateway, whoever runs it. */
export type LocalGatewayHandle = Omit<LocalGatewayUse, 'release'> & {
  /** The process that runs it; undefined when this extension host does. */
  externalPid?: number;
};

/** How long the editor waits for a `paygate submit` that runs a gateway of its own for a moment. */
const ONE_SHOT_WAIT_MS = 60_000;
/** What the editor calls itself in gateway.json (when it runs the gateway) and in client leases. */
export const EDITOR_RUN_BY = 'the editor (VS Code)';

function handleOf(use: LocalGatewayUse): LocalGatewayHandle {
  const { release: _release, ...rest } = use;
  return use.kind === 'running' ? { ...rest, externalPid: use.pid } : rest;
}

function defaultPaths(): boolean {
  const p = pathTemplates();
  return p.createRecurringPayments === DEFAULT_PATHS.createRecurringPayments && p.customReport === DEFAULT_PATHS.customReport;
}

export class LocalGatewayManager extends Disposable {
  private use: LocalGatewayUse | undefined;
  private starting: Promise<LocalGatewayHandle> | undefined;
  private readonly changed = this.register(new vscode.EventEmitter<void>());
  readonly onDidChange = this.changed.event;

  /**
   * @param dirs shared: the local state directory (the CLI's, or the setting's); own: this host's, for other paths
   * @param label how this window names itself in the client list ("VS Code (folder examples)")
   */
  constructor(
    private readonly dirs: { shared: () => string; own: string },
    private readonly log: PayGateLog,
    private readonly label: () => string,
  ) {
    super();
  }

  /** The state directory `local` means now (before any gateway runs). */
  get stateDir(): string {
    return defaultPaths() ? this.dirs.shared() : this.dirs.own;
  }

  /** The state directory of the gateway `local` uses: the running one's, else where it would start. */
  get stateDirInUse(): string {
    return this.use?.stateDir ?? this.stateDir;
  }

  get running(): LocalGatewayHandle | undefined {
    return this.use ? handleOf(this.use) : undefined;
  }

  info(): LocalGatewayInfo {
    const u = this.use;
    if (!u) return { running: false };
    // Addresses and the demo login only: the demo merchant's secret and keys stay inside the host.
    const e = u.environment;
    return {
      running: true,
      baseUrl: e.baseUrl,
      reportBaseUrl: e.reportBaseUrl,
      endpointId: e.endpointId,
      consumerKey: u.merchant.consumerKey,
      stateDir: u.stateDir,
      // runBy is whatever the running process wrote in gateway.json: shown only as safe, one-line text.
      ...(u.kind === 'running' ? { externalPid: u.pid, ...(u.runBy !== undefined ? { runBy: terminalField(u.runBy) } : {}) } : {}),
    };
  }

  async ensureStarted(): Promise<LocalGatewayHandle> {
    const current = this.use;
    if (current && !current.alive()) {
      this.log.info(
        said`Local gateway: the one run by ${typed.text(current.runBy ?? 'process')} ${typed.count(current.pid)} has stopped; the next use finds or starts another`,
      );
      this.use = undefined;
      await current.release();
      this.changed.fire();
    }
    if (this.use) return handleOf(this.use);
    if (!this.starting) {
      this.starting = this.start().then(
        (g) => {
          this.starting = undefined;
          this.changed.fire();
          return g;
        },
        (err: unknown) => {
          this.starting = undefined;
          throw err;
        },
      );
    }
    return this.starting;
  }

  private async start(): Promise<LocalGatewayHandle> {
    if (!defaultPaths())
      this.log.info(said`Local gateway: paygate.paths differ from the defaults, so the editor runs a local gateway of its own`);
    const use = await findOrStartLocalGateway({
      stateDir: this.stateDir,
      port: localGatewayPort(),
      paths: pathTemplates(),
      log: (line) => this.log.info(said`[local gateway] ${typed.text(line)}`),
      runBy: EDITOR_RUN_BY,
      waitForOneShotMs: ONE_SHOT_WAIT_MS,
      client: { face: 'editor', label: this.label() },
      note: (reason) => this.log.info(said`Local gateway: ${typed.text(reason)}`),
    });
    this.use = use;
    return handleOf(use);
  }

  /** Stops the gateway this extension host runs (true); one another process runs is only let go of (false). */
  async stop(): Promise<boolean> {
    // A start in flight finishes first so its server is not left listening unowned.
    if (this.starting) await this.starting.catch(() => undefined);
    const u = this.use;
    if (!u) return false;
    this.use = undefined;
    await u.release();
    this.log.info(
      u.kind === 'started'
        ? said`Local gateway stopped`
        : said`Local gateway: no longer using the one run by ${typed.text(u.runBy ?? 'process')} ${typed.count(u.pid)}; it keeps running`,
    );
    this.changed.fire();
    return u.kind === 'started';
  }

  override dispose(): void {
    // The server closes with the extension; its listeners go at once.
    void this.stop().catch((err: unknown) => this.log.warn(said`Local gateway did not close cleanly: ${typed.text(String(err))}`));
    super.dispose();
  }
}
