import { test, beforeEach } from 'node:test';
import assert from 'node:assert/strict';
import Module from 'node:module';
import type * as Lazy from '../../src/extension/lazy';

// The stand-ins activation registers (src/extension/lazy.ts), against a small fake of the parts of the
// vscode API they use. The fake refuses a second registration of a command id, as the editor does.

type Handler = (...args: unknown[]) => unknown;
const commands = new Map<string, Handler>();
const trees = new Map<string, { treeDataProvider: { getChildren(e?: unknown): unknown; onDidChangeTreeData?: unknown } }>();
const serializers = new Map<string, { deserializeWebviewPanel(p: unknown, s: unknown): Promise<void> }>();

class EventEmitter<T> {
  private listeners: ((e: T) => void)[] = [];
  event = (l: (e: T) => void) => {
    this.listeners.push(l);
    return { dispose: () => (this.listeners = this.listeners.filter((x) => x !== l)) };
  };
  fire(e: T): void {
    for (const l of this.listeners) l(e);
  }
  dispose(): void {
    this.listeners = [];
  }
}

const fakeVscode = {
  EventEmitter,
  commands: {
    registerCommand(id: string, fn: Handler) {
      if (commands.has(id)) throw new Error(`command '${id}' already exists`);
      commands.set(id, fn);
      return { dispose: () => commands.get(id) === fn && commands.delete(id) };
    },
    executeCommand(id: string, ...args: unknown[]) {
      const fn = commands.get(id);
      if (!fn) return Promise.reject(new Error(`command '${id}' not found`));
      // As the editor does: a handler that throws makes the call reject.
      // eslint-disable-next-line no-restricted-syntax -- bounded: a command's few arguments
      return new Promise((done) => done(fn(...args)));
    },
  },
  window: {
    createTreeView(id: string, options: { treeDataProvider: never }) {
      trees.set(id, options);
      return { dispose: () => trees.delete(id) };
    },
    registerWebviewPanelSerializer(viewType: string, s: never) {
      serializers.set(viewType, s);
      return { dispose: () => serializers.delete(viewType) };
    },
  },
};

// The module under test imports 'vscode': it gets the fake.
const resolve = (Module as unknown as { _resolveFilename: (r: string, ...rest: unknown[]) => string })._resolveFilename;
(Module as unknown as { _resolveFilename: unknown })._resolveFilename = function (request: string, ...rest: unknown[]) {
  return request === 'vscode' ? 'vscode' : resolve.apply(this, [request, ...rest]);
};
require.cache.vscode = { id: 'vscode', filename: 'vscode', loaded: true, exports: fakeVscode } as unknown as NodeJS.Module;
// eslint-disable-next-line @typescript-eslint/no-require-imports -- after the fake is in place
const { LazyFeatures } = require('../../src/extension/lazy') as typeof Lazy;

const nextTurn = () => new Promise((done) => setImmediate(done));

beforeEach(() => {
  commands.clear();
  trees.clear();
  serializers.clear();
});

test('a command loads the features once, then runs the real command with the same arguments and result', async () => {
  let loads = 0;
  const lazy = new LazyFeatures({
    commands: ['paygate.a', 'paygate.b'],
    trees: {},
    serializers: [],
    load: () => {
      loads++;
      // The real commands take the same ids: the stand-ins must be gone by now.
      fakeVscode.commands.registerCommand('paygate.a', (...args) => ({ ran: 'a', args }));
      fakeVscode.commands.registerCommand('paygate.b', () => 'b');
    },
  });
  assert.equal(lazy.loaded, false);
  const uri = { path: '/x.rpcsv' };
  assert.deepEqual(await fakeVscode.commands.executeCommand('paygate.a', uri, { show: false }), { ran: 'a', args: [uri, { show: false }] });
  assert.equal(await fakeVscode.commands.executeCommand('paygate.b'), 'b');
  assert.equal(loads, 1);
  assert.equal(lazy.loaded, true);
  lazy.dispose();
  // Disposing the host leaves the real commands to whoever registered them.
  assert.ok(commands.has('paygate.a'));
});

