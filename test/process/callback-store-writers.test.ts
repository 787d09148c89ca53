// Two processes appending to one callback store at once (the editor's listener and `paygate listen` on
// one state directory): every call each of them made since the older kept file began is still there, in
// its order: no call lost between them when the store rotates, and the files stay bounded.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { PROCESS_MS } from '../fixtures/deadlines';

const tsx = pathToFileURL(require.resolve('tsx')).href;
const writer = path.join(__dirname, '..', 'fixtures', 'callbacks', 'writer.ts');

function write(dir: string, name: string, count: number, max: number, start: number): Promise<void> {
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      ['--import', tsx, writer, dir, name, String(count), String(max), String(start)],
      { timeout: PROCESS_MS },
      (err, _o, stderr) => (err ? reject(new Error(`${name}: ${err.message}\n${stderr}`)) : resolve()),
    );
  });
}

const ids = (file: string): string[] =>
  fs.existsSync(file)
    ? fs
        .readFileSync(file, 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((l) => (JSON.parse(l) as { id: string }).id)
    : [];

test(
  'two processes appending at once: no call lost between rotations, none twice, the files bounded',
  { timeout: 2 * PROCESS_MS },
  async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'paygate-cbwriters-'));
    try {
      // The bound is a large part of what is written, so that a call lost in the last rotations is still
      // inside what is kept, and both writers start at the same moment, once their processes are up.
      const count = 6000;
      const max = 2000;
      const start = Date.now() + 2000;
      await Promise.all([write(dir, 'a', count, max, start), write(dir, 'b', count, max, start)]);
      const kept = [...ids(path.join(dir, 'callbacks.1.jsonl')), ...ids(path.join(dir, 'callbacks.jsonl'))];
      assert.equal(new Set(kept).size, kept.length, 'a call is kept twice');
      assert.ok(kept.length >= max, `only ${kept.length} calls kept for a bound of ${max}`);
      assert.ok(kept.length <= 4 * max, `${kept.length} calls on disk for a bound of ${max}`);
      for (const name of ['a', 'b']) {
        const mine = kept.filter((id) => id.startsWith(`${name}_`)).map((id) => Number(id.slice(2)));
        // Each writer's kept calls are its last ones, without a gap: a call lost in a rotation would leave one.
        const first = mine.reduce((m, n) => Math.min(m, n), count);
        const want = Array.from({ length: count - first }, (_, i) => first + i);
        assert.deepEqual(
          [...mine].sort((x, y) => x - y),
          want,
          `writer ${name} lost calls`,
        );
      }
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  },
);

const lineCount = (file: string): number => ids(file).length;

test(
  'four processes appending at once: the file rotated out holds the bound plus at most one line per other writer',
  { timeout: 2 * PROCESS_MS },
  async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'paygate-cbbound-'));
    try {
      const writers = ['a', 'b', 'c', 'd'];
      const count = 2500;
      const max = 1000;
      const start = Date.now() + 2000;
      await Promise.all(writers.map((name) => write(dir, name, count, max, start)));
      // Each writer counts every writer's lines after its own append, so whichever append fills the file
      // rotates it; only appends racing that rotation (one per other writer) may land past the bound.
      const previous = lineCount(path.join(dir, 'callbacks.1.jsonl'));
      const current = lineCount(path.join(dir, 'callbacks.jsonl'));
      const slack = writers.length - 1;
      assert.ok(previous >= max && previous <= max + slack, `the file rotated out holds ${previous} lines for a bound of ${max}`);
      assert.ok(current <= max + slack, `the current file holds ${current} lines for a bound of ${max}`);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  },
);
