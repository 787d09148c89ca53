// card-data-in-git: the pure check over a batch, the .gitignore entry, and git's own answer about a file in
// real scratch repositories (git from the machine; no network).
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gitFileStatus, gitTrackings } from '../../src/core/git';
import { lintFiles } from '../../src/cli/commands/lint';
import { cardDataInGit, isFullCardNumber, withGitignoreEntry } from '../../src/core/rules/cardDataInGit';
import { lint } from '../../src/core/rules/lint';
import { PUBLISHED_TEST_CARDS } from '../../src/core/rules/testCards';
import { luhnValid } from '../../src/core/rules/values';
import { PROCESS_MS } from '../fixtures/deadlines';

const HEADER = 'client-orderid;rp_card_type;credit-card-number;currency;amount';
// Luhn-valid and not a published test number: a real-looking card.
const REAL = '4539578763621486';

function batchOf(...rows: string[]) {
  return lint([HEADER, ...rows].join('\n') + '\n').batch;
}

describe('card-data-in-git: the check', () => {
  it('every published test number passes Luhn, and none counts as card data', () => {
    for (const c of PUBLISHED_TEST_CARDS) {
      assert.ok(luhnValid(c.number), c.number);
      assert.equal(isFullCardNumber(c.number), false, c.number);
    }
    assert.equal(isFullCardNumber(REAL), true);
    assert.equal(isFullCardNumber('4539578763621487'), false, 'fails Luhn: a typo, not a card');
    assert.equal(isFullCardNumber('411111******1111'), false, 'masked');
  });

  it('marks the first full card number only, when git tracks the file or would take it', () => {
    const batch = batchOf('A1;DST;4111111111111111;EUR;1.00', `A2;DST;${REAL};EUR;1.00`, `A3;DST;${REAL};EUR;1.00`);
    for (const tracking of ['tracked', 'unignored'] as const) {
      const d = cardDataInGit(batch, tracking, 'batch.rpcsv');
      assert.ok(d, tracking);
      assert.equal(d.code, 'card-data-in-git');
      assert.equal(d.severity, 'warning');
      assert.deepEqual(d.range, { start: { line: 2, character: 7 }, end: { line: 2, character: 7 + REAL.length } });
      assert.doesNotMatch(d.message, new RegExp(REAL), 'the message never repeats the number');
    }
    assert.match(cardDataInGit(batch, 'tracked', 'batch.rpcsv')!.message, /git rm --cached batch\.rpcsv/);
    assert.match(cardDataInGit(batch, 'unignored', 'batch.rpcsv')!.message, /\.gitignore/);
    assert.equal(cardDataInGit(batch, 'ignored', 'batch.rpcsv'), undefined);
    assert.equal(cardDataInGit(batch, 'outside', 'batch.rpcsv'), undefined);
  });

  it('stays quiet for test numbers only', () => {
    assert.equal(
      cardDataInGit(batchOf('A1;DST;4111111111111111;EUR;1.00', 'A2;DST;5555555555554444;EUR;1.00'), 'tracked', 'b.rpcsv'),
      undefined,
    );
  });

  it('adds one anchored, escaped line to .gitignore, once', () => {
    assert.equal(withGitignoreEntry('', 'batches/june.rpcsv'), '/batches/june.rpcsv\n');
    assert.equal(withGitignoreEntry('node_modules/', 'a b#.rpcsv'), 'node_modules/\n/a\\ b\\#.rpcsv\n');
    assert.equal(withGitignoreEntry('x\r\n', 'b.rpcsv'), 'x\r\n/b.rpcsv\r\n');
    const once = withGitignoreEntry('dist/\n', 'b.rpcsv');
    assert.equal(withGitignoreEntry(once, 'b.rpcsv'), once);
  });
});

