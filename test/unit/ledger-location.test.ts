import * as assert from 'node:assert/strict';
import path from 'node:path';
import { test } from 'node:test';
import { ledgerDirectory } from '../../src/core/ledger';

const where = { base: '/work/project', env: { XDG_DATA_HOME: '/x' }, home: '/home/me' };

test("the CLI's --state and the editor's paygate.ledger.directory name the ledger's folder the same way", () => {
  assert.equal(ledgerDirectory(undefined, where), path.join('/x', 'paygate'), 'nothing named: the shared default');
  assert.equal(ledgerDirectory('  ', where), path.join('/x', 'paygate'), 'an empty setting is no setting');
  assert.equal(ledgerDirectory('state', where), path.join('/work/project', 'state'), 'relative to the working folder');
  assert.equal(ledgerDirectory('/abs/dir', where), '/abs/dir');
  assert.equal(ledgerDirectory('~', where), '/home/me');
  assert.equal(ledgerDirectory('~/ledger', where), path.join('/home/me', 'ledger'));
  assert.equal(ledgerDirectory('~other', where), path.join('/work/project', '~other'), 'only ~ and ~/ are the home directory');
  assert.equal(ledgerDirectory(undefined, { ...where, env: { PAYGATE_DATA_DIR: '/d' } }), '/d');
});
