import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { prepareSubmission } from '../../src/core/gateway';
import fc from 'fast-check';
import { fnv1a } from '../../src/core/fnv';
import { gatewayOrderId, hasIdNoise, isPlainIn, plainIdHashIn, withoutIdNoise } from '../../src/core/orderId';
import { applySafeFixes } from '../../src/core/rules/fixAll';
import { lint } from '../../src/core/rules/lint';
import { saidText } from '../../src/core/output';

// A row's identity as the gateway keys it (issue 37): whitespace of every kind trimmed, invisible
// characters removed anywhere, NFC. What is another id to the gateway stays another id here.

const ID = 'GYM-2027-0001';

describe('the gateway reading of a client-orderid', () => {
  it('trims whitespace of every kind and removes invisible characters anywhere', () => {
    for (const cell of [
      `${ID} `,
      ` ${ID}`,
      `\t${ID}`,
      `${ID}\t`,
      `\u00a0${ID}`,
      `${ID}\u00a0`,
      `\u2003${ID}\u3000`,
      `\u202f${ID}\u205f`,
      `\ufeff${ID}`,
      `GYM-\ufeff2027-0001`,
      `GYM-2027\u200b-0001`,
      `\u2060${ID}\u200d`,
      `GYM\u00ad-2027-0001`,
      ` \u200b ${ID} \ufeff `,
    ])
      assert.equal(gatewayOrderId(cell), ID, JSON.stringify(cell));
  });

  it('reads NFD as NFC', () => {
    assert.equal(gatewayOrderId('CAFE\u0301-1'), 'CAF\u00c9-1');
    assert.equal(gatewayOrderId('CAF\u00c9-1'), 'CAF\u00c9-1');
  });

  it('keeps what is another id to the gateway: case, look-alike letters, a space inside', () => {
    assert.equal(gatewayOrderId('gym-2027-0001'), 'gym-2027-0001');
    assert.notEqual(gatewayOrderId('GYM-2027-OOO1'), ID);
    assert.notEqual(gatewayOrderId('\u0413YM-2027-0001'), ID, 'a Cyrillic Ge is not a G');
    assert.equal(gatewayOrderId('GYM 2027 0001'), 'GYM 2027 0001');
    assert.equal(gatewayOrderId('   '), '');
  });

  it('is idempotent, and plain ids are their own reading', () => {
    for (const cell of [` ${ID}\u200b`, 'CAFE\u0301', 'a\u00a0b', ID])
      assert.equal(gatewayOrderId(gatewayOrderId(cell)), gatewayOrderId(cell));
    assert.equal(isPlainIn(`x${ID}x`, 1, ID.length + 1), true);
    assert.equal(isPlainIn(`${ID} `, 0, ID.length + 1), false);
    assert.equal(isPlainIn('CAFÉ', 0, 4), false);
  });

  it('plainIdHashIn: the FNV-1a hash exactly when the range is plain, else NaN (property)', () => {
    // The linter reads each id once for both answers; the duplicate-id table looks the hash up as fnv1a.
    const text = fc.array(fc.constantFrom('a', 'Z', '0', '-', '~', ' ', '\t', '\u00a0', '\u200b', 'é', '\x7f', '!'), { maxLength: 20 });
    fc.assert(
      fc.property(text, fc.nat(), fc.nat(), (chars, a, b) => {
        const s = chars.join('');
        const from = a % (s.length + 1);
        const to = from + (b % (s.length - from + 1));
        const h = plainIdHashIn(s, from, to);
        if (isPlainIn(s, from, to)) assert.equal(h, fnv1a(s, from, to));
        else assert.ok(Number.isNaN(h));
      }),
      { numRuns: 2000 },
    );
  });

  it('id-whitespace: noise around or invisible inside, and its removal keeps everything else (no NFC)', () => {
    assert.equal(hasIdNoise(ID), false);
    assert.equal(hasIdNoise('GYM 2027 0001'), false, 'a space inside is part of the id');
    assert.equal(hasIdNoise('CAFE\u0301-1'), false, 'NFD is no whitespace');
    for (const cell of [`${ID} `, `\u00a0${ID}`, `GYM-\ufeff2027-0001`, `GYM-2027\u200b-0001`]) {
      assert.equal(hasIdNoise(cell), true, JSON.stringify(cell));
      assert.equal(withoutIdNoise(cell), ID);
    }
    assert.equal(withoutIdNoise(' CAFE\u0301 '), 'CAFE\u0301');
  });
});