describe('card-data-in-git: what git says', { timeout: PROCESS_MS }, () => {
  let dir: string;
  const run = (cwd: string, ...args: string[]) =>
    execFileSync('git', args, { cwd, stdio: 'pipe', env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1', HOME: dir } });
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'paygate-git-'));
    mkdirSync(join(dir, 'repo', 'batches'), { recursive: true });
    mkdirSync(join(dir, 'plain'));
    run(join(dir, 'repo'), 'init', '-q');
    writeFileSync(join(dir, 'repo', '.gitignore'), 'ignored.rpcsv\n');
    for (const f of ['tracked.rpcsv', 'new.rpcsv', 'ignored.rpcsv', 'batches/deep.rpcsv'])
      writeFileSync(join(dir, 'repo', f), HEADER + '\n');
    writeFileSync(join(dir, 'plain', 'outside.rpcsv'), HEADER + '\n');
    run(join(dir, 'repo'), 'add', 'tracked.rpcsv');
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('tells tracked, unignored, ignored and outside apart', async () => {
    assert.equal((await gitFileStatus(join(dir, 'repo', 'tracked.rpcsv'))).tracking, 'tracked');
    assert.equal((await gitFileStatus(join(dir, 'repo', 'new.rpcsv'))).tracking, 'unignored');
    assert.equal((await gitFileStatus(join(dir, 'repo', 'batches', 'deep.rpcsv'))).tracking, 'unignored');
    assert.equal((await gitFileStatus(join(dir, 'repo', 'ignored.rpcsv'))).tracking, 'ignored');
    assert.equal((await gitFileStatus(join(dir, 'plain', 'outside.rpcsv'))).tracking, 'outside');
  });

  it('tells the same apart for many files at once (one git call per directory)', async () => {
    writeFileSync(join(dir, 'repo', 'a[1]*.rpcsv'), HEADER + '\n');
    const files = ['tracked.rpcsv', 'new.rpcsv', 'batches/deep.rpcsv', 'ignored.rpcsv', 'a[1]*.rpcsv'].map((f) => join(dir, 'repo', f));
    const all = [...files, join(dir, 'plain', 'outside.rpcsv')];
    const got = await gitTrackings(all);
    assert.deepEqual(
      all.map((f) => got.get(f)),
      ['tracked', 'unignored', 'unignored', 'ignored', 'unignored', 'outside'],
    );
  });

  it('`paygate lint` of many files holding card numbers asks git once, not three times per file', async () => {
    // A `git` in front of the real one on PATH counts the calls.
    const bin = join(dir, 'bin');
    mkdirSync(bin);
    const real = execFileSync('sh', ['-c', 'command -v git'], { encoding: 'utf8' }).trim();
    writeFileSync(join(bin, 'git'), `#!/bin/sh\necho "$@" >> ${JSON.stringify(join(dir, 'calls'))}\nexec ${JSON.stringify(real)} "$@"\n`, {
      mode: 0o755,
    });
    const many = join(dir, 'repo', 'many');
    mkdirSync(many);
    const names = Array.from({ length: 40 }, (_, i) => `b${i}.rpcsv`);
    for (const n of names) writeFileSync(join(many, n), `${HEADER}\no1;DST;${REAL};EUR;5\n`);
    let out = '';
    const path = process.env.PATH;
    process.env.PATH = `${bin}:${path}`;
    try {
      const code = await lintFiles(
        names,
        { format: 'json' },
        {
          cwd: many,
          env: {},
          stdout: (t) => (out += t),
          stderr: () => {},
          stdin: () => Promise.resolve(Buffer.alloc(0)),
          interactive: false,
          confirm: () => Promise.resolve(false),
          stopped: () => new Promise(() => {}),
        },
      );
      assert.equal(code, 0);
    } finally {
      process.env.PATH = path;
    }
    const calls = readFileSync(join(dir, 'calls'), 'utf8').trim().split('\n');
    assert.equal(calls.length, 1, calls.join('\n'));
    const warned = (JSON.parse(out) as { files: { diagnostics: { code: string }[] }[] }).files.filter((f) =>
      f.diagnostics.some((d) => d.code === 'card-data-in-git'),
    );
    assert.equal(warned.length, names.length);
  });
});
