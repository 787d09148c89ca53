import * as path from 'node:path';
import * as vscode from 'vscode';
import { startLocalGateway, type LocalGateway } from '../../local-gateway';
import { localGatewayPort, pathTemplates } from './settings';

// The built-in `local` environment: the simulator, in this extension host, started the first time
// something needs it and stopped with the extension. Concurrent callers share one start.

export interface LocalGatewayInfo {
  running: boolean;
  baseUrl?: string;
  reportBaseUrl?: string;
  endpointId?: string;
  consumerKey?: string;
}

export class LocalGatewayManager implements vscode.Disposable {
  private gateway: LocalGateway | undefined;
  private starting: Promise<LocalGateway> | undefined;
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChange = this.changed.event;

  constructor(
    private readonly stateDir: string,
    private readonly log: vscode.LogOutputChannel,
  ) {}

  static stateDirOf(context: vscode.ExtensionContext): string {
    return path.join(context.globalStorageUri.fsPath, 'gateway');
  }

  get running(): LocalGateway | undefined {
    return this.gateway;
  }

  info(): LocalGatewayInfo {
    const g = this.gateway;
    if (!g) return { running: false };
    // Addresses and the demo login only: the demo merchant's secret and keys stay inside the host.
    return { running: true, baseUrl: g.baseUrl, reportBaseUrl: g.reportBaseUrl, endpointId: g.environment.endpointId, consumerKey: g.merchant.consumerKey };
  }

  async ensureStarted(): Promise<LocalGateway> {
    if (this.gateway) return this.gateway;
    if (!this.starting) {
      this.starting = startLocalGateway({
        stateDir: this.stateDir,
        port: localGatewayPort(),
        paths: pathTemplates(),
        log: (line) => this.log.info(`[local gateway] ${line}`),
      }).then(
        (g) => {
          this.gateway = g;
          this.starting = undefined;
          this.log.info(`Local gateway started: ${g.baseUrl} (reports ${g.reportBaseUrl})`);
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
    this.log.info('Local gateway stopped');
    this.changed.fire();
    return true;
  }

  dispose(): void {
    void this.stop().catch((err: unknown) => this.log.warn(`Local gateway did not close cleanly: ${String(err)}`));
    this.changed.dispose();
  }
}
