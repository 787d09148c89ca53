import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createHmac, randomBytes } from 'node:crypto';
import { fingerprintOfText, fingerprintText } from '../../src/core/ledger/rowKeys';
import { LedgerSecret } from '../../src/core/ledger/secret';

// The fingerprint of a row's card and schedule is HMAC-SHA256 under the ledger's key (rowKeys.ts). The
// ledger's mac makes it with two one-shot hashes in buffers it keeps (RFC 2104), not an Hmac object a call
// (the guard's cost at a million rows, issue 37): every digest must be createHmac's, byte for byte, or the
// fingerprints already in ledgers would no longer match (same-payer would go silent).

const texts = [
  '',
  'a',
  fingerprintText(['4111111111111111', 'DST', 'EUR', '10.00', '', '', '', 'month', '1', '2027-01-01', '', '']),
  'x'.repeat(63),
  'x'.repeat(64),
  'x'.repeat(65),
  'é€ and 😀 and 中文', // 2-, 3- and 4-byte UTF-8
  '\ud800 lone high, lone low \udc00', // lone surrogates: U+FFFD in UTF-8, as createHmac encodes them
  '😀'.repeat(700), // longer than the kept buffer: it grows
  'é'.repeat(2000),
  'fingerprint\0\0\0\0',
];

describe('LedgerSecret.mac: HMAC-SHA256 without an Hmac object a call', () => {
  it('gives createHmac digest for every text, before and after the buffer grew, for several keys', () => {
    for (let k = 0; k < 5; k++) {
      const keyHex = randomBytes(32).toString('hex');
      const secret = LedgerSecret.fromHex(keyHex)!;
      const key = Buffer.from(keyHex, 'hex');
      // Twice: a short text after a long one reads only its own bytes of the grown buffer.
      for (const text of [...texts, ...texts.slice().reverse()]) {
        const want = createHmac('sha256', key).update(text, 'utf8').digest('hex');
        assert.equal(secret.mac(text, 64), want, JSON.stringify(text.slice(0, 20)));
        assert.equal(fingerprintOfText(secret, text), want.slice(0, 32));
      }
    }
  });

  it('gives createHmac digest for random texts of every length up to 300 code units', () => {
    const keyHex = randomBytes(32).toString('hex');
    const secret = LedgerSecret.fromHex(keyHex)!;
    const key = Buffer.from(keyHex, 'hex');
    for (let n = 0; n < 300; n++) {
      let text = '';
      for (let i = 0; i < n; i++) text += String.fromCharCode(Math.floor(Math.random() * 0x10000));
      assert.equal(secret.mac(text, 64), createHmac('sha256', key).update(text, 'utf8').digest('hex'));
    }
  });

  it('gives createHmac digest for texts of lengths asked again in any order, across the buffer growing', () => {
    // mac keeps a view of its buffer per length: each must read this text's bytes, in the buffer now in use.
    const keyHex = randomBytes(32).toString('hex');
    const secret = LedgerSecret.fromHex(keyHex)!;
    const key = Buffer.from(keyHex, 'hex');
    const lengths = [5, 68, 5, 1023, 1024, 1500, 68, 400, 5, 3000, 68, 1023, 1024, 5];
    for (const [k, n] of lengths.entries()) {
      const text = String.fromCharCode(97 + (k % 26)).repeat(n);
      assert.equal(secret.mac(text, 64), createHmac('sha256', key).update(text, 'utf8').digest('hex'), `${k}: ${n}`);
    }
  });

  it('a fingerprint recorded by the earlier way (a known key and text) is made again', () => {
    // createHmac('sha256', 32 zero bytes).update(text).digest('hex').slice(0, 32), as the ledger made it so far.
    const secret = LedgerSecret.fromHex('00'.repeat(32))!;
    assert.equal(fingerprintOfText(secret, fingerprintText(['4111111111111111', 'DST', 'EUR'])), '8c430170fa01f95907d8a54e50d3ab45');
  });
});