describe('duplicate-order-id counts ids as the gateway reads them', () => {
  const header = 'client-orderid;rp_card_type;order_desc;amount;currency;credit-card-number;expire-month;expire-year\r\n';
  const row = (id: string) => `${id};DST;x;10.00;EUR;6011000990139424;05;2030\r\n`;

  it('is an error, on every later row of the same id in any of its forms', () => {
    const text = header + [ID, `${ID} `, `\u00a0${ID}`, `GYM-\ufeff2027-0001`, 'GYM-2027-0002', `\t${ID}\u200b`].map(row).join('');
    const dups = lint(text).diagnostics.filter((d) => d.code === 'duplicate-order-id');
    assert.deepEqual(
      dups.map((d) => [d.range.start.line, d.severity]),
      [
        [2, 'error'],
        [3, 'error'],
        [4, 'error'],
        [6, 'error'],
      ],
    );
    assert.ok(dups.every((d) => saidText(d.message).includes('row 1')));
  });

  it('NFD and NFC are one id; case is not', () => {
    const text = header + ['CAF\u00c9-1', 'CAFE\u0301-1', 'caf\u00e9-1'].map(row).join('');
    assert.deepEqual(
      lint(text)
        .diagnostics.filter((d) => d.code === 'duplicate-order-id')
        .map((d) => d.range.start.line),
      [2],
    );
  });

  it('a file with a duplicate id cannot be submitted', () => {
    const prepared = prepareSubmission(header + [ID, `${ID} `].map(row).join(''));
    assert.equal(prepared.refusal?.reason, 'lint-errors');
    assert.deepEqual(
      prepared.lint.diagnostics.filter((d) => d.severity === 'error').map((d) => d.code),
      ['duplicate-order-id'],
    );
  });
});

describe('id-whitespace', () => {
  const header = 'client-orderid;rp_card_type;order_desc;amount;currency;credit-card-number;expire-month;expire-year\r\n';
  const row = (id: string) => `${id};DST;x;10.00;EUR;6011000990139424;05;2030\r\n`;

  it('warns on the exact cell of an id with whitespace around it or an invisible character in it, naming what the gateway reads', () => {
    const text = header + ['A-1 ', '\u00a0B-1', 'C-\ufeff1', '"  D-1\u200b "', 'E 1', 'CAFE\u0301', 'F-1'].map(row).join('');
    const found = lint(text).diagnostics.filter((d) => d.code === 'id-whitespace');
    assert.deepEqual(
      found.map((d) => [d.range.start.line, d.range.start.character, d.range.end.character, d.severity]),
      [
        [1, 0, 4, 'warning'],
        [2, 0, 4, 'warning'],
        [3, 0, 4, 'warning'],
        [4, 0, 9, 'warning'],
      ],
    );
    assert.equal(saidText(found[0].message), 'client-orderid has whitespace around it: the gateway reads it as "A-1"');
    assert.equal(saidText(found[2].message), 'client-orderid has a byte order mark in it: the gateway reads it as "C-1"');
    assert.equal(
      saidText(found[3].message),
      'client-orderid has whitespace around it and a zero-width space in it: the gateway reads it as "D-1"',
    );
  });

  it('its safe fix (fix all, paygate fix) removes them and nothing else', () => {
    const text = header + ['A-1 ', '\tB\u2060-1', 'E 1', 'CAFE\u0301'].map(row).join('');
    const fixed = applySafeFixes(text).text;
    assert.equal(fixed, header + ['A-1', 'B-1', 'E 1', 'CAFE\u0301'].map(row).join(''));
    assert.deepEqual(
      lint(fixed).diagnostics.map((d) => d.code),
      [],
    );
  });

  it('an id of whitespace alone is flagged without a fix (removing it would leave the required id empty)', () => {
    const found = lint(header + row('  \u200b ')).diagnostics.filter((d) => d.code === 'id-whitespace');
    assert.equal(found.length, 1);
    assert.deepEqual(found[0].fixes, []);
  });
});
