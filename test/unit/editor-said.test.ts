import { test } from 'node:test';
import assert from 'node:assert/strict';
import Module from 'node:module';
import type * as Say from '../../src/extension/say';
import type * as Log from '../../src/extension/log';
import type * as Output from '../../src/core/output';
import { isSaid, said, saidText, terminalSafe, typed, type Said } from '../../src/core/output';
import { fakeLogChannel } from '../fixtures/vscode/logChannel';

// Mask values, not layouts, in the editor (issue 38): its floors (a message, src/extension/say.ts; a log line,
// src/extension/log.ts) read a `Said` part by part, each value by its type, so values meeting on a line are
// never one number; free text is still read whole. The log is written by one bundle (the features) and read by
// another's floor (the entry's), each with its own copy of the core: a `Said` is plain data, so the floor of a
// second copy of the module (required afresh here) and one that came through JSON (postMessage, LSP) read it
// the same. The cases marked "read whole before" were damaged when the same line was a composed string.

const shown: string[] = [];
const logged: string[] = [];
const channel = fakeLogChannel((_m, t) => logged.push(t));
const say = (message: string) => (shown.push(message), Promise.resolve(undefined));
const fakeVscode = {
  window: { showErrorMessage: say, showWarningMessage: say, showInformationMessage: say, createOutputChannel: () => channel },
};
const resolve = (Module as unknown as { _resolveFilename: (r: string, ...rest: unknown[]) => string })._resolveFilename;
(Module as unknown as { _resolveFilename: unknown })._resolveFilename = function (request: string, ...rest: unknown[]) {
  return request === 'vscode' ? 'vscode' : resolve.apply(this, [request, ...rest]);
};
require.cache.vscode = { id: 'vscode', filename: 'vscode', loaded: true, exports: fakeVscode } as unknown as NodeJS.Module;
/* eslint-disable @typescript-eslint/no-require-imports -- after the fake is in place */
const { showInfo, showWarning, shown: shownText } = require('../../src/extension/say') as typeof Say;
const { createLog, log } = require('../../src/extension/log') as typeof Log;

/** A second copy of the core's output module, as another bundle holds one. */
function anotherCopy(): typeof Output {
  const dir = require.resolve('../../src/core/output');
  const mine = Object.keys(require.cache).filter((k) => k.startsWith(dir.slice(0, dir.lastIndexOf('/'))));
  const saved = mine.map((k) => [k, require.cache[k]] as const);
  for (const k of mine) delete require.cache[k];
  const copy = require('../../src/core/output') as typeof Output;
  for (const [k, m] of saved) require.cache[k] = m;
  return copy;
}
/* eslint-enable @typescript-eslint/no-require-imports */

const HASH = '4111111111111111d0e1f2a3b4c5d6e7f8091a2b3c4d5e6f708192a3b4c5d6e7';
const UUID = '41111111-1111-4111-a111-111111111111';

/** Values that meet on one line: each stays as it is. Two counts side by side and a hash's prefix were read whole before. */
const values: Array<{ line: Said; composed: string; whole: string[] }> = [
  {
    line: said`charged ${typed.date('28.12.2025')} ${typed.amount('29.990')} EUR`,
    composed: 'charged 28.12.2025 29.990 EUR',
    whole: ['28.12.2025 29.990'],
  },
  {
    line: said`serial-number ${typed.text('1000010')} ${typed.count(7000083)} rows`,
    composed: 'serial-number 1000010 7000083 rows',
    whole: ['1000010 7000083'],
  },
  {
    line: said`approved sha256 ${typed.hash(HASH, 20)}… on ${typed.date('2026-11-28T20:07:39Z')}`,
    composed: `approved sha256 ${HASH.slice(0, 20)}… on 2026-11-28T20:07:39Z`,
    whole: [HASH.slice(0, 20)],
  },
  { line: said`sha256 ${typed.hash(HASH)}, payment ${typed.id(UUID)}`, composed: `sha256 ${HASH}, payment ${UUID}`, whole: [HASH, UUID] },
];

test('the floor reads a Said value by value: a date beside an amount, counts side by side, a hash cut, a UUID stay whole', async () => {
  shown.length = logged.length = 0;
  createLog({ subscriptions: [] } as never);
  for (const { line, whole } of values) {
    await showInfo(line);
    log().info(line);
    for (const out of [shown.at(-1)!, logged.at(-1)!]) for (const w of whole) assert.ok(out.includes(w), `${w} in ${out}`);
    for (const out of [shown.at(-1)!, logged.at(-1)!]) assert.doesNotMatch(out, /\*/, out);
  }
  // The same lines composed as strings (as the editor wrote them): the floor reads them whole and damages some.
  assert.ok(
    values.some(({ composed, whole }) => whole.some((w) => !terminalSafe(composed).includes(w))),
    'a composed line is read whole',
  );
});

test('another bundle’s floor, or one across JSON (postMessage, LSP), reads a Said the same: no shared registry', () => {
  const copy = anotherCopy();
  assert.notEqual(copy.saidText, saidText, 'a second copy of the module');
  for (const { line } of values) {
    const sent = JSON.parse(JSON.stringify(line)) as unknown;
    assert.ok(copy.isSaid(sent) && isSaid(sent));
    assert.equal(copy.saidText(sent as Said), saidText(line));
  }
  // The log channel is read by the entry's floor whoever wrote it: a Said made by another copy is read part by part.
  logged.length = 0;
  log().warn(copy.said`count ${copy.typed.count(1000010)} ${copy.typed.count(7000083)}`);
  assert.equal(logged[0], 'count 1000010 7000083');
});

// A card number a person reads whole, written with separators the issue lists.
const CARDS = [
  '4111\u200b1111\u200b1111\u200b1111',
  '４１１１１１１１１１１１１１１１',
  '4111–1111–1111–1111',
  '5105\u20601051\u20600510\u20605100',
];

test('free text is still read whole: a card with zero-width, fullwidth or dash separators is masked', async () => {
  shown.length = logged.length = 0;
  for (const card of CARDS) {
    const name = `batch ${card}.rpcsv`;
    const lines: Array<string | Said> = [
      said`${typed.text(name)}: ${typed.count(3)} rows`,
      // A card handed over as a date, an amount, a count or a hash is no such value: it is scanned.
      said`due ${typed.date(card)} ${typed.amount(card)} ${typed.count(card)} ${typed.hash(card)} ${typed.id(card, 30)}`,
      // Our words are read too (a forged Said from a page or a process), and so is a part of no known type.
      { said: [`words ${card} `, ['nonsense', card] as unknown as [never, string]] },
      `PayGate: ${name}`,
    ];
    // The plain string stands for one that reached the floor past the types (a cast, plain JavaScript): read whole.
    for (const line of lines as Said[]) {
      await showWarning(line);
      log().error(line);
    }
    for (const out of [...shown, ...logged]) assert.ok(!out.replace(/[^\d０-９]/g, '').includes(card.replace(/[^\d０-９]/g, '')), out);
    assert.ok(shown.every((s) => s.includes('*')));
  }
});

test('a Said part is one line; our words keep their line breaks; control characters are escaped', () => {
  const out = shownText(said`first\nsecond ${typed.text('answer\n\x1b[2JFORGED')} ${typed.date('28.12.2025\r')}`);
  assert.equal(out, 'first\nsecond answer\\n\\x1b[2JFORGED 28.12.2025\\r');
  // A plain string does not compile; one cast past the types (or from another bundle) is read whole.
  // @ts-expect-error -- shown() takes a Said only
  assert.equal(shownText('plain 4111 1111 1111 1111'), 'plain 4111 11** **** 1111');
});
