import { test } from 'node:test';
import assert from 'node:assert/strict';
import Module from 'node:module';
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type * as Extension from '../../src/extension/extension';

// What activate() does synchronously (issue 40: our part of the activation ≤ 5 ms), against a small fake of
// the vscode API: every contributed command is registered when it returns, both tree views and both panel
// serializers in the next turn (before the first screen); the log's channel is not made and the output boundary is not loaded until the log's two
// activation lines are written: in the next turn, or before anything else loads if that is sooner. The
// other bundles are not there (a missing dist/ folder), so what would load them fails into the log.

const calls: string[] = [];
const lines: string[] = [];
const done = () => ({ dispose() {} });
class EventEmitter {
  event = () => done();
  fire(): void {}
  dispose(): void {}
}
const handlers = new Map<string, (...args: unknown[]) => unknown>();
const write = (level: string) => (m: string) => lines.push(`${level} ${m}`);
const fakeVscode = {
  EventEmitter,
  window: {
    createOutputChannel(name: string, options: { log: boolean }) {
      calls.push(`channel ${name} ${options.log}`);
      return { name, logLevel: 2, info: write('info'), error: write('error'), dispose() {} };
    },
    createTreeView: (id: string) => (calls.push(`tree ${id}`), done()),
    registerWebviewPanelSerializer: (viewType: string) => (calls.push(`serializer ${viewType}`), done()),
  },
  commands: {
    registerCommand(id: string, fn: (...args: unknown[]) => unknown) {
      handlers.set(id, fn);
      return { dispose: () => handlers.delete(id) };
    },
  },
};
const resolve = (Module as unknown as { _resolveFilename: (r: string, ...rest: unknown[]) => string })._resolveFilename;
(Module as unknown as { _resolveFilename: unknown })._resolveFilename = function (request: string, ...rest: unknown[]) {
  return request === 'vscode' ? 'vscode' : resolve.apply(this, [request, ...rest]);
};
require.cache.vscode = { id: 'vscode', filename: 'vscode', loaded: true, exports: fakeVscode } as unknown as NodeJS.Module;
// eslint-disable-next-line @typescript-eslint/no-require-imports -- after the fake is in place
const { activate } = require('../../src/extension/extension') as typeof Extension;

const manifest = JSON.parse(readFileSync(join(__dirname, '..', '..', 'package.json'), 'utf8')) as {
  version: string;
  contributes: { commands: { command: string }[] };
};
const nowhere = join(tmpdir(), 'paygate-no-such-extension');
const context = () =>
  ({ subscriptions: [], extension: { packageJSON: manifest }, asAbsolutePath: (p: string) => join(nowhere, p) }) as never;
const boundaryLoaded = () => Object.keys(require.cache).some((k) => /[\\/]src[\\/](core[\\/]output[\\/]|extension[\\/]boundary\.)/.test(k));
const nextTurn = () => new Promise((done) => setImmediate(done));
const ACTIVATION_LINES = [`info PayGate Toolkit ${manifest.version} activating`, 'info PayGate Toolkit active'];

test('activate() registers every stand-in, makes no log channel and loads no boundary; the two lines follow in the next turn', async () => {
  calls.length = lines.length = 0;
  handlers.clear();
  activate(context());
  assert.deepEqual([...handlers.keys()].sort(), manifest.contributes.commands.map((c) => c.command).sort());
  assert.equal(handlers.size, 28);
  // The tree views and serializers go to the editor in the next turn (lazy.ts), before the first screen.
  assert.deepEqual(calls, []);
  assert.deepEqual(lines, []);
  assert.equal(boundaryLoaded(), false);
  await nextTurn();
  assert.deepEqual(calls, [
    'tree paygate.submissions',
    'tree paygate.callbacks',
    'serializer paygate.results',
    'serializer paygate.pdfReport',
    'channel PayGate true',
  ]);
  assert.deepEqual(lines.slice(0, 2), ACTIVATION_LINES);
  // The first screen's bundle is not there: said in the log, after the activation lines.
  assert.match(lines[2], /^error PayGate first screen did not load: /);
  assert.equal(boundaryLoaded(), true);
});

test('a command called before the next turn writes the activation lines first, then what its loading said', async () => {
  calls.length = lines.length = 0;
  handlers.clear();
  activate(context());
  assert.throws(() => handlers.get(manifest.contributes.commands[0].command)!());
  assert.deepEqual(lines.slice(0, 2), ACTIVATION_LINES);
  assert.match(lines[2], /^error PayGate features did not load: /);
  await nextTurn();
  assert.equal(lines.filter((l) => l.includes('activating')).length, 1);
  assert.equal(calls.filter((c) => c.startsWith('channel')).length, 1);
});
