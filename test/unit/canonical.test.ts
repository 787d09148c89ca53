// One canonical form of a batch: the editor (whose buffer has one end-of-line sequence for the whole
// document) and the terminal (which reads the bytes) send and hash the same text for one unchanged file,
// and a file hashed the old way (quoted line breaks kept as they were) is still recognised.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { batchContentHash, canonicalBatchText, legacyContentHashes } from '../../src/core/csv/canonical';
import { legacySentText, quoteField } from '../../src/core/csv/write';
import { parseCsv } from '../../src/core/csv/parse';
import { prepareSubmission } from '../../src/core/gateway';
import { stillAsSent } from '../../src/core/reconcile';

const root = join(__dirname, '..', '..');
const valid = readFileSync(join(root, 'examples', 'valid.rpcsv'), 'utf8');
/** What `paygate submit examples/valid.rpcsv` recorded before the canonical form (test/fixtures/ledger/pre-canonical). */
const OLD_CLI_HASH = '24bdf1e323b9ff82adaba27549e8ffba93c9c22b5cfd756ffa60de13ecddb746';

/** The text as VS Code's buffer holds it: every line break the document's one end-of-line sequence. */
const asEditor = (text: string, eol: '\r\n' | '\n') => text.replace(/\r\n|\r|\n/g, eol);

describe('the canonical text of a batch', () => {
  it('makes every line break CRLF, inside quoted fields too, and drops the BOM', () => {
    assert.equal(canonicalBatchText('\ufeffa;"x\ny"\nb;"1\r2"\rd;e\r\n'), 'a;"x\r\ny"\r\nb;"1\r\n2"\r\nd;e\r\n');
    assert.equal(canonicalBatchText('a;b\nc;d'), 'a;b\r\nc;d');
    assert.equal(canonicalBatchText('a;b\r\nc;d\n\n\r\n'), 'a;b\r\nc;d\r\n');
    assert.equal(canonicalBatchText(''), '');
    assert.equal(canonicalBatchText('\ufeff'), '');
  });

  it('examples/valid.rpcsv (CRLF rows, a bare LF in a quoted field) is the same from the editor and the terminal', () => {
    assert.match(valid, /[^\r]\n/, 'the example still holds a bare LF');
    const terminal = prepareSubmission(valid, 'valid.rpcsv');
    for (const eol of ['\r\n', '\n'] as const) {
      const editor = prepareSubmission(asEditor(valid, eol), 'valid.rpcsv');
      assert.equal(editor.contentHash, terminal.contentHash);
      assert.equal(editor.payload, terminal.payload);
    }
  });

  it('is the same text whatever line breaks and BOM a face saw (property)', () => {
    const cell = fc.stringMatching(/^[a-z;" \r\n]{0,6}$/).map((v) => quoteField(v));
    const row = fc.array(cell, { minLength: 1, maxLength: 4 }).map((cells) => cells.join(';'));
    const breaks = fc.constantFrom('\r\n', '\n', '\r');
    const text = fc
      .tuple(fc.array(fc.tuple(row, breaks), { minLength: 1, maxLength: 6 }), fc.boolean(), fc.boolean())
      .map(([rows, bom, last]) => (bom ? '\ufeff' : '') + rows.map(([r, b], i) => r + (i < rows.length - 1 || last ? b : '')).join(''));
    fc.assert(
      fc.property(text, (t) => {
        const c = canonicalBatchText(t);
        assert.equal(canonicalBatchText(asEditor(t, '\r\n')), c);
        assert.equal(canonicalBatchText(asEditor(t, '\n')), c);
        assert.equal(canonicalBatchText(c), c, 'canonical twice is canonical');
        assert.doesNotMatch(c, /(?<!\r)\n|\r(?!\n)/);
        // What the editor always sent (a CRLF buffer) is today's text: its old records need no second hash.
        assert.equal(legacySentText(asEditor(t, '\r\n')), c);
        // Submit parses once: the LF editor's old text comes from the text's own parse, as from its own.
        const csv = parseCsv(t);
        assert.equal(legacySentText(t, csv, true), legacySentText(asEditor(t, '\n')));
        assert.deepEqual(legacyContentHashes(t, undefined, csv), legacyContentHashes(t));
      }),
      { numRuns: 300 },
    );
  });
});

describe('content hashes of versions up to 0.1', () => {
  it('include what `paygate submit` recorded for the unchanged file', () => {
    assert.notEqual(batchContentHash(valid), OLD_CLI_HASH);
    assert.ok(legacyContentHashes(valid).includes(OLD_CLI_HASH));
    assert.ok(prepareSubmission(valid).legacyHashes.includes(OLD_CLI_HASH));
  });

  it('from the editor, are found with the bytes on disk (the buffer has lost which breaks were LF)', () => {
    const buffer = asEditor(valid, '\r\n');
    assert.deepEqual(legacyContentHashes(buffer), [], 'an all-CRLF text: every older hash of it is today’s');
    assert.ok(legacyContentHashes(buffer, valid).includes(OLD_CLI_HASH));
    assert.ok(prepareSubmission(buffer, 'valid.rpcsv', valid).legacyHashes.includes(OLD_CLI_HASH));
    // One quoted CRLF and one quoted LF: neither of the editor's one-EOL views is what the terminal hashed.
    const mixed = valid.replace('Gym membership, monthly', '"Gym\r\nmembership, monthly"');
    const oldCli = legacyContentHashes(mixed).find((h) => !legacyContentHashes(asEditor(mixed, '\n')).includes(h));
    assert.ok(oldCli, 'the terminal’s old hash differs from the editor’s LF view');
    assert.ok(legacyContentHashes(asEditor(mixed, '\r\n'), mixed).includes(oldCli));
  });

  it('of an editor whose buffer was LF are found from its LF text', () => {
    const lf = asEditor(valid, '\n');
    const hashes = legacyContentHashes(lf);
    assert.equal(hashes.length, 1, 'records CRLF, the quoted break LF: a hash of its own');
  });

  it('are none for a batch without quotes (every older hash is today’s)', () => {
    assert.deepEqual(legacyContentHashes('a;b\nc;d\n'), []);
  });

  it('let reconcile read a file sent before the change as still what was sent', () => {
    assert.ok(stillAsSent(valid, { contentHash: OLD_CLI_HASH }));
    assert.ok(stillAsSent(asEditor(valid, '\r\n'), { contentHash: batchContentHash(valid) }));
    assert.ok(!stillAsSent(valid.replace('GYM-2027-0001', 'GYM-2027-9999'), { contentHash: OLD_CLI_HASH }));
  });
});
