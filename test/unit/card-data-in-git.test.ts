// card-data-in-git: the pure check over a batch, the .gitignore entry, and git's own answer about a file in
// real scratch repositories (git from the machine; no network).
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gitFileStatus, gitTrackings, mayBeInWorkTree } from '../../src/core/git';
import { lintFiles } from '../../src/cli/commands/lint';
import { cardDataInGit, firstFullCardNumber, isFullCardNumber, withGitignoreEntry } from '../../src/core/rules/cardDataInGit';
import { readBatch, type Batch } from '../../src/core/rules/batch';
import { lint } from '../../src/core/rules/lint';
import { PUBLISHED_TEST_CARDS } from '../../src/core/rules/testCards';
import { luhnValidIn } from '../../src/core/luhn';
import { PROCESS_MS } from '../fixtures/deadlines';
import { saidText } from '../../src/core/output';

const HEADER = 'client-orderid;rp_card_type;credit-card-number;currency;amount';
// Luhn-valid and not a published test number: a real-looking card.
const REAL = '4539578763621486';

function batchOf(...rows: string[]) {
  return lint([HEADER, ...rows].join('\n') + '\n').batch;
}

describe('card-data-in-git: the check', () => {
  it('every published test number passes Luhn, and none counts as card data', () => {
    for (const c of PUBLISHED_TEST_CARDS) {
      assert.ok(luhnValidIn(c.number, 0, c.number.length), c.number);
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
      assert.doesNotMatch(saidText(d.message), new RegExp(REAL), 'the message never repeats the number');
    }
    assert.match(saidText(cardDataInGit(batch, 'tracked', 'batch.rpcsv')!.message), /git rm --cached batch\.rpcsv/);
    assert.match(saidText(cardDataInGit(batch, 'unignored', 'batch.rpcsv')!.message), /\.gitignore/);
    assert.equal(cardDataInGit(batch, 'ignored', 'batch.rpcsv'), undefined);
    assert.equal(cardDataInGit(batch, 'outside', 'batch.rpcsv'), undefined);
  });

  // The check as it was first written: every data row's values as strings, trimmed. The linter's pass and
  // firstFullCardNumber read the cells in place instead; both must find the same cell.
  function firstCardByValues(batch: Batch): { start: number; length: number } | undefined {
    const column = batch.columnIndex.get('credit-card-number');
    if (column === undefined) return undefined;
    for (const row of batch.rows) {
      const value = row.record.values[column];
      if (value !== undefined && isFullCardNumber(value.trim())) return { start: row.record.fieldStart(column), length: value.length };
    }
    return undefined;
  }

  it("finds the same first card number in the linter's pass, alone, and as the values read it (untrusted rows, quotes, spaces)", () => {
    const texts = [
      [HEADER, 'A1;DST;4111111111111111;EUR;1.00', `A2;DST;${REAL};EUR;1.00`],
      [HEADER, `A1;DST;4111111111111111;EUR`, `A2;DST;${REAL}`, `A3;DST;${REAL};EUR;1.00`], // field-count rows count too
      [HEADER, `A1;DST;"${REAL}`], // an unterminated quote: a csv-syntax row
      [HEADER, `A1;"x""y";" ${REAL} ";EUR;1.00`], // doubled quotes move the cells; spaces are trimmed
      [HEADER, `"A1";DST;${REAL} ;EUR;1.00`, ''],
      [HEADER, 'A1;DST;4111111111111111;EUR;1.00', 'A2;DST;4539578763621487;EUR;1.00'], // test number, Luhn typo
      ['client-orderid;rp_card_type;currency', `A1;DST;${REAL}`], // no card column
      ['', '', HEADER, '', `A1;DST;${REAL};EUR;1.00`], // blank lines before the header and between rows
      [`${HEADER};"a"b`, `A1;DST;${REAL};EUR;1.00;x`], // a broken header: the linter stops before the rows
      ['client-orderid,rp_card_type,credit-card-number', `A1,DST,${REAL}`], // another delimiter
    ];
    for (const lines of texts) {
      for (const [eol, bom] of [
        ['\n', ''],
        ['\r\n', ''],
        ['\r', '\ufeff'],
      ]) {
        const text = bom + lines.join(eol) + eol;
        const expected = firstCardByValues(readBatch(text));
        const linted = lint(text, { findCardNumber: true });
        assert.deepEqual(linted.cardNumber ?? undefined, expected, JSON.stringify(text));
        assert.deepEqual(firstFullCardNumber(readBatch(text)), expected, JSON.stringify(text));
        if (expected) {
          // Its line and character, worked out from the text up to the cell, are the whole file's index's.
          const batch = readBatch(text);
          const range = batch.csv.index.range(expected.start, expected.start + expected.length);
          assert.deepEqual(cardDataInGit(batch, 'tracked', 'b.rpcsv', linted.cardNumber)!.range, range, JSON.stringify(text));
        }
        assert.equal(lint(text).cardNumber, undefined, 'only looked for when asked');
      }
    }
  });

  // The linter's pass takes card-luhn's reading of a card cell that passed its own checks (its Luhn sum and
  // digits' hash: lookChecked) and reads any other cell itself (look): both ways must find what the values do.
  it("finds the first card number as the values do, whichever way the linter's pass reads each row's card cell (property)", () => {
    const cards = [REAL, '5105056255436474', '4539578763621487', '4111111111111111', '4222222222222', '5555555555554444'];
    const card = fc.nat(cards.length - 1).map((i) => cards[i]);
    const cell = fc.oneof(
      card,
      card.map((c) => ` ${c} `), // spaces: not a valid cell, trimmed by the check
      card.map((c) => `"${c}"`),
      fc.constantFrom('', '411111******1111', '45395787636', '45395787636214860000', 'x'),
    );
    const row = fc.tuple(fc.constantFrom('SRC', 'DST', 'XYZ'), cell, fc.constantFrom(';EUR;1.00', ';EUR', ';EUR;1.00;9', ';"EUR;1.00'));
    fc.assert(
      fc.property(fc.array(row, { maxLength: 8 }), (rows) => {
        const text = [HEADER, ...rows.map(([type, card, rest], i) => `A${i};${type};${card}${rest}`)].join('\n') + '\n';
        const expected = firstCardByValues(readBatch(text));
        assert.deepEqual(lint(text, { findCardNumber: true }).cardNumber ?? undefined, expected, JSON.stringify(text));
      }),
      { numRuns: 500 },
    );
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
    const got = await gitTrackings(all, process.env);
    assert.deepEqual(
      all.map((f) => got.get(f)),
      ['tracked', 'unignored', 'unignored', 'ignored', 'unignored', 'outside'],
    );
  });

  it('knows without git when no work tree can hold a folder, and leaves every other folder to git', async () => {
    // The scratch folder is made under the system's temporary folder, itself in no work tree.
    assert.equal(await mayBeInWorkTree(join(dir, 'plain'), {}), false);
    assert.equal(await mayBeInWorkTree(join(dir, 'repo', 'batches'), {}), true);
    assert.equal(await mayBeInWorkTree(join(dir, 'plain'), { GIT_DIR: join(dir, 'repo', '.git') }), true, 'git steered by a variable');
    assert.equal(await mayBeInWorkTree(join(dir, 'plain'), { GIT_WORK_TREE: join(dir, 'repo') }), true, 'git steered by a variable');
    assert.equal(
      await mayBeInWorkTree(join(dir, 'plain'), { GIT_SSL_CAINFO: '/etc/ssl/certs/ca-certificates.crt', GIT_CEILING_DIRECTORIES: '/' }),
      false,
      'variables that do not point git at a repository change nothing',
    );
    symlinkSync(join(dir, 'repo', 'batches'), join(dir, 'plain', 'link'));
    assert.equal(await mayBeInWorkTree(join(dir, 'plain', 'link'), {}), true, 'a link into a work tree is in it, as git sees it');
    mkdirSync(join(dir, 'bare'));
    run(join(dir, 'bare'), 'init', '-q', '--bare');
    assert.equal(await mayBeInWorkTree(join(dir, 'bare'), {}), true, 'a repository folder itself is left to git');
  });

  it('`paygate lint` of a file holding card numbers outside any work tree starts no git', async () => {
    const bin = join(dir, 'bin-outside');
    mkdirSync(bin);
    const calls = join(dir, 'calls-outside');
    const real = execFileSync('sh', ['-c', 'command -v git'], { encoding: 'utf8' }).trim();
    writeFileSync(join(bin, 'git'), `#!/bin/sh\necho "$@" >> ${JSON.stringify(calls)}\nexec ${JSON.stringify(real)} "$@"\n`, {
      mode: 0o755,
    });
    writeFileSync(join(dir, 'plain', 'cards.rpcsv'), `${HEADER}\no1;DST;${REAL};EUR;5\n`);
    let out = '';
    const env: Record<string, string | undefined> = { ...process.env, PATH: `${bin}:${process.env.PATH}` };
    for (const name of ['GIT_DIR', 'GIT_WORK_TREE', 'GIT_COMMON_DIR']) delete env[name];
    // This process's PATH too: git may be started with either.
    const path = process.env.PATH;
    process.env.PATH = env.PATH;
    const code = await lintFiles(
      ['cards.rpcsv'],
      { format: 'json' },
      {
        cwd: join(dir, 'plain'),
        env,
        stdout: (t) => (out += t),
        stderr: () => {},
        stdin: () => Promise.resolve(Buffer.alloc(0)),
        interactive: false,
        confirm: () => Promise.resolve(false),
        stopped: () => new Promise(() => {}),
      },
    ).finally(() => (process.env.PATH = path));
    assert.equal(code, 0);
    assert.equal(existsSync(calls), false, existsSync(calls) ? readFileSync(calls, 'utf8') : '');
    assert.doesNotMatch(out, /card-data-in-git/);
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
          env: process.env,
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
