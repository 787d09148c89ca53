import { test } from 'node:test';
import assert from 'node:assert/strict';
import { throughOutputBoundary } from '../../src/cli/boundary';

// The floor under every line a paygate command writes (src/cli/boundary.ts): whole lines pass the
// boundary, so a card number or a CRLF cut between two writes is seen whole; a line with no break that
// grows past the bound is let through in part, cut where no card number or labelled CVV can span.

function capture() {
  let out = '';
  const { ctx, flush } = throughOutputBoundary({ stdout: (t: string) => void (out += t), stderr: () => undefined });
  return { write: ctx.stdout, flush, out: () => out };
}

test('a card number and a CRLF cut between writes are seen whole', () => {
  const c = capture();
  for (const piece of ['pan 4111 1111 ', '1111 1111\r', '\nnext \x1b[2J', ' end']) c.write(piece);
  assert.equal(c.out(), 'pan 4111 11** **** 1111\r\n');
  c.flush();
  assert.equal(c.out(), 'pan 4111 11** **** 1111\r\nnext \\x1b[2J end');
});

test('a line longer than the bound: written in part, never between a card number or a CVV label and its digits', () => {
  for (const tail of ['card 4111-1111-1111-1111 and more', 'cvv=737 and more', '"cvv2": "737"']) {
    for (let shift = 0; shift < 40; shift += 3) {
      const c = capture();
      const filler = `${'x,'.repeat(40_000 + shift)}`;
      // The hostile part arrives in two writes, the first of which passes the bound.
      const cut = Math.floor(tail.length / 2);
      c.write(filler + tail.slice(0, cut));
      c.write(tail.slice(cut));
      c.flush();
      const out = c.out();
      assert.equal(out.length > 80_000, true);
      assert.doesNotMatch(out, /4111-1111-1111-1111|737/, `${tail} shifted ${shift}`);
    }
  }
});

test('memory stays bounded on a line of digits with no place to cut', () => {
  const c = capture();
  for (let i = 0; i < 50; i++) {
    c.write('7'.repeat(10_000));
    const pending = 10_000 * (i + 1) - c.out().length;
    assert.ok(pending <= 64 * 1024 + 10_000, `pending ${pending}`);
  }
});
