import { test } from 'node:test';
import assert from 'node:assert/strict';
import Module from 'node:module';
import type * as StatusBar from '../../src/extension/environments/statusBar';
import type * as Say from '../../src/extension/say';
import type { LocalGatewayInfo } from '../../src/extension/environments/localGateway';
import { ourWords, said, typed } from '../../src/core/output';
import { MarkdownString } from '../fixtures/vscode/markdownString';

// The environment status item and the environment picker pass the editor's floor with each value alone (issue
// 38). Their words come from the settings (an environment's name, URLs, endpoint, consumer key) and the local
// gateway (who runs it, its pid, its state directory). Before, the item's text, tooltip and accessible label
// were set as they were composed, with no floor at all: a card number in a setting was shown whole. Against a
// fake of the parts of the vscode API they use.

const CARD = '4111 1111 1111 1111';
const MASKED = '4111 11** **** 1111';
let settings: Record<string, unknown> = {};
let picked: { items: { label: string; description?: string; detail?: string }[]; placeHolder?: string } | undefined;
const item = { text: '', tooltip: undefined as unknown, accessibilityInformation: undefined as { label: string } | undefined } as Record<
  string,
  unknown
>;
const fakeVscode = {
  MarkdownString,
  ThemeColor: class {},
  StatusBarAlignment: { Left: 1 },
  QuickPickItemKind: { Separator: -1 },
  workspace: { getConfiguration: () => ({ get: (key: string, d: unknown) => settings[key] ?? d }) },
  window: {
    createStatusBarItem: () => Object.assign(item, { show() {}, dispose() {} }),
    showQuickPick: (items: { label: string }[], options: { placeHolder?: string }) => {
      picked = { items, placeHolder: options.placeHolder };
      return Promise.resolve(undefined);
    },
  },
};
const resolve = (Module as unknown as { _resolveFilename: (r: string, ...rest: unknown[]) => string })._resolveFilename;
(Module as unknown as { _resolveFilename: unknown })._resolveFilename = function (request: string, ...rest: unknown[]) {
  return request === 'vscode' ? 'vscode' : resolve.apply(this, [request, ...rest]);
};
require.cache.vscode = { id: 'vscode', filename: 'vscode', loaded: true, exports: fakeVscode } as unknown as NodeJS.Module;
/* eslint-disable @typescript-eslint/no-require-imports -- after the fake is in place */
const { EnvironmentStatus, selectEnvironmentCommand } = require('../../src/extension/environments/statusBar') as typeof StatusBar;
const { showPick } = require('../../src/extension/say') as typeof Say;
/* eslint-enable @typescript-eslint/no-require-imports */

const environment = {
  name: `prod ${CARD}`,
  baseUrl: `https://gw.example/${CARD}/paynet`,
  reportBaseUrl: 'https://gw.example/reports',
  endpointId: '1001',
  consumerKey: 'key-7000083',
  production: true,
};

test('the status item: a card in a setting is masked in its text, tooltip and accessible label; counts and ids beside it stay', () => {
  settings = { environments: [environment], environment: environment.name };
  const status = new EnvironmentStatus(() => ({ running: false }));
  const tooltip = (item.tooltip as MarkdownString).value;
  const label = (item.accessibilityInformation as { label: string }).label;
  for (const shown of [String(item.text), tooltip, label]) assert.ok(shown.includes(`prod ${MASKED}`) || !shown.includes('prod'), shown);
  assert.equal(item.text, `$(warning) PayGate: prod ${MASKED}`);
  assert.match(
    tooltip,
    new RegExp(`^PRODUCTION — real cards are charged\\. Payments: https://gw\\.example/4111 11\\*\\* \\*{4} 1111/paynet\\n`),
  );
  assert.match(tooltip, /\nEndpoint 1001, consumer key key-7000083\n/);
  assert.ok(!label.replace(/\D/g, '').includes('4111111111111111'), label);
  status.dispose();
});

test('the status item of the local gateway: who runs it and its pid as values, a card in its state directory masked', () => {
  settings = {};
  const info: LocalGatewayInfo = {
    running: true,
    baseUrl: 'http://127.0.0.1:4711/paynet',
    externalPid: 70000,
    runBy: 'paygate gateway',
    stateDir: `/srv/${CARD}`,
  } as LocalGatewayInfo;
  const status = new EnvironmentStatus(() => info);
  assert.equal(item.text, '$(server-environment) PayGate: local');
  assert.equal(
    (item.tooltip as MarkdownString).value,
    `Local gateway run by paygate gateway (pid 70000), at http://127.0.0.1:4711/paynet\nState: /srv/${MASKED}\n\nClick to select another environment.`,
  );
  status.dispose();
});

test('the environment picker: a card in a setting is masked in each item and the placeholder', async () => {
  settings = { environments: [environment], environment: environment.name };
  const status = new EnvironmentStatus(() => ({ running: false }));
  await selectEnvironmentCommand(status);
  const prod = picked?.items.find((i) => i.label.includes('prod'));
  assert.equal(prod?.label, `$(warning) prod ${MASKED}`);
  assert.equal(prod?.description, 'PRODUCTION · current');
  assert.equal(prod?.detail, 'endpoint 1001 · consumer key key-7000083');
  assert.equal(picked?.placeHolder, `Active PayGate environment (now: prod ${MASKED})`);
  status.dispose();
});

test('a pick list takes Saids only: a plain string does not compile', async () => {
  // @ts-expect-error -- an item's label is a Said (values checked alone), not a composed string
  await showPick([{ label: `local ${CARD}` }], {});
  await showPick([{ label: said`local ${typed.text(CARD)}` }], { placeHolder: ourWords('Pick one') });
  assert.equal(picked?.items[0].label, `local ${MASKED}`);
});
