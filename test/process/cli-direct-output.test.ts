// `paygate lint`'s standard output written straight to its descriptor (src/cli/directOutput.ts, issue 40),
// on real descriptors: 400 KB of problems (more than a pipe holds) arrive byte for byte as they do in a
// regular file, through a pipe whose reader is slow, through a pipe left non-blocking (EAGAIN: the rest
// goes through Node's stream), and a reader that leaves early (EPIPE) ends the run without a word.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { paygateArgs } from '../fixtures/cli/bin';

let dir = '';
let reference = '';
const batch = () => join(dir, 'zero-amounts.rpcsv');

/** The lint's command line: 3,000 errors, one line each. */
const lintArgs = () => [process.execPath, ...paygateArgs(), 'lint', batch()];

/** Runs `sh -c SCRIPT` with the lint's command line as "$@": its output, standard error and exit code. */
function sh(script: string, args = lintArgs()) {
  const r = spawnSync('sh', ['-c', script, 'sh', ...args], { encoding: 'utf8', timeout: 60_000, maxBuffer: 16 << 20 });
  return { out: r.stdout, err: r.stderr, status: r.status };
}

before(() => {
  dir = mkdtempSync(join(tmpdir(), 'paygate-direct-output-'));
  let text = 'client-orderid;rp_card_type;credit-card-number;amount;currency\n';
  for (let i = 0; i < 3000; i++) text += `o${i};DST;5555555555554444;0;EUR\n`;
  writeFileSync(batch(), text);
  // Written to a regular file: what every other place must receive.
  const file = join(dir, 'out.txt');
  const fd = openSync(file, 'w');
  const r = spawnSync(lintArgs()[0], lintArgs().slice(1), { stdio: ['ignore', fd, 'pipe'], encoding: 'utf8', timeout: 60_000 });
  closeSync(fd);
  assert.equal(r.stderr, '');
  assert.equal(r.status, 1);
  reference = readFileSync(file, 'utf8');
  assert.equal(reference.split('\n').filter((l) => l.includes(' error invalid-value ')).length, 3000);
  assert.match(reference, /3000 errors, 0 warnings in 1 file\n$/);
  assert.ok(reference.length > 256 * 1024, 'more than any pipe holds');
});
after(() => rmSync(dir, { recursive: true, force: true }));

test('through a pipe whose reader starts late: every byte, in order', () => {
  const r = sh('"$@" | (sleep 0.3; cat)');
  assert.equal(r.err, '');
  assert.equal(r.out, reference);
});

test('through a pipe left non-blocking (Node made its stream first): every byte, in order', () => {
  // The stream of a pipe makes the descriptor non-blocking; the lint's own writes then meet EAGAIN once
  // the pipe is full, and the rest goes through that stream.
  const preload = join(dir, 'stream-first.js');
  writeFileSync(preload, 'process.stdout.on("error", () => {});\n');
  const [node, ...rest] = lintArgs();
  const r = sh('"$@" | (sleep 0.3; cat)', [node, '--require', preload, ...rest]);
  assert.equal(r.err, '');
  assert.equal(r.out, reference);
});

test('a reader that leaves early ends the run quietly', () => {
  const r = sh('"$@" | head -c 100');
  assert.equal(r.err, '', 'no stack trace');
  assert.equal(r.out, reference.slice(0, 100));
});
