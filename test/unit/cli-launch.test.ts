import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { captured, testContext } from '../fixtures/cli/context';
import { launch } from '../../src/cli/launch';
import { launchLint, launchVersion, runsLintOnly, runsVersionOnly } from '../../src/cli/lintLaunch';
import { lintCommand } from '../../src/cli/commands/lint';
import { paygate, runPaygate } from '../../src/cli/program';
import { COMMANDS, commandEntry } from '../../src/cli/registry';

// The process loads only the command it runs (launch.ts); the whole program (program.ts) is what help,
// the docs and the other tests read. Both are made from the one list (registry.ts) and must be the same
// program to a user.

async function both(args: string[], cwd = process.cwd()) {
  const runs = [];
  // `paygate lint` without help runs from its own bundle (lintLaunch.ts): the third way must answer alike.
  for (const run of runsLintOnly(args) ? [launch, runPaygate, launchLint] : [launch, runPaygate]) {
    const { ctx, out, err } = captured({ cwd });
    runs.push({ code: await run(args, ctx), out: out(), err: err() });
  }
  return runs;
}

describe('launch: one command loaded, the same answers as the whole program', () => {
  it('runs lint alone only without help, which lists every command', () => {
    assert.equal(runsLintOnly(['lint', 'a.rpcsv']), true);
    assert.equal(runsLintOnly(['lint', '--version']), true);
    for (const args of [['lint', '--help'], ['lint', 'a.rpcsv', '-h'], ['fix', 'a.rpcsv'], ['help', 'lint'], []])
      assert.equal(runsLintOnly(args), false, args.join(' '));
  });

  it('answers the version alone from the small bundle, as the whole program does', async () => {
    for (const flag of ['--version', '-v']) {
      assert.equal(runsVersionOnly([flag]), true);
      const { ctx, out, err } = captured();
      const code = await launchVersion(ctx);
      const [whole] = await both([flag]).then((r) => r.slice(1));
      assert.deepEqual({ code, out: out(), err: err() }, whole, flag);
    }
    for (const args of [['--version', 'lint'], ['lint', '--version'], ['-V'], ['--help'], []])
      assert.equal(runsVersionOnly(args), false, args.join(' '));
  });

  it('the whole program has every command of the registry, in its order', async () => {
    const names = (await paygate(testContext())).commands.map((c) => c.name()).filter((n) => n !== 'help');
    assert.deepEqual(
      names,
      COMMANDS.map((c) => c.name),
    );
  });

  it('each command module builds the command of its name', async () => {
    for (const { name, load } of COMMANDS) assert.equal((await load())(testContext()).name(), name);
  });

  it("lint's own bundle runs the registry's lint command", async () => {
    assert.equal(await commandEntry('lint')?.load(), lintCommand);
  });

  it('usage errors, help, --version and unknown commands answer alike', async () => {
    const cases = [
      ...COMMANDS.map(({ name }) => [name, '--no-such-option']),
      ['lint'],
      ['lint', 'x', '--format', 'xml'],
      ['lint', '--help'],
      ['lint', '--version'],
      ['--version'],
      ['help', 'lint'],
      ['lnt', 'x'],
      [],
    ];
    for (const args of cases) {
      const [lazy, whole, lintAlone] = await both(args);
      assert.deepEqual(lazy, whole, args.join(' '));
      if (lintAlone) assert.deepEqual(lintAlone, whole, `lint alone: ${args.join(' ')}`);
    }
  });

  it('paygate lint of files answers alike (text and JSON)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'paygate-launch-'));
    try {
      writeFileSync(join(dir, 'a.rpcsv'), 'client-orderid;rp_card_type\nA-1;XYZ\n');
      for (const format of ['text', 'json']) {
        const [lazy, whole, lintAlone] = await both(['lint', '--format', format, 'a.rpcsv', 'missing.rpcsv'], dir);
        assert.deepEqual(lazy, whole, format);
        assert.deepEqual(lintAlone, whole, `lint alone: ${format}`);
        assert.equal(lazy.code, 2, 'an unreadable file is a usage problem');
        assert.match(lazy.out + lazy.err, /invalid-value|missing/);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
