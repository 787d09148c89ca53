import * as path from 'node:path';
import * as vscode from 'vscode';
import { loadOrCreateDemoMerchant, readRunningGateway, startLocalGateway, StateDirLockedError, type LocalGateway } from '../../local-gateway';
import { localGatewayPort, pathTemplates } from './settings';

// The built-in `local` environment: the simulator, in this extension host, started the first time
// something needs it and stopped with the extension. Concurrent callers share one start. One gateway
// owns a state directory (its lock, gateway.json): a second window of the same editor finds the first
// window's gateway holding the extension's directory and uses it (same demo merchant, same payments)
// for as long as that gateway runs.

/** What the editor uses of a local gateway: its own, or another window's it is attached to. */
export type ServedGateway = Pick<LocalGateway, 'baseUrl' | 'reportBaseUrl' | 'environment' | 'merchant' | 'close'> & { attachedToPid?: number };

export interface LocalGatewayInfo {
  running: boolean;
  baseUrl?: string;
  reportBaseUrl?: string;
  endpointId?: string;
  consumerKey?: string;
}

export class LocalGatewayManager implements vscode.Disposable {
  private gateway: ServedGateway | undefined;
  private starting: Promise<ServedGateway> | undefined;
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChange = this.changed.event;

  constructor(
    private readonly stateDir: string,
    private readonly log: vscode.LogOutputChannel,
  ) {}

  static stateDirOf(context: vscode.ExtensionContext): string {
    return path.join(context.globalStorageUri.fsPath, 'gateway');
  }

  get running(): ServedGateway | undefined {
    return this.gateway;
  }

  /** Another window's gateway on our directory, if one is running: used instead of starting a second. */
  private attach(): ServedGateway | undefined {
    const holder = readRunningGateway(this.stateDir);
    if (!holder) return undefined;
    const merchant = loadOrCreateDemoMerchant(this.stateDir);
    const environment = { name: 'local', baseUrl: holder.baseUrl, reportBaseUrl: holder.reportBaseUrl, endpointId: merchant.endpointId, consumerKey: merchant.consumerKey, production: false };
    this.log.info(`Local gateway of process ${holder.pid} (another window) holds ${this.stateDir}: using it at ${holder.baseUrl}`);
    return { baseUrl: holder.baseUrl, reportBaseUrl: holder.reportBaseUrl, environment, merchant, attachedToPid: holder.pid, close: async () => undefined };
  }

  info(): LocalGatewayInfo {
    const g = this.gateway;
    if (!g) return { running: false };
    // Addresses and the demo login only: the demo merchant's secret and keys stay inside the host.
    return { running: true, baseUrl: g.baseUrl, reportBaseUrl: g.reportBaseUrl, endpointId: g.environment.endpointId, consumerKey: g.merchant.consumerKey };
  }

  async ensureStarted(): Promise<ServedGateway> {
    // An attached gateway lives as long as the other window's: when it is gone, start our own.
    if (this.gateway?.attachedToPid !== undefined && readRunningGateway(this.stateDir)?.pid !== this.gateway.attachedToPid) {
      this.gateway = undefined;
      this.changed.fire();
    }
    if (this.gateway) return this.gateway;
    if (!this.starting) {
      const own: Promise<ServedGateway> = startLocalGateway({
        stateDir: this.stateDir,
        port: localGatewayPort(),
        paths: pathTemplates(),
        log: (line) => this.log.info(`[local gateway] ${line}`),
      });
      this.starting = own.catch((err: unknown): ServedGateway => {
        const attached = err instanceof StateDirLockedError ? this.attach() : undefined;
        if (!attached) throw err;
        return attached;
      }).then(
        (g) => {
          this.gateway = g;
          this.starting = undefined;
          if (g.attachedToPid === undefined) this.log.info(`Local gateway started: ${g.baseUrl} (reports ${g.reportBaseUrl})`);
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

  async stop(): Promise<boolean> {
    // A start in flight finishes first so its server is not left listening unowned.
    const g = this.gateway ?? (this.starting ? await this.starting.catch(() => undefined) : undefined);
    if (!g) return false;
    this.gateway = undefined;
    await g.close();
    this.log.info(g.attachedToPid === undefined ? 'Local gateway stopped' : `No longer using the local gateway of process ${g.attachedToPid}`);
    this.changed.fire();
    return true;
  }

  dispose(): void {
    void this.stop().catch((err: unknown) => this.log.warn(`Local gateway did not close cleanly: ${String(err)}`));
    this.changed.dispose();
  }
}
