import assert from 'node:assert/strict';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { pgpassPassword } from '../../src/core/ledger/team/connect';
import { parseLedgerUrl, redactedUrl } from '../../src/core/ledger/team/url';
import { keyCheckValue } from '../../src/core/ledger/team/key';

// The team ledger's URL, password file and key check, without a server.

test('a team ledger URL is shown without its password or query; other schemes are refused', () => {
  const u = parseLedgerUrl('postgres://alice:s3cret%21@db.example:6432/team?sslmode=verify-full&password=x');
  assert.ok(u.ok);
  assert.equal(redactedUrl(u.url), 'postgres://alice@db.example:6432/team');
  const refused = parseLedgerUrl('mysql://alice:s3cret@db/team');
  assert.ok(!refused.ok);
  assert.match(refused.message, /must start with postgres:\/\//);
  assert.ok(!refused.message.includes('s3cret'));
  assert.ok(!parseLedgerUrl('not a url').ok);
});

test('~/.pgpass as libpq reads it: the first matching line, * and escapes; a file others may read is ignored', () => {
  const home = mkdtempSync(join(tmpdir(), 'paygate-pgpass-'));
  try {
    const file = join(home, '.pgpass');
    writeFileSync(
      file,
      '# comment\nother:5432:team:alice:no\ndb.example:*:team:alice:first\\:one\\\\x\ndb.example:6432:team:alice:second\n',
      { mode: 0o600 },
    );
    assert.equal(pgpassPassword({}, home, 'db.example', '6432', 'team', 'alice'), 'first:one\\x');
    assert.equal(pgpassPassword({}, home, 'db.example', '6432', 'team', 'bob'), undefined);
    assert.equal(pgpassPassword({ PGPASSFILE: join(home, 'none') }, home, 'db.example', '6432', 'team', 'alice'), undefined);
    chmodSync(file, 0o644);
    assert.equal(pgpassPassword({}, home, 'db.example', '6432', 'team', 'alice'), undefined);
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
});

test('the key check value tells keys apart and does not contain the key', () => {
  const a = 'ab'.repeat(32);
  const b = 'cd'.repeat(32);
  assert.equal(keyCheckValue(a), keyCheckValue(a));
  assert.notEqual(keyCheckValue(a), keyCheckValue(b));
  assert.ok(!keyCheckValue(a).includes(a));
});
