import { test } from 'node:test';
import assert from 'node:assert/strict';
import Module from 'node:module';
import type * as Say from '../../src/extension/say';
import type * as Clock from '../../src/extension/environments/clockText';
import { said, typed } from '../../src/core/output';

// Mask values, not layouts, in the editor's input boxes, progress and messages (issue 38). Before, an input box passed
// no floor at all (vscode.window.showInputBox was called with its title, prompt and default as they were): a
// card number in an environment's name or a URL was shown whole. ask() (src/extension/say.ts) reads its words
// as `Said`s, value by value, and offers a default only when the floor leaves it as it is (the box's text is
// the answer). The messages' test is in editor-said.test.ts; here, the advance-clock message as built.

type Box = { title?: string; prompt?: string; placeHolder?: string; value?: string; validateInput?: (v: string) => unknown };
const boxes: Box[] = [];
const shown: string[] = [];
let answer: string | undefined;
const fakeVscode = {
  window: {
    showInputBox: (o: Box) => (boxes.push(o), Promise.resolve(answer)),
    showInformationMessage: (m: string) => (shown.push(m), Promise.resolve(undefined)),
    withProgress: (o: { title?: string }, task: (p: { report: (v: { message?: string }) => void }) => Promise<unknown>) => {
      shown.push(`progress: ${o.title}`);
      return task({ report: (v) => shown.push(`report: ${v.message}`) });
    },
  },
};
const resolve = (Module as unknown as { _resolveFilename: (r: string, ...rest: unknown[]) => string })._resolveFilename;
(Module as unknown as { _resolveFilename: unknown })._resolveFilename = function (request: string, ...rest: unknown[]) {
  return request === 'vscode' ? 'vscode' : resolve.apply(this, [request, ...rest]);
};
require.cache.vscode = { id: 'vscode', filename: 'vscode', loaded: true, exports: fakeVscode } as unknown as NodeJS.Module;
/* eslint-disable @typescript-eslint/no-require-imports -- after the fake is in place */
const { ask, showInfo, withProgress } = require('../../src/extension/say') as typeof Say;
const { advanceMessage } = require('../../src/extension/environments/clockText') as typeof Clock;
/* eslint-enable @typescript-eslint/no-require-imports */

const CARD = '4111111111111111';
const MASKED = '411111******1111';
// A content hash whose first 20 characters hold a Luhn-valid 16-digit run: read whole, its prefix was damaged.
const HASH = '4111111111111111d0e1f2a3b4c5d6e7f8091a2b3c4d5e6f708192a3b4c5d6e7';

test("an input box: a card in an environment's name or the gateway's text is masked; dates, amounts, counts and a hash stay whole", async () => {
  boxes.length = 0;
  answer = 'typed by the person';
  const got = await ask({
    title: said`PayGate: consumer secret of "${typed.text(`shop ${CARD}`)}"`,
    prompt: said`Charge of ${typed.date('28.12.2025')} ${typed.amount('29.990')} EUR, serials ${typed.count(1000010)} ${typed.count(7000083)}`,
    placeHolder: said`sha256 ${typed.hash(HASH, 20)}…`,
    value: typed.count(35),
    validateInput: (v) => (v === '' ? undefined : said`the gateway says: ${typed.text(`card ${CARD} refused`)}`),
  });
  assert.equal(got, 'typed by the person', 'the answer comes back as typed');
  const [box] = boxes;
  assert.equal(box.title, `PayGate: consumer secret of "shop ${MASKED}"`);
  assert.equal(box.prompt, 'Charge of 28.12.2025 29.990 EUR, serials 1000010 7000083');
  assert.equal(box.placeHolder, `sha256 ${HASH.slice(0, 20)}…`);
  assert.equal(box.value, '35');
  assert.equal(box.validateInput?.('x'), `the gateway says: card ${MASKED} refused`);
  assert.equal(box.validateInput?.(''), undefined);
});

test('an input box offers no default the floor would change: a masked default accepted as it stands would be a damaged answer', async () => {
  boxes.length = 0;
  answer = undefined;
  await ask({ prompt: said`Forward every callback to`, value: typed.text(`http://127.0.0.1:3000/cb/${CARD}`), valueSelection: [0, 5] });
  await ask({ prompt: said`Forward every callback to`, value: typed.text('http://127.0.0.1:3000/'), valueSelection: [0, 5] });
  assert.equal(boxes[0].value, undefined);
  assert.ok(!JSON.stringify(boxes[0]).includes(CARD));
  assert.equal(boxes[1].value, 'http://127.0.0.1:3000/');
});

test("the advance-clock message, as built, keeps its date and counts whole; a card in the gateway's words is masked", async () => {
  shown.length = 0;
  const charge = (status: 'approved' | 'declined') => ({ status }) as never;
  const message = advanceMessage(35, { today: '26.02.2027', charges: [charge('approved'), charge('declined')], stopped: [] });
  await showInfo(said`PayGate: ${message}. ${typed.text(`The gateway: ${CARD}`)}`);
  assert.equal(shown[0], `PayGate: Advanced 35 days to 26.02.2027: 2 charges (1 approved, 1 declined). The gateway: ${MASKED}`);
});

test('a progress notification: its title and each message pass the floor, value by value', async () => {
  shown.length = 0;
  const done = await withProgress({ location: 15 as never, title: said`PayGate: submitting ${typed.text(`batch ${CARD}.rpcsv`)}` }, (p) => {
    p.report({
      message: said`${typed.amount('12.5')} of ${typed.amount('50.0')} MB sent, serial ${typed.count(1000010)} ${typed.count(7000083)}`,
    });
    return Promise.resolve('done');
  });
  assert.equal(done, 'done');
  assert.deepEqual(shown, [`progress: PayGate: submitting batch ${MASKED}.rpcsv`, 'report: 12.5 of 50.0 MB sent, serial 1000010 7000083']);
});
