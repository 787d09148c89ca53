// The one submit use case (src/core/submit/submitBatch.ts) that `paygate submit` and the editor's Submit
// both run: its steps in order, with a face's prompts and send stood in by plain functions.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { GatewayOutcome } from '../../src/core/gateway/outcome';
import { Ledger } from '../../src/core/ledger';
import { submitBatch, type SubmitFace, type SubmitTarget } from '../../src/core/submit/submitBatch';
import { SANDBOX } from '../fixtures/submit/environment';

const BATCH = readFileSync(join(__dirname, '..', '..', 'examples', 'valid.rpcsv'), 'utf8');
const target: SubmitTarget = {
  environment: SANDBOX,
  signatureMethod: 'RSA-SHA256',
};

function face(dir: string, over: Partial<SubmitFace<SubmitTarget, string>> = {}) {
  const calls: string[] = [];
  const f: SubmitFace<SubmitTarget, string> = {
    face: 'cli',
    pid: 1,
    host: 'h',
    ledger: new Ledger(dir),
    file: '/x/valid.rpcsv',
    target: async () => {
      calls.push('target');
      return { ok: true, value: { ...target, release: async () => void calls.push('release') } };
    },
    send: async () => {
      calls.push('send');
      const answer: GatewayOutcome = {
        outcome: 'accepted',
        status: 200,
        fields: { 'recurring-payment-id': '11, 12', status: 'active, active', 'serial-number': 'S-1' },
        raw: '',
      };
      return answer;
    },
    ...over,
  };
  return { f, calls };
}

test('submit: lint gate first (no target asked), then target, send once, the answer picked out once, target released', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'paygate-submit-'));
  try {
    const bad = face(dir);
    const refused = await submitBatch('client-orderid;rp_card_type\r\nA;XXX', 'bad.rpcsv', bad.f);
    assert.equal(refused.status, 'refused');
    assert.deepEqual(bad.calls, [], 'nothing asked or sent for a file with lint errors');

    const good = face(dir);
    const sent = await submitBatch(BATCH, 'valid.rpcsv', good.f);
    assert.equal(sent.status, 'sent');
    assert.ok(sent.status === 'sent');
    assert.deepEqual(sent.answer, { ids: ['11', '12'], statuses: ['active', 'active'], serialNumbers: ['S-1'] });
    assert.deepEqual(sent.completed?.recurringPaymentIds, ['11', '12'], 'the ledger records the same ids');
    assert.deepEqual(good.calls, ['target', 'send', 'release']);

    // The same content again: held back by the ledger, not sent, the target still released.
    const again = face(dir);
    const held = await submitBatch(BATCH, 'valid.rpcsv', again.f);
    assert.equal(held.status, 'duplicate');
    assert.deepEqual(again.calls, ['target', 'release']);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('submit: a face whose target cannot be resolved gets its own refusal back; a failing prompt is a value, nothing sent', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'paygate-submit-'));
  try {
    const none = face(dir, { target: async () => ({ ok: false, refusal: 'no such environment' }) });
    const r = await submitBatch(BATCH, 'valid.rpcsv', none.f);
    assert.deepEqual(r.status === 'no-target' && r.refusal, 'no such environment');

    const failing = face(dir, {
      confirmSend: async () => {
        throw new Error('no terminal to ask on');
      },
    });
    const failed = await submitBatch(BATCH, 'valid.rpcsv', failing.f);
    assert.equal(failed.status, 'failed');
    assert.ok(failed.status === 'failed' && (failed.error as Error).message === 'no terminal to ask on');
    assert.deepEqual(failing.calls, ['target', 'release']);
    assert.deepEqual((await new Ledger(dir).read()).records, [], 'nothing recorded, nothing sent');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
