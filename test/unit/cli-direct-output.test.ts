import assert from 'node:assert/strict';
import { test } from 'node:test';
import { directOutput, type DirectIo } from '../../src/cli/directOutput';

// Standard output written straight to its descriptor (src/cli/directOutput.ts, issue 40): every byte
// arrives once and in order, whether the descriptor takes it in pieces, fills up (EAGAIN: the rest goes
// through the stream, and so does everything after), or its reader went away (EPIPE). The real
// descriptors (file, pipe, a pipe left non-blocking, a reader that leaves) are in
// test/process/cli-direct-output.test.ts.

const errno = (code: string) => Object.assign(new Error(code), { code });

/** A descriptor taking at most `piece` bytes a write, failing with `fail` once `limit` bytes are in. */
function fakeFd(piece: number, limit = Infinity, fail = 'EAGAIN') {
  const written: number[] = [];
  const io: DirectIo = {
    direct: () => true,
    writeSync(fd, data, offset, length) {
      assert.equal(fd, 1);
      if (written.length >= limit) throw errno(fail);
      const n = Math.min(piece, length, limit - written.length);
      for (const b of data.subarray(offset, offset + n)) written.push(b);
      return n;
    },
  };
  return { io, text: () => Buffer.from(written).toString('utf8') };
}

/** A stand-in for the stream: what it was given, in order. */
function fakeStream() {
  const parts: Buffer[] = [];
  let made = false;
  return {
    stream: () => {
      made = true;
      return { write: (d: string | Uint8Array) => parts.push(Buffer.from(d)) };
    },
    made: () => made,
    text: () => Buffer.concat(parts).toString('utf8'),
  };
}

const TEXT = ['batch.rpcsv:2:5 error amount-positive Amount must be > 0 — €\n', 'ünïcödé ✓ 𝟘𝟙\n', '0 errors\n'];

test('text taken a few bytes at a time arrives whole and in order, split characters included', () => {
  const fd = fakeFd(3);
  const s = fakeStream();
  const write = directOutput(1, s.stream, s.made, () => assert.fail('not gone'), fd.io);
  for (const t of TEXT) write(t);
  assert.equal(fd.text(), TEXT.join(''));
  assert.equal(s.made(), false, 'the stream is never made');
});

test('a full descriptor (EAGAIN): its bytes, then those given to the stream, are exactly the text; nothing more is written directly', () => {
  const written: Buffer[] = [];
  const given: Buffer[] = [];
  let calls = 0;
  const io: DirectIo = {
    direct: () => true,
    writeSync(_fd, data, offset, length) {
      if (++calls > 4) throw errno('EAGAIN');
      const n = Math.min(7, length);
      written.push(Buffer.from(data.subarray(offset, offset + n)));
      return n;
    },
  };
  let made = false;
  const stream = () => {
    made = true;
    return { write: (d: string | Uint8Array) => given.push(Buffer.from(d)) };
  };
  const write = directOutput(
    1,
    stream,
    () => made,
    () => assert.fail('not gone'),
    io,
  );
  for (const t of TEXT) write(t);
  assert.equal(calls, 5, 'no direct write once the descriptor was full');
  assert.equal(Buffer.concat([...written, ...given]).toString('utf8'), TEXT.join(''));
});

test('once the stream is made (for its width, say), every write goes through it', () => {
  const fd = fakeFd(1000);
  const s = fakeStream();
  const write = directOutput(1, s.stream, s.made, () => assert.fail('not gone'), fd.io);
  write(TEXT[0]);
  s.stream();
  write(TEXT[1]);
  assert.equal(fd.text(), TEXT[0]);
  assert.equal(s.text(), TEXT[1]);
});

test('a reader that went away (EPIPE) ends the output quietly; another error is thrown', () => {
  let gone = 0;
  const s = fakeStream();
  const write = directOutput(1, s.stream, s.made, () => gone++, fakeFd(4, 8, 'EPIPE').io);
  write(TEXT[0]);
  assert.equal(gone, 1);
  assert.equal(s.made(), false);
  const failing = directOutput(1, s.stream, s.made, () => gone++, fakeFd(4, 8, 'EIO').io);
  assert.throws(() => failing(TEXT[0]), /EIO/);
});

test('a descriptor not to be written directly (a pipe or terminal outside Linux) goes through the stream', () => {
  const fd = fakeFd(1000);
  fd.io.direct = () => false;
  const s = fakeStream();
  const write = directOutput(1, s.stream, s.made, () => assert.fail('not gone'), fd.io);
  for (const t of TEXT) write(t);
  assert.equal(fd.text(), '');
  assert.equal(s.text(), TEXT.join(''));
});
