import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Disposable } from '../../src/extension/disposable';

class Owner extends Disposable {
  add(d: { dispose(): void }) {
    return this.register(d);
  }
}

test('disposes what it registered, in reverse order, once; a late registration is disposed at once', () => {
  const log: string[] = [];
  const owner = new Owner();
  owner.add({ dispose: () => log.push('a') });
  owner.add({
    dispose: () => {
      log.push('b');
      throw new Error('one failure does not keep the others alive');
    },
  });
  owner.add({ dispose: () => log.push('c') });
  owner.dispose();
  owner.dispose();
  assert.deepEqual(log, ['c', 'b', 'a']);
  owner.add({ dispose: () => log.push('late') });
  assert.deepEqual(log, ['c', 'b', 'a', 'late']);
});
