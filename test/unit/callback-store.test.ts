// The callback store's bound and rotation, with two stores on one state directory (as the editor's
// listener and `paygate listen` are): whoever appends, the newest calls are all there, in order, and the
// files on disk stay bounded. Two real processes at once: test/process/callback-store-writers.test.ts.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { CallbackStore, type CallbackEntry } from '../../src/callback-listener';

const tempDir = () => fs.mkdtempSync(path.join(os.tmpdir(), 'paygate-cbstore-'));
const entry = (id: string): CallbackEntry => ({
  id,
  time: '2026-11-24T00:00:00.000Z',
  method: 'POST',
  path: '/',
  headers: [],
  body: `b=${id}`,
  masked: false,
  fields: {},
  control: null,
  forwarded: null,
});
const lineCount = (file: string) => (fs.existsSync(file) ? fs.readFileSync(file, 'utf8').split('\n').filter(Boolean).length : 0);

test('two stores on one directory, appends interleaved unevenly: list() is always the newest calls in order, each file within the bound', () => {
  const dir = tempDir();
  try {
    const max = 7;
    const a = new CallbackStore(dir, max);
    const b = new CallbackStore(dir, max);
    const appended: string[] = [];
    // An uneven, repeatable interleaving: runs of 1-5 appends from each side in turn.
    let seed = 42;
    for (let i = 0; appended.length < 20 * max && i < 1000; i++) {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      const store = i % 2 === 0 ? a : b;
      for (let k = 0; k <= seed % 5; k++) {
        const id = `cb_${appended.length}`;
        store.append(entry(id));
        appended.push(id);
        const want = appended.slice(-max);
        assert.deepEqual(
          a.list().map((e) => e.id),
          want,
        );
        assert.deepEqual(
          b.list().map((e) => e.id),
          want,
        );
        // Each store counts the other's lines too: the bound holds whoever appends.
        assert.ok(lineCount(a.file) < max, `${lineCount(a.file)} lines in the current file for a bound of ${max}`);
        assert.ok(lineCount(a.previousFile) <= max, `${lineCount(a.previousFile)} lines in the previous file for a bound of ${max}`);
      }
    }
    assert.ok(fs.existsSync(a.previousFile), 'the store never rotated');
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('a rotation lock left by a process that died is taken over once it is stale; a fresh one is left alone', () => {
  const dir = tempDir();
  try {
    const store = new CallbackStore(dir, 3);
    const lock = path.join(dir, 'callbacks.rotating');
    fs.mkdirSync(lock);
    for (let i = 0; i < 5; i++) store.append(entry(`f_${i}`));
    assert.equal(fs.existsSync(store.previousFile), false, 'rotated while another process held the lock');
    assert.equal(store.list().length, 3);
    const old = (Date.now() - 60_000) / 1000;
    fs.utimesSync(lock, old, old);
    store.append(entry('f_5'));
    assert.equal(fs.existsSync(lock), false, 'the stale lock is still there');
    assert.equal(lineCount(store.previousFile), 6, 'the six lines were not rotated');
    assert.deepEqual(
      store.list().map((e) => e.id),
      ['f_3', 'f_4', 'f_5'],
    );
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('a store written by an earlier version (one file, up to twice the bound) reads the same', () => {
  const dir = tempDir();
  try {
    const ids = Array.from({ length: 9 }, (_, i) => `old_${i}`);
    fs.writeFileSync(path.join(dir, 'callbacks.jsonl'), ids.map((id) => JSON.stringify(entry(id))).join('\n') + '\n');
    const store = new CallbackStore(dir, 5);
    assert.deepEqual(
      store.list().map((e) => e.id),
      ids.slice(-5),
    );
    store.append(entry('new_0'));
    assert.deepEqual(
      store.list().map((e) => e.id),
      [...ids.slice(-4), 'new_0'],
    );
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
