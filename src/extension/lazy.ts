import type * as vscode from 'vscode';
import { EventEmitter, commands, window } from 'vscode';
import { Disposable } from './disposable';

// Activation registers what the editor must see at once; the code behind it loads on first use. The
// entry bundle registers every contributed command, both tree views and both webview serializers here,
// with stand-ins that load dist/features.js (synchronously, in the same turn) and then hand over:
// - a command: the stand-ins are withdrawn, the features register the real commands, and the call is
//   re-issued to the real one (same arguments, same result);
// - a tree view or a restored panel: the features give their provider or serializer to the stand-in the
//   editor already holds (the view and the serializer are registered once, here).
// The commands are registered at once (the editor runs the command that activated us as soon as activate()
// returns); the tree views and serializers in the next turn, or when the features load if that is sooner,
// which keeps their ~1 ms of the host's work out of the activation (issue 40). The editor waits for them:
// a view shown before its provider comes asks again when it comes (it says "no data provider" only after
// 2 s), and a panel to restore waits for a serializer of its type (VS Code 1.100's workbench).

/** What the features bundle registers its tree providers and panel serializers through. */
export interface FeatureHost {
  tree<T>(viewId: string, provider: vscode.TreeDataProvider<T>): void;
  serializer(viewType: string, serializer: vscode.WebviewPanelSerializer): void;
}

// It forwards what today's trees implement; a tree that needs reveal() (getParent) or resolveTreeItem must
// be given those here too, since the editor looks for them on the provider it was first handed.
class TreeStandIn<T> extends Disposable implements vscode.TreeDataProvider<T> {
  private real: vscode.TreeDataProvider<T> | undefined;
  private readonly changed = this.register(new EventEmitter<T | T[] | undefined | null | void>());
  readonly onDidChangeTreeData = this.changed.event;

  constructor(private readonly load: () => void) {
    super();
  }

  attach(real: vscode.TreeDataProvider<T>): void {
    this.real = real;
    if (real.onDidChangeTreeData) this.register(real.onDidChangeTreeData((e) => this.changed.fire(e)));
    this.changed.fire();
  }

  private provider(): vscode.TreeDataProvider<T> {
    if (!this.real) this.load();
    if (!this.real) throw new Error('PayGate: the features loaded without this view');
    return this.real;
  }

  getChildren(element?: T): vscode.ProviderResult<T[]> {
    return this.provider().getChildren(element);
  }

  getTreeItem(element: T): vscode.TreeItem | Thenable<vscode.TreeItem> {
    return this.provider().getTreeItem(element);
  }
}

class SerializerStandIn implements vscode.WebviewPanelSerializer {
  real: vscode.WebviewPanelSerializer | undefined;

  constructor(private readonly load: () => void) {}

  async deserializeWebviewPanel(panel: vscode.WebviewPanel, state: unknown): Promise<void> {
    if (!this.real) this.load();
    if (!this.real) throw new Error('PayGate: the features loaded without this panel');
    await this.real.deserializeWebviewPanel(panel, state);
  }
}

export interface LazyFeaturesOptions {
  commands: readonly string[];
  /** Tree views and their options (everything but the provider). */
  trees: Record<string, Omit<vscode.TreeViewOptions<unknown>, 'treeDataProvider'>>;
  serializers: readonly string[];
  /** Loads the features bundle and registers the features, through the host. Called at most once. */
  load: (host: FeatureHost) => void;
}

export class LazyFeatures extends Disposable implements FeatureHost {
  private readonly trees = new Map<string, TreeStandIn<unknown>>();
  private readonly serializers = new Map<string, SerializerStandIn>();
  private commandStandIns: vscode.Disposable[] = [];
  private state: 'waiting' | 'loading' | 'loaded' | 'failed' = 'waiting';
  private viewsRegistered = false;

  constructor(private readonly options: LazyFeaturesOptions) {
    super();
    const load = () => this.ensureLoaded();
    for (const id of options.commands) {
      this.commandStandIns.push(commands.registerCommand(id, (...args: unknown[]) => this.run(id, args)));
    }
    this.register({ dispose: () => this.commandStandIns.forEach((d) => d.dispose()) });
    for (const viewId of Object.keys(options.trees)) this.trees.set(viewId, this.register(new TreeStandIn<unknown>(load)));
    for (const viewType of options.serializers) this.serializers.set(viewType, new SerializerStandIn(load));
    const views = setImmediate(() => this.registerViews());
    this.register({ dispose: () => clearImmediate(views) });
  }

  /** Hands the tree views and the serializers to the editor, once (the next turn, or the features' load). */
  private registerViews(): void {
    if (this.viewsRegistered || this.isDisposed) return;
    this.viewsRegistered = true;
    for (const [viewId, standIn] of this.trees)
      this.register(window.createTreeView(viewId, { ...this.options.trees[viewId], treeDataProvider: standIn }));
    for (const [viewType, standIn] of this.serializers) this.register(window.registerWebviewPanelSerializer(viewType, standIn));
  }

  get loaded(): boolean {
    return this.state === 'loaded';
  }

  /** Loads the features now (synchronously), if they are not yet. */
  ensureLoaded(): void {
    if (this.state !== 'waiting') return;
    if (this.isDisposed) throw new Error('PayGate: the extension is shutting down');
    this.state = 'loading';
    this.registerViews();
    // The real commands take the stand-ins' ids: those go first, in the same turn, so no call finds none.
    for (const d of this.commandStandIns.splice(0)) d.dispose();
    try {
      this.options.load(this);
      this.state = 'loaded';
    } catch (err) {
      // Half-registered features cannot be registered again: the error goes to the log and the caller.
      this.state = 'failed';
      throw err;
    }
  }

  tree<T>(viewId: string, provider: vscode.TreeDataProvider<T>): void {
    const standIn = this.trees.get(viewId) as TreeStandIn<T> | undefined;
    if (!standIn) throw new Error(`PayGate: no tree view ${viewId} was registered at activation`);
    standIn.attach(provider);
  }

  serializer(viewType: string, serializer: vscode.WebviewPanelSerializer): void {
    const standIn = this.serializers.get(viewType);
    if (!standIn) throw new Error(`PayGate: no serializer for ${viewType} was registered at activation`);
    standIn.real = serializer;
  }

  private run(id: string, args: unknown[]): Thenable<unknown> {
    this.ensureLoaded();
    // eslint-disable-next-line no-restricted-syntax -- bounded: a command's arguments forwarded as they came
    return commands.executeCommand(id, ...args);
  }
}