test('a tree view registered at activation loads the features when asked for items and follows their tree', async () => {
  let loads = 0;
  const changes: unknown[] = [];
  const realChanged = new EventEmitter<string | undefined>();
  const lazy = new LazyFeatures({
    commands: [],
    trees: { 'paygate.submissions': { showCollapseAll: true } },
    serializers: [],
    load: (host) => {
      loads++;
      host.tree('paygate.submissions', {
        onDidChangeTreeData: realChanged.event,
        getChildren: (e?: string) => (e ? [] : ['one', 'two']),
        getTreeItem: (e: string) => ({ label: e }),
      });
    },
  });
  assert.equal(trees.size, 0, 'the view is handed to the editor in the next turn, not during activation');
  await nextTurn();
  const view = trees.get('paygate.submissions');
  assert.ok(view, 'the view is registered in the turn after activation');
  assert.equal(loads, 0, 'registering the view loads nothing');
  (view.treeDataProvider.onDidChangeTreeData as (l: (e: unknown) => void) => void)((e) => changes.push(e));
  assert.deepEqual(await view.treeDataProvider.getChildren(), ['one', 'two']);
  assert.equal(loads, 1);
  realChanged.fire('one');
  assert.deepEqual(changes.slice(-1), ['one']);
  lazy.dispose();
});

test('a restored panel loads the features and goes to their serializer', async () => {
  const restored: unknown[] = [];
  new LazyFeatures({
    commands: [],
    trees: {},
    serializers: ['paygate.results'],
    load: (host) =>
      host.serializer('paygate.results', {
        deserializeWebviewPanel: async (panel, state) => void restored.push([panel, state]),
      }),
  });
  assert.equal(serializers.size, 0);
  await nextTurn();
  const serializer = serializers.get('paygate.results');
  assert.ok(serializer, 'the serializer is registered in the turn after activation');
  await serializer.deserializeWebviewPanel('panel', { title: 't' });
  assert.deepEqual(restored, [['panel', { title: 't' }]]);
});

test('features loaded before the next turn hand the views over first; a host disposed before then registers none', async () => {
  const order: string[] = [];
  const lazy = new LazyFeatures({
    commands: ['paygate.a'],
    trees: { 'paygate.submissions': {} },
    serializers: ['paygate.results'],
    load: (host) => {
      order.push(`load with ${trees.size} view and ${serializers.size} serializer`);
      host.tree('paygate.submissions', { getChildren: () => [], getTreeItem: () => ({}) });
      fakeVscode.commands.registerCommand('paygate.a', () => 'a');
    },
  });
  assert.equal(await fakeVscode.commands.executeCommand('paygate.a'), 'a');
  assert.deepEqual(order, ['load with 1 view and 1 serializer']);
  await nextTurn();
  assert.equal(trees.size, 1, 'registered once');
  lazy.dispose();
  commands.clear();
  const early = new LazyFeatures({ commands: [], trees: { 'paygate.callbacks': {} }, serializers: ['paygate.pdfReport'], load: () => {} });
  early.dispose();
  await nextTurn();
  assert.equal(trees.has('paygate.callbacks'), false);
  assert.equal(serializers.has('paygate.pdfReport'), false);
});

test('features that fail to load are not loaded twice, and the error reaches the caller', async () => {
  let loads = 0;
  const lazy = new LazyFeatures({
    commands: ['paygate.a'],
    trees: {},
    serializers: [],
    load: () => {
      loads++;
      throw new Error('broken bundle');
    },
  });
  await assert.rejects(fakeVscode.commands.executeCommand('paygate.a'), /broken bundle/);
  assert.doesNotThrow(() => lazy.ensureLoaded());
  assert.equal(loads, 1);
  assert.equal(lazy.loaded, false);
});
