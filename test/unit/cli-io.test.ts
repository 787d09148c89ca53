// The CLI's file reading and writing under hostile conditions: only regular files up to a limit are
// read; `fix`'s write keeps mode and owner, goes through symlinks, never follows a planted link, and
// leaves nothing behind when it fails.
import { testContext } from '../fixtures/cli/context';
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, chown, lstat, mkdir, mkdtemp, readFile, readdir, readlink, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseByteCount, readInput, writeFileAtomic } from '../../src/cli/io';

let dir = '';
const at = (name: string) => path.join(dir, name);

before(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'paygate-io-'));
});
after(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('readInput: what is read', () => {
  it('refuses a character device, a FIFO and a directory, naming the file', async () => {
    const fifo = at('pipe');
    execFileSync('mkfifo', [fifo]);
    await mkdir(at('folder'));
    for (const [file, why] of [
      ['/dev/zero', 'not a regular file'],
      [fifo, 'not a regular file'],
      [at('folder'), 'is a directory'],
    ]) {
      // A FIFO without a writer would block a plain open for ever: the open does not wait.
      const input = await readInput(file, testContext());
      assert.equal(input.ok, false);
      assert.ok(!input.ok && input.message.startsWith(`${file}: cannot read: ${why}`), JSON.stringify(input));
    }
  });

  it('refuses a file over the limit, and names the flag only when the command has it', async () => {
    await writeFile(at('big.csv'), 'a;b\n'.repeat(100));
    const limited = await readInput(at('big.csv'), testContext(), { maxBytes: 399 });
    assert.ok(
      !limited.ok && limited.message === `${at('big.csv')}: the file (400 bytes) is over the limit of 399 bytes; --max-bytes N raises it`,
      JSON.stringify(limited),
    );
    const exact = await readInput(at('big.csv'), testContext(), { maxBytes: 400 });
    assert.ok(exact.ok && exact.text.length === 400);
  });

  it(
    'a file with more bytes than its size said (it grew, or /proc reports 0) is read to its end',
    { skip: !existsSync('/proc/self/status') && 'no /proc here' },
    async () => {
      const input = await readInput('/proc/self/status', testContext());
      assert.ok(
        input.ok && input.text.startsWith('Name:') && input.text.includes('\nPid:') && input.text.endsWith('\n'),
        JSON.stringify(input).slice(0, 200),
      );
      const capped = await readInput('/proc/self/status', testContext(), { maxBytes: 10 });
      assert.ok(!capped.ok && capped.message.includes('is over the limit of 10 bytes'), JSON.stringify(capped));
    },
  );

  it('reads a batch through a symlink like the file itself', async () => {
    await writeFile(at('real.csv'), 'x;y\n');
    await symlink(at('real.csv'), at('link.csv'));
    const input = await readInput(at('link.csv'), testContext());
    assert.ok(input.ok && input.text === 'x;y\n');
  });

  it('decodes ASCII, UTF-8 with a byte order mark (kept) and every plane as UTF-8; names the line and column of a bad byte', async () => {
    const texts = ['a;b\r\nc;d\n', '\ufeffclient-orderid;order_desc\nA1;Müller “gold” 🙂\n', '', 'x'.repeat(70_000) + 'é'];
    for (const [i, text] of texts.entries()) {
      await writeFile(at(`text${i}.csv`), text, 'utf8');
      const input = await readInput(at(`text${i}.csv`), testContext());
      assert.ok(input.ok && input.text === text, JSON.stringify(text.slice(0, 40)));
    }
    const bad: [Buffer, string][] = [
      [Buffer.concat([Buffer.from('a;b\nc;'), Buffer.from([0xff]), Buffer.from('d\n')]), ':2:3: not valid UTF-8 (byte 0xff at offset 6)'],
      [Buffer.concat([Buffer.from('a;é\n'), Buffer.from([0xc3])]), ':2:1: not valid UTF-8 (byte 0xc3 at offset 5)'], // cut short
      [Buffer.from([0xe2, 0x82, 0x41]), ':1:1: not valid UTF-8 (byte 0xe2 at offset 0)'],
    ];
    for (const [i, [bytes, message]] of bad.entries()) {
      await writeFile(at(`bad${i}.csv`), bytes);
      const input = await readInput(at(`bad${i}.csv`), testContext());
      assert.ok(!input.ok && input.message.startsWith(`${at(`bad${i}.csv`)}${message}`), JSON.stringify(input));
    }
  });

  it('--max-bytes values: bytes or K, M, G; nothing else', () => {
    assert.deepEqual(['1', '512', '4k', '512M', '1G', '2GiB', '0', '-1', '1.5M', 'lots', ''].map(parseByteCount), [
      1,
      512,
      4096,
      512 * 1024 ** 2,
      1024 ** 3,
      2 * 1024 ** 3,
      undefined,
      undefined,
      undefined,
      undefined,
      undefined,
    ]);
  });
});

describe('writeFileAtomic', () => {
  const mode = async (file: string) => (await stat(file)).mode & 0o7777;
  const entries = async (folder: string) => (await readdir(folder)).sort();

  it('keeps the mode: 0600 stays 0600, 0640 stays 0640', async () => {
    for (const m of [0o600, 0o640]) {
      const file = at(`mode-${m.toString(8)}.csv`);
      await writeFile(file, 'old');
      await chmod(file, m);
      await writeFileAtomic(file, 'new');
      assert.equal(await readFile(file, 'utf8'), 'new');
      assert.equal(await mode(file), m);
    }
  });

  it(
    'keeps the owner and group (when the process may set them)',
    { skip: process.getuid?.() !== 0 && 'needs root to own a file as someone else' },
    async () => {
      const file = at('owned.csv');
      await writeFile(file, 'old');
      await chown(file, 4242, 4343);
      await writeFileAtomic(file, 'new');
      const st = await stat(file);
      assert.deepEqual([st.uid, st.gid, await readFile(file, 'utf8')], [4242, 4343, 'new']);
    },
  );

  it('a symlinked batch stays a symlink; its target gets the new text and keeps its mode', async () => {
    await mkdir(at('store'));
    const target = path.join(dir, 'store', 'batch.rpcsv');
    await writeFile(target, 'old');
    await chmod(target, 0o600);
    await symlink(target, at('batch-link.rpcsv'));
    await writeFileAtomic(at('batch-link.rpcsv'), 'new');
    assert.ok((await lstat(at('batch-link.rpcsv'))).isSymbolicLink());
    assert.equal(await readlink(at('batch-link.rpcsv')), target);
    assert.equal(await readFile(target, 'utf8'), 'new');
    assert.equal(await mode(target), 0o600);
    // The temporary file was made next to the target, and is gone.
    assert.deepEqual(await entries(path.join(dir, 'store')), ['batch.rpcsv']);
  });

  it('a planted symlink at a predictable temporary name is not followed', async () => {
    await mkdir(at('planted'));
    const file = path.join(dir, 'planted', 'b.rpcsv');
    const victim = at('victim.txt');
    await writeFile(file, 'old');
    await writeFile(victim, 'precious');
    // The names a guessable scheme would use: the old one (pid based) and the usual editor ones.
    const guesses = [`${file}.paygate-${process.pid}.tmp`, `${file}.tmp`, `${file}~`, path.join(dir, 'planted', '.b.rpcsv.tmp')];
    for (const g of guesses) await symlink(victim, g);
    await writeFileAtomic(file, 'new');
    assert.equal(await readFile(file, 'utf8'), 'new');
    assert.equal(await readFile(victim, 'utf8'), 'precious');
    for (const g of guesses) assert.ok((await lstat(g)).isSymbolicLink(), g);
    assert.equal((await entries(path.join(dir, 'planted'))).length, 1 + guesses.length);
  });

  it('a link planted at the very name drawn is not followed: the open fails exclusively and another name is drawn', async () => {
    await mkdir(at('drawn'));
    const file = path.join(dir, 'drawn', 'c.rpcsv');
    const victim = at('victim2.txt');
    await writeFile(file, 'old');
    await writeFile(victim, 'precious');
    const planted = path.join(dir, 'drawn', 'taken');
    await symlink(victim, planted);
    const tried: string[] = [];
    await writeFileAtomic(file, 'new', {
      tempName: (folder) => {
        const name = tried.length === 0 ? planted : path.join(folder, `fresh-${tried.length}`);
        tried.push(name);
        return name;
      },
    });
    assert.deepEqual(tried, [planted, path.join(dir, 'drawn', 'fresh-1')]);
    assert.equal(await readFile(victim, 'utf8'), 'precious');
    assert.equal(await readFile(file, 'utf8'), 'new');
    assert.deepEqual(await entries(path.join(dir, 'drawn')), ['c.rpcsv', 'taken']);
  });

  it('the temporary file is private (0600) while written, and a failure then leaves no temporary file and the original intact', async () => {
    await mkdir(at('fault'));
    const file = path.join(dir, 'fault', 'd.rpcsv');
    await writeFile(file, 'original 4111111111111111');
    await chmod(file, 0o644);
    let seen: { name: string; mode: number; text: string } | undefined;
    await assert.rejects(
      writeFileAtomic(file, 'half-fixed', {
        afterWrite: async (temp) => {
          seen = { name: path.basename(temp), mode: await mode(temp), text: await readFile(temp, 'utf8') };
          throw new Error('disk on fire');
        },
      }),
      /disk on fire/,
    );
    assert.ok(seen && seen.mode === 0o600 && seen.text === 'half-fixed', JSON.stringify(seen));
    // The name is not derived from the file name and the pid alone: 24 random hex digits.
    assert.match(seen!.name, /^\.d\.rpcsv\.[0-9a-f]{24}\.paygate-tmp$/);
    assert.deepEqual(await entries(path.join(dir, 'fault')), ['d.rpcsv']);
    assert.equal(await readFile(file, 'utf8'), 'original 4111111111111111');
    assert.equal(await mode(file), 0o644);
  });

  it('a read-only file is refused and left as it was (a rename would bypass its mode)', async () => {
    await mkdir(at('ro'));
    const file = path.join(dir, 'ro', 'e.rpcsv');
    await writeFile(file, 'keep');
    await chmod(file, 0o444);
    await assert.rejects(writeFileAtomic(file, 'new'), /read-only/);
    assert.equal(await readFile(file, 'utf8'), 'keep');
    assert.deepEqual(await entries(path.join(dir, 'ro')), ['e.rpcsv']);
  });

  it('a file that does not exist is not created', async () => {
    await assert.rejects(writeFileAtomic(at('missing/none.csv'), 'x'), /ENOENT/);
  });
});
