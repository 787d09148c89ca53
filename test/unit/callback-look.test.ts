// Issue 30: a declined callback wore a green tick in the Callbacks view, because the icon showed the
// control checksum, not the charge. The icon is the charge's status now; the checksum is the description.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { controlText, statusLook } from '../../src/extension/callbacks/look';
import { CALLBACK_STATUSES } from '../../src/core/callbacks';

test('each status the gateway sends has its own icon, and only approved is the green tick', () => {
  const looks = CALLBACK_STATUSES.map((status) => statusLook({ fields: { status } }));
  assert.equal(new Set(looks.map((l) => l.icon)).size, CALLBACK_STATUSES.length);
  const ticks = CALLBACK_STATUSES.filter((_, i) => looks[i].icon === 'pass' || looks[i].color === 'testing.iconPassed');
  assert.deepEqual(ticks, ['approved']);
});

test('a declined charge with a valid checksum: not a tick, and the checksum said beside it', () => {
  assert.notEqual(statusLook({ fields: { status: 'declined' } }).icon, 'pass');
  assert.equal(controlText({ control: 'valid' }), 'control valid');
  assert.match(controlText({ control: 'invalid' }), /^control invalid/);
  assert.equal(controlText({ control: null }), 'control not checked (no key)');
});

test('a call without a status (not a gateway callback) gets a plain icon, never a status one', () => {
  assert.equal(statusLook({ fields: {} }).icon, 'mail');
  assert.equal(statusLook({ fields: { status: 'approvedish' } }).icon, 'mail');
});
