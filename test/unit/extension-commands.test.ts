import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import Module from 'node:module';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type * as Features from '../../src/extension/features';

// Every command package.json declares is registered by the features, and every paygate.* command they
// register is declared (issue 42: caught by the unit suite, not only in the real editor). Commands are
// registered through constants, loops and helpers, so the ids are not read from the text: the features'
// own wiring (activateFeatures, the entry of dist/features.js) runs against a fake of the vscode API that
// records registerCommand and answers everything else with a harmless stand-in. The integration suite's
// check (test/integration/commands.test.ts) cannot tell a stand-in from a real command: activation
// registers a stand-in for every declared command (lazy.ts), so it sees them all until the features load.
// Menus and keybindings may name only declared commands.

const registered: string[] = [];

/** Anything: callable, constructible, thenable-free, every member another stand-in; a disposable too. */
function anything(name = 'vscode'): unknown {
  const target = function () {} as unknown as Record<string | symbol, unknown>;
  return new Proxy(target, {
    get(_t, key) {
      if (key === 'then') return undefined; // not a promise
      if (key === Symbol.toPrimitive) return () => name;
      if (key === Symbol.iterator) return function* () {};
      if (key === 'dispose') return () => undefined;
      return anything(`${name}.${String(key)}`);
    },
    apply: () => anything(`${name}()`),
    construct: () => anything(`new ${name}`) as object,
  });
}

/** A stand-in with some members of its own. */
function withMembers(name: string, members: Record<string, unknown>): unknown {
  const rest = anything(name) as Record<string | symbol, unknown>;
  return new Proxy(members, { get: (t, key) => (key in t ? t[key as string] : rest[key]) });
}

class EventEmitter<T> {
  event = (_listener: (e: T) => void) => ({ dispose: () => undefined });
  fire(_e: T): void {}
  dispose(): void {}
}

/** The API's namespaces and classes the extension's code names (an import copies the module's own keys). */
const NAMES = [
  'workspace',
  'window',
  'env',
  'languages',
  'extensions',
  'Uri',
  'Range',
  'Position',
  'Selection',
  'TreeItem',
  'ThemeIcon',
  'ThemeColor',
  'TreeItemCollapsibleState',
  'ViewColumn',
  'CodeLens',
  'CodeAction',
  'CodeActionKind',
  'TabInputText',
  'TextEdit',
  'RelativePattern',
  'EndOfLine',
  'WorkspaceEdit',
  'StatusBarAlignment',
  'MarkdownString',
  'FileType',
  'QuickPickItemKind',
  'ProgressLocation',
  'DiagnosticSeverity',
  'Diagnostic',
  'ConfigurationTarget',
  'SnippetString',
  'TextEditorRevealType',
];

const fakeVscode: Record<string, unknown> = {
  ...Object.fromEntries(NAMES.map((n) => [n, anything(n)])),
  // Settings at their defaults, no folder open, no document: what a fresh window has.
  workspace: withMembers('workspace', {
    getConfiguration: () => ({ get: (_key: string, fallback?: unknown) => fallback, has: () => false, inspect: () => undefined }),
    workspaceFolders: undefined,
    textDocuments: [],
  }),
  EventEmitter,
  Disposable: class {
    static from = () => ({ dispose: () => undefined });
    constructor(private readonly done?: () => void) {}
    dispose(): void {
      this.done?.();
    }
  },
  commands: withMembers('commands', {
    registerCommand: (id: string) => {
      registered.push(id);
      return { dispose: () => undefined };
    },
    registerTextEditorCommand: (id: string) => {
      registered.push(id);
      return { dispose: () => undefined };
    },
  }),
};

const resolve = (Module as unknown as { _resolveFilename: (r: string, ...rest: unknown[]) => string })._resolveFilename;
(Module as unknown as { _resolveFilename: unknown })._resolveFilename = function (request: string, ...rest: unknown[]) {
  return request === 'vscode' ? 'vscode' : resolve.apply(this, [request, ...rest]);
};
require.cache.vscode = { id: 'vscode', filename: 'vscode', loaded: true, exports: fakeVscode } as unknown as NodeJS.Module;
// eslint-disable-next-line @typescript-eslint/no-require-imports -- after the fake is in place
const { activateFeatures } = require('../../src/extension/features') as typeof Features;

interface Manifest {
  contributes: {
    commands: { command: string }[];
    menus?: Record<string, { command?: string }[]>;
    keybindings?: { command: string }[];
  };
}

const ROOT = join(__dirname, '..', '..');
const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as Manifest;
const scratch = mkdtempSync(join(tmpdir(), 'paygate-commands-'));
after(() => rmSync(scratch, { recursive: true, force: true }));
const declared = manifest.contributes.commands.map((c) => c.command);

/** The paygate.* ids the features register, as the editor would see them once they are loaded. */
function featuresRegister(): string[] {
  registered.length = 0;
  const subscriptions: { dispose(): unknown }[] = [];
  // Folders the features may name at registration: a scratch one, removed afterwards.
  const folder = (fsPath: string) => ({ fsPath, path: fsPath, scheme: 'file', toString: () => `file://${fsPath}` });
  const known: Record<string, unknown> = {
    subscriptions,
    extensionUri: folder(ROOT),
    extensionPath: ROOT,
    globalStorageUri: folder(join(scratch, 'global')),
    storageUri: folder(join(scratch, 'workspace')),
    logUri: folder(join(scratch, 'log')),
  };
  const context = withMembers('context', known);
  const entry = anything('entry');
  const host = { tree: () => undefined, serializer: () => undefined };
  activateFeatures(context as never, entry as never, host as never);
  return registered.filter((id) => id.startsWith('paygate.'));
}

test('every declared command is registered by the features, and every paygate.* command they register is declared', () => {
  const ids = featuresRegister();
  assert.ok(ids.length > 10, `the fake saw the features register: ${ids.join(', ')}`);
  assert.deepEqual(
    ids.filter((id, i) => ids.indexOf(id) !== i),
    [],
    'registered twice (the editor refuses the second)',
  );
  const missing = declared.filter((id) => !ids.includes(id));
  assert.deepEqual(missing, [], `declared in package.json but registered by no feature: ${missing.join(', ')}`);
  const undeclared = ids.filter((id) => !declared.includes(id));
  assert.deepEqual(
    undeclared,
    [],
    `registered but not in contributes.commands (declare them; hide internal ones with menus.commandPalette "when": "false"): ${undeclared.join(', ')}`,
  );
});

test('menus and keybindings name only declared commands', () => {
  const named = [
    ...Object.entries(manifest.contributes.menus ?? {}).flatMap(([menu, items]) => items.map((i) => [menu, i.command] as const)),
    ...(manifest.contributes.keybindings ?? []).map((k) => ['keybindings', k.command] as const),
  ].filter((entry): entry is readonly [string, string] => entry[1] !== undefined);
  assert.ok(named.length > 0);
  const unknown = named.filter(([, id]) => !declared.includes(id)).map(([where, id]) => `${where}: ${id}`);
  assert.deepEqual(unknown, [], `menus or keybindings naming a command package.json does not declare: ${unknown.join(', ')}`);
});
