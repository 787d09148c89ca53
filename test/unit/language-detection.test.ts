// The bookkeeping of language detection: switch once, never against the user's choice, and a URI used
// again for a new document (Untitled-1) starts afresh.
import { describe, it } from 'node:test';
import * as assert from 'node:assert/strict';
import { CHANGE_WINDOW_MS, DetectionState } from '../../src/extension/lint/detectState';

const HEADER = 'client-orderid;rp_card_type;amount';

function clock() {
  let t = 1_000_000;
  return { now: () => t, advance: (ms: number) => (t += ms) };
}

describe('language detection state', () => {
  it('switches a Plain Text or CSV document once when its first line becomes the header', () => {
    const s = new DetectionState(clock().now);
    s.opened('untitled:Untitled-1', 'plaintext', '');
    assert.equal(s.shouldSwitch('untitled:Untitled-1', 'plaintext', 'client-orderid;rp_card'), false, 'half a header');
    assert.equal(s.shouldSwitch('untitled:Untitled-1', 'plaintext', HEADER), true);
    assert.equal(s.shouldSwitch('untitled:Untitled-1', 'plaintext', HEADER), false, 'once');
    s.opened('file:///b.csv', 'csv', HEADER);
    assert.equal(s.shouldSwitch('file:///b.csv', 'csv', HEADER), true);
    s.opened('file:///c.md', 'markdown', HEADER);
    assert.equal(s.shouldSwitch('file:///c.md', 'markdown', HEADER), false, 'another language is left alone');
  });

  it('never switches a document whose language the user changed, and tries again after a failed switch', () => {
    const c = clock();
    const s = new DetectionState(c.now);
    s.opened('file:///a.csv', 'paygate-recurring-csv', HEADER);
    // The user picks Plain Text: VS Code closes and reopens the same text with the new language.
    s.closed('file:///a.csv', HEADER);
    c.advance(5);
    s.opened('file:///a.csv', 'plaintext', HEADER);
    assert.equal(s.shouldSwitch('file:///a.csv', 'plaintext', HEADER), false);
    s.opened('file:///d.txt', 'plaintext', '');
    assert.equal(s.shouldSwitch('file:///d.txt', 'plaintext', HEADER), true);
    s.switchFailed('file:///d.txt');
    assert.equal(s.shouldSwitch('file:///d.txt', 'plaintext', HEADER), true);
  });

  it('treats a URI opened again later, or with other text, as a new document', () => {
    const c = clock();
    const s = new DetectionState(c.now);
    s.opened('untitled:Untitled-1', 'plaintext', '');
    assert.equal(s.shouldSwitch('untitled:Untitled-1', 'plaintext', HEADER), true);
    s.closed('untitled:Untitled-1', `${HEADER}\n1;SRC;2`);
    // A new untitled document under the same name, right away but with other text, and later.
    c.advance(10);
    s.opened('untitled:Untitled-1', 'plaintext', '');
    assert.equal(s.shouldSwitch('untitled:Untitled-1', 'plaintext', HEADER), true);
    s.closed('untitled:Untitled-1', 'x');
    c.advance(CHANGE_WINDOW_MS + 1);
    s.prune();
    s.opened('untitled:Untitled-1', 'markdown', 'x');
    s.closed('untitled:Untitled-1', 'x');
    c.advance(CHANGE_WINDOW_MS + 1);
    s.opened('untitled:Untitled-1', 'plaintext', 'x');
    assert.equal(s.shouldSwitch('untitled:Untitled-1', 'plaintext', HEADER), true);
  });

  it('an empty document opened right after an empty one closed is new: empty text tells nothing apart', () => {
    const c = clock();
    const s = new DetectionState(c.now);
    s.opened('untitled:Untitled-1', 'csv', '');
    s.closed('untitled:Untitled-1', '');
    c.advance(1);
    s.opened('untitled:Untitled-1', 'plaintext', '');
    assert.equal(s.shouldSwitch('untitled:Untitled-1', 'plaintext', HEADER), true);
  });
});
