import { test } from 'node:test';
import assert from 'node:assert/strict';
import Module from 'node:module';
import type * as LedgerView from '../../src/extension/ledger/view';
import type * as CallbacksView from '../../src/extension/callbacks/view';
import type * as Say from '../../src/extension/say';
import type { SubmissionRecord } from '../../src/core/ledger';
import type { CallbackEntry } from '../../src/callback-listener';
import { ourWords, said, typed } from '../../src/core/output';
import { MarkdownString } from '../fixtures/vscode/markdownString';

// The editor's views pass its floor with their values typed (issue 38): the Submissions view's items (a
// content hash whole and cut, a row count, a date), the Callbacks view's items and the resend pick lists
// (src/extension/say.ts showPick). Before, the trees' labels, descriptions and tooltips passed no floor at all
// (a card number in a file name or a gateway's message was shown as kept) and pick lists neither; now free
// text in them is masked, typed values stay whole. Against a fake of the parts of the vscode API they use.

class TreeItem {
  description?: string;
  tooltip?: unknown;
  id?: string;
  iconPath?: unknown;
  command?: unknown;
  contextValue?: string;
  constructor(
    readonly label: string,
    readonly collapsibleState: number,
  ) {}
}
class EventEmitter {
  event = () => ({ dispose() {} });
  fire() {}
  dispose() {}
}
let picked: { items: Array<{ label: string; description?: string; detail?: string; kind?: number }>; title?: string } | undefined;
const fakeVscode = {
  TreeItem,
  MarkdownString,
  EventEmitter,
  ThemeIcon: class {},
  ThemeColor: class {},
  TreeItemCollapsibleState: { None: 0, Collapsed: 1 },
  workspace: { getConfiguration: () => ({ get: (_: string, d: unknown) => d }) },
  window: {
    showQuickPick: (items: Array<{ label: string }>, options: { title?: string }) => {
      picked = { items, title: options.title };
      return Promise.resolve(items[1]);
    },
  },
};
const resolve = (Module as unknown as { _resolveFilename: (r: string, ...rest: unknown[]) => string })._resolveFilename;
(Module as unknown as { _resolveFilename: unknown })._resolveFilename = function (request: string, ...rest: unknown[]) {
  return request === 'vscode' ? 'vscode' : resolve.apply(this, [request, ...rest]);
};
require.cache.vscode = { id: 'vscode', filename: 'vscode', loaded: true, exports: fakeVscode } as unknown as NodeJS.Module;
/* eslint-disable @typescript-eslint/no-require-imports -- after the fake is in place */
const { SubmissionsTree } = require('../../src/extension/ledger/view') as typeof LedgerView;
const { CallbacksTree } = require('../../src/extension/callbacks/view') as typeof CallbacksView;
const { showPick } = require('../../src/extension/say') as typeof Say;
/* eslint-enable @typescript-eslint/no-require-imports */

const HASH = '4111111111111111d0e1f2a3b4c5d6e7f8091a2b3c4d5e6f708192a3b4c5d6e7';
const CARD = '4111\u200b1111\u200b1111\u200b1111';
const digits = (s: string) => s.replace(/\D/g, '');
/** A tree item's text; anything but a string (a Said, an object) is shown as JSON, so it fails the assertions. */
const text = (v: unknown) => (typeof v === 'string' ? v : JSON.stringify(v ?? ''));
const texts = (item: { label?: unknown; description?: unknown; tooltip?: unknown }) => [
  text(item.label),
  text(item.description ?? ''),
  item.tooltip instanceof MarkdownString ? item.tooltip.value : text(item.tooltip ?? ''),
];

const record: SubmissionRecord = {
  id: 'r1',
  time: '2026-11-28T20:07:39.000Z',
  face: 'editor',
  pid: 1,
  host: 'h',
  environment: 'local',
  production: false,
  endpointId: '1000010',
  endpoint: 'http://127.0.0.1:8080/payment/api/v2/create-recurring-payments/1000010',
  file: `/w/batch-${CARD}.rpcsv`,
  rowCount: 7000083,
  contentHash: HASH,
  signatureMethod: 'HMAC-SHA1',
  state: 'done',
  outcome: 'declined' as SubmissionRecord['outcome'],
  message: `card ${CARD} refused`,
  recurringPaymentIds: ['41111111-1111-4111-a111-111111111111'],
  serialNumbers: ['1000010'],
  statuses: ['approved'],
  seq: 1,
};

