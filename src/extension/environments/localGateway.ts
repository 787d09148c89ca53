import * as vscode from 'vscode';
import { Disposable } from '../disposable';
import { DEFAULT_PATHS, type Environment } from '../../core/gateway/environments';
import {
  findOrStartLocalGateway,
  findRunningGateway,
  type AdvanceSummary,
  type DemoMerchant,
  type LocalGateway,
  type RunningGatewayHandle,
  type StoredPayment,
} from '../../local-gateway';
import { ownLocalStateDir } from './localState';
import { localGatewayPort, pathTemplates } from './settings';

// The built-in `local` environment. When a `paygate gateway` process already runs on the CLI's state
// directory (npm start runs one; so may a terminal), `local` is that gateway: one clock and one set of
// payments for the terminal and the editor. Otherwise the local gateway runs in this extension host, started
// the first time something needs it and stopped with the extension. Concurrent callers share one start.
// One gateway owns a state directory (its lock, gateway.json): a second window of the editor finds the
// first window's gateway holding the extension's directory and uses it the same way, while it runs.

export interface LocalGatewayInfo {
  running: boolean;
  baseUrl?: string;
  reportBaseUrl?: string;
  endpointId?: string;
  consumerKey?: string;
  /** Set when a `paygate gateway` process runs it (the editor neither started it nor stops it). */
  externalPid?: number;
}

/** What `local` needs of a local gateway, whoever runs it. */
export interface LocalGatewayHandle {
  environment: Environment;
  merchant: DemoMerchant;
  origin: string;
  /** The `paygate gateway` process that runs it; undefined when this extension host does. */
  externalPid?: number;
  advanceDays(days: number): Promise<AdvanceSummary>;
  payments(): Promise<StoredPayment[]>;
}

function ownHandle(g: LocalGateway): LocalGatewayHandle {
  return {
    environment: g.environment,
    merchant: g.merchant,
    origin: g.origin,
    advanceDays: (d) => g.advanceDays(d),
    payments: async () => g.payments(),
  };
}

function runningHandle(r: RunningGatewayHandle): LocalGatewayHandle {
  return {
    environment: r.environment,
    merchant: r.merchant,
    origin: r.origin,
    externalPid: r.pid,
    advanceDays: (d) => r.advanceDays(d),
    payments: () => r.payments(),
  };
}

function defaultPaths(): boolean {
  const p = pathTemplates();
  return p.createRecurringPayments === DEFAULT_PATHS.createRecurringPayments && p.customReport === DEFAULT_PATHS.customReport;
}

export class LocalGatewayManager extends Disposable {
  private own: LocalGateway | undefined;
  private attached: RunningGatewayHandle | undefined;
  private starting: Promise<LocalGatewayHandle> | undefined;
  private readonly changed = this.register(new vscode.EventEmitter<void>());
  readonly onDidChange = this.changed.event;

  /**
   * @param stateDir the state of the gateway this extension host runs
   * @param sharedStateDir where a `paygate gateway` process would run (the CLI's state directory); undefined: never look
   */
  constructor(
    private readonly stateDir: string,
    private readonly log: vscode.LogOutputChannel,
    private readonly sharedStateDir?: string,
  ) {
    super();
  }

  static stateDirOf(context: vscode.ExtensionContext): string {
    return ownLocalStateDir(context);
  }

  /** The state directory of the gateway `local` uses: a running `paygate gateway`'s, else this host's own. */
  get stateDirInUse(): string {
    return this.attached?.stateDir ?? this.stateDir;
  }

  get running(): LocalGatewayHandle | undefined {
    if (this.attached) return runningHandle(this.attached);
    return this.own ? ownHandle(this.own) : undefined;
  }

  info(): LocalGatewayInfo {
    const g = this.running;
    if (!g) return { running: false };
    // Addresses and the demo login only: the demo merchant's secret and keys stay inside the host.
    const e = g.environment;
    return {
      running: true,
      baseUrl: e.baseUrl,
      reportBaseUrl: e.reportBaseUrl,
      endpointId: e.endpointId,
      consumerKey: g.merchant.consumerKey,
      ...(g.externalPid !== undefined ? { externalPid: g.externalPid } : {}),
    };
  }

  async ensureStarted(): Promise<LocalGatewayHandle> {
    if (this.attached && !this.attached.alive()) {
      this.log.info(`Local gateway: the paygate gateway (pid ${this.attached.pid}) has stopped; the next use finds or starts another`);
      this.attached = undefined;
      this.changed.fire();
    }
    const current = this.running;
    if (current) return current;
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
    if (this.sharedStateDir !== undefined) {
      // A `paygate gateway` serves the default paths only; with other paths configured the editor runs its own.
      if (!defaultPaths()) {
        this.log.info(
          'Local gateway: paygate.paths differ from the defaults, so the editor runs its own local gateway rather than a paygate gateway process',
        );
      } else {
        const found = await findRunningGateway(this.sharedStateDir);
        this.log.info(`Local gateway: ${found.reason}`);
        if (found.handle) {
          this.attached = found.handle;
          return runningHandle(found.handle);
        }
      }
    }
    // Another window's gateway may hold the extension's state directory: it is used, as a terminal's.
    const found = await findOrStartLocalGateway({
      stateDir: this.stateDir,
      port: localGatewayPort(),
      paths: pathTemplates(),
      log: (line) => this.log.info(`[local gateway] ${line}`),
      checkAnswers: true,
      note: (reason) => this.log.info(`Local gateway: ${reason}`),
    });
    if (found.kind === 'answering') {
      this.attached = found.handle;
      return runningHandle(found.handle);
    }
    const g = found.gateway;
    this.own = g;
    this.log.info(`Local gateway started: ${g.baseUrl} (reports ${g.reportBaseUrl})`);
    return ownHandle(g);
  }

  /** Stops the gateway this extension host runs (true); a `paygate gateway` process is only let go of (false). */
  async stop(): Promise<boolean> {
    // A start in flight finishes first so its server is not left listening unowned.
    if (this.starting) await this.starting.catch(() => undefined);
    if (this.attached) {
      this.log.info(`Local gateway: no longer using the paygate gateway (pid ${this.attached.pid}); it keeps running`);
      this.attached = undefined;
      this.changed.fire();
      return false;
    }
    const g = this.own;
    if (!g) return false;
    this.own = undefined;
    await g.close();
    this.log.info('Local gateway stopped');
    this.changed.fire();
    return true;
  }

  override dispose(): void {
    // The server closes with the extension; its listeners go at once.
    void this.stop().catch((err: unknown) => this.log.warn(`Local gateway did not close cleanly: ${String(err)}`));
    super.dispose();
  }
}
