import * as vscode from 'vscode';
import { Disposable } from '../disposable';
import type { PayGateLog } from '../log';
import {
  ForwardToSelfError,
  isOwnAddress,
  type CallbackStore,
  MAX_STORED_CALLBACKS,
  startCallbackListener,
  type CallbackEntry,
  type CallbackListener,
} from '../../callback-listener';
import { said, typed } from '../../core/output';

// The editor's callback listener: the same receiver as `paygate listen`, in the extension host, keeping its
// calls in the same store (so `paygate callbacks list` sees them too). Entries are held newest last, at
// most MAX_STORED_CALLBACKS, and changes reach the view coalesced: a burst of callbacks is one refresh.

export const REFRESH_MS = 150;

export class CallbackListening extends Disposable {
  private listener: CallbackListener | undefined;
  private forward: string | undefined;
  private loaded: CallbackEntry[] | undefined;
  private pending: ReturnType<typeof setTimeout> | undefined;
  private readonly changed = this.register(new vscode.EventEmitter<void>());
  /** Fires (at most every REFRESH_MS) when an entry arrives or listening starts or stops. */
  readonly onDidChange = this.changed.event;
  private readonly stateChanged = this.register(new vscode.EventEmitter<string | undefined>());
  /** Fires with the address when listening starts, undefined when it stops. */
  readonly onDidChangeAddress = this.stateChanged.event;

  constructor(
    private readonly store: CallbackStore,
    private readonly controlKey: () => string | undefined,
    private readonly log: PayGateLog,
  ) {
    super();
    this.register({ dispose: () => void this.stop() });
    this.register({ dispose: () => this.pending !== undefined && clearTimeout(this.pending) });
  }

  /** `http://127.0.0.1:PORT/` while listening. */
  get address(): string | undefined {
    return this.listener?.url;
  }

  get forwardTo(): string | undefined {
    return this.forward;
  }

  /** Everything kept, oldest first (read from the store once, then kept up to date in memory). */
  entries(): readonly CallbackEntry[] {
    if (this.loaded === undefined) {
      try {
        this.loaded = this.store.list();
      } catch (err) {
        this.log.warn(said`Callbacks: cannot read ${typed.text(this.store.file)}: ${typed.text((err as Error).message)}`);
        this.loaded = [];
      }
    }
    return this.loaded;
  }

  get(id: string): CallbackEntry | undefined {
    return this.entries().find((e) => e.id === id);
  }

  async start(port = 0, forwardTo = this.forward): Promise<string> {
    // A target known to be this very listener is refused before anything stops: the running listener (and
    // the notify_url in the batches) must survive a wrong answer in the Forward box.
    if (forwardTo !== undefined && port !== 0 && isOwnAddress(forwardTo, port)) throw new ForwardToSelfError(forwardTo, port);
    await this.stop();
    if (this.isDisposed) throw new Error('the extension is stopping');
    this.forward = forwardTo;
    this.listener = await startCallbackListener({
      port,
      forwardTo,
      controlKey: this.controlKey,
      store: this.store,
      onCall: (e) => this.add(e),
      onRejected: (line) => this.log.warn(said`Callbacks: ${typed.text(line)}`),
    });
    this.log.info(
      said`Callbacks: listening on ${typed.text(this.listener.url)}${forwardTo ? said`, forwarding to ${typed.text(forwardTo)}` : said``}`,
    );
    this.stateChanged.fire(this.listener.url);
    this.fireSoon();
    return this.listener.url;
  }

  /** Keeps the port: a notify_url already in a batch still reaches the listener. */
  async setForward(forwardTo: string | undefined): Promise<void> {
    const port = this.listener?.port ?? 0;
    if (this.listener) await this.start(port, forwardTo);
    else this.fireSoon();
    this.forward = forwardTo;
  }

  async stop(): Promise<void> {
    const l = this.listener;
    if (!l) return;
    this.listener = undefined;
    await l.close();
    this.log.info(said`Callbacks: stopped listening`);
    if (!this.isDisposed) {
      this.stateChanged.fire(undefined);
      this.fireSoon();
    }
  }

  private add(e: CallbackEntry): void {
    const all = this.entries() as CallbackEntry[];
    all.push(e);
    if (all.length > MAX_STORED_CALLBACKS) all.splice(0, all.length - MAX_STORED_CALLBACKS);
    this.fireSoon();
  }

  private fireSoon(): void {
    if (this.pending !== undefined || this.isDisposed) return;
    this.pending = setTimeout(() => {
      this.pending = undefined;
      if (!this.isDisposed) this.changed.fire();
    }, REFRESH_MS);
  }
}