test('the Submissions view: a hash whole and cut, counts and dates whole; a card in a file name or message masked', async () => {
  const ledger = { onDidChange: () => ({ dispose() {} }), place: 'file ledger' };
  const tree = new SubmissionsTree(ledger as never);
  const item = tree.getTreeItem({ kind: 'record', record });
  const details = (await tree.getChildren({ kind: 'record', record })).map((n) => tree.getTreeItem(n));
  const approval = tree.getTreeItem({ kind: 'approval', key: `local\0${HASH}`, approvals: [] });
  const all = [item, ...details, approval].flatMap(texts).join('\n');
  assert.ok(!all.includes(CARD), all);
  assert.equal(
    (all.match(/4111\u200b11\*\*\u200b\*{4}\u200b1111/g) ?? []).length,
    5,
    'the label, the tooltip (path and message), the message item: each masked',
  );
  assert.ok(all.includes(HASH), 'the hash whole');
  assert.equal(approval.label, `local · sha256 ${HASH.slice(0, 12)}…`);
  assert.ok(all.includes('7000083 row(s)') && all.includes('41111111-1111-4111-a111-111111111111'), all);
});

test('the Callbacks view: a forward status beside a time stays whole; a card in a field is masked', () => {
  const listening = { address: undefined, forwardTo: undefined, entries: () => [], onDidChange: () => ({ dispose() {} }) };
  const tree = new CallbacksTree(listening as never, () => undefined);
  const entry = {
    id: 'e1',
    time: '2026-11-28T20:07:39.000Z',
    method: 'POST',
    path: `/cb/${CARD}`,
    fields: { status: 'approved', 'client-orderid': `ORD ${CARD}` },
    control: { state: 'absent' },
    forwarded: { url: 'http://127.0.0.1:9000/h', status: 200, ms: 3 },
  } as unknown as CallbackEntry;
  const item = tree.getTreeItem({ kind: 'entry', entry } as never);
  const all = texts(item).join('\n');
  assert.ok(!all.includes(CARD) && !digits(all).includes(digits(CARD)), all);
  assert.match(all, /→ 200$/m);
  assert.match(all, /2026-11-28T20:07:39\.000Z/);
});

test('a pick list passes the floor: typed values whole, free text masked, the chosen item comes back as given', async () => {
  const items = [
    {
      label: ourWords("Don't send"),
      detail: said`last sent ${typed.date('2026-11-28 20:07 UTC')}: serial-number ${typed.text('1000010')} ${typed.count(7000083)}`,
    },
    { label: ourWords('$(warning) Send again'), detail: said`batch ${typed.text(CARD)}.rpcsv`, extra: 1 },
  ];
  const chosen = await showPick(items, { title: said`sha256 ${typed.hash(HASH, 20)}…`, ignoreFocusOut: true });
  assert.equal(chosen, items[1]);
  assert.equal(picked?.items[0].detail, 'last sent 2026-11-28 20:07 UTC: serial-number 1000010 7000083');
  assert.equal(picked?.items[1].detail, 'batch 4111\u200b11**\u200b****\u200b1111.rpcsv');
  assert.equal(picked?.title, `sha256 ${HASH.slice(0, 20)}…`);
});

test('a pick list keeps its separators, as the environment picker has one before "Add environment…"', async () => {
  const items = [
    { label: said`local ${typed.text(CARD)}` },
    { label: ourWords(''), kind: -1 },
    { label: ourWords('$(add) Add environment…') },
  ];
  await showPick(items, {});
  assert.deepEqual(
    picked?.items.map((i) => i.kind),
    [undefined, -1, undefined],
  );
  assert.ok(!digits(picked?.items[0].label ?? '').includes(digits(CARD)));
});
