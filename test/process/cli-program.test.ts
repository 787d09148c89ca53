import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { captured, testContext } from '../fixtures/cli/context';
import { paygate, runPaygate } from '../../src/cli/program';
import { COMMANDS } from '../../src/cli/registry';
import { paygateArgs } from '../fixtures/cli/bin';

// The `paygate` program as one parser: every command's help comes from its definitions, every usage error
// has the same two lines and exit 2, and commander never ends the process (these run in the test process).

const root = join(__dirname, '..', '..');

/** The public options of each command, from the registry: scripts depend on them, so removing one must fail here. */
const OPTIONS: Record<string, readonly string[]> = Object.fromEntries(COMMANDS.map((c) => [c.name, c.options]));

async function run(args: string[]) {
  const { ctx, out, err } = captured();
  const code = await runPaygate(args, ctx);
  return { code, out: out(), err: err() };
}

describe('paygate --help', () => {
  it('lists every command with its summary, in the documented set', async () => {
    const r = await run(['--help']);
    assert.equal(r.code, 0);
    assert.equal(r.err, '');
    const program = await paygate(testContext());
    assert.deepEqual(
      program.commands.map((c) => c.name()).filter((n) => n !== 'help'),
      Object.keys(OPTIONS),
    );
    for (const c of program.commands)
      assert.match(r.out, new RegExp(`^  ${c.name()}\\b.*  ${c.summary().replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`, 'm'), c.name());
  });
});

describe("every command's --help", () => {
  for (const [name, options] of Object.entries(OPTIONS)) {
    it(`paygate ${name} --help shows its usage line, each option and its exit status (exit 0)`, async () => {
      const r = await run([name, '--help']);
      assert.equal(r.code, 0, r.err);
      assert.equal(r.err, '');
      assert.match(r.out, new RegExp(`^Usage: paygate ${name}\\b`));
      const defined = (await paygate(testContext())).commands.find((c) => c.name() === name)!.options.map((o) => o.long);
      assert.deepEqual(defined, options, 'the command defines exactly its public options');
      for (const option of [...options, '--help']) assert.match(r.out, new RegExp(`^  (-\\w, )?${option}\\b`, 'm'), option);
      assert.match(r.out, /^Exit status:\n( {2}\d {2}.+\n)+$/m);
      // `paygate help <name>` prints the same.
      const viaHelp = await run(['help', name]);
      assert.equal(viaHelp.code, 0);
      assert.equal(viaHelp.out, r.out);
    });
  }
});

describe('usage errors have one shape for every command (exit 2, nothing on stdout)', () => {
  const shape = (name: string, problem: string) => `paygate ${name}: ${problem}\nRun "paygate ${name} --help" for usage.\n`;
  // sign's required options are checked before unknown ones, so they are given here.
  const required: Record<string, string[]> = { sign: ['--method', 'GET', '--url', 'http://x.example/', '--consumer-key', 'k'] };
  for (const name of Object.keys(OPTIONS)) {
    it(`paygate ${name} --no-such-option`, async () => {
      const r = await run([name, ...(required[name] ?? []), '--no-such-option']);
      assert.equal(r.code, 2);
      assert.equal(r.out, '');
      assert.equal(r.err, shape(name, "unknown option '--no-such-option'"));
    });
  }
  it('a missing argument names it', async () => {
    for (const [name, arg] of [
      ['lint', 'FILE'],
      ['fix', 'FILE'],
      ['schedule', 'FILE'],
      ['submit', 'FILE'],
      ['report', 'TEMPLATE'],
    ]) {
      const r = await run([name]);
      assert.equal(r.code, 2, name);
      assert.equal(r.out, '');
      assert.equal(r.err, shape(name, `no ${arg} given`));
    }
  });
  it('a value outside the choices names the option and the allowed values', async () => {
    const lint = await run(['lint', 'x', '--format', 'xml']);
    assert.equal(lint.err, shape('lint', '--format must be text, json, sarif or github, not "xml"'));
    for (const [name, args] of [
      ['schedule', ['x']],
      ['submit', ['x']],
      ['sign', required.sign],
    ] as const) {
      const r = await run([name, ...args, '--format', 'xml']);
      assert.equal(r.code, 2, name);
      assert.equal(r.err, shape(name, '--format must be text or json, not "xml"'));
    }
    const report = await run(['report', 'x', '--format', 'xml']);
    assert.equal(report.err, shape('report', '--format must be text, json or csv, not "xml"'));
  });
  it('too many arguments, an option without its value, a required option left out', async () => {
    assert.equal((await run(['schedule', 'a', 'b'])).err, shape('schedule', 'give exactly one FILE (got 2)'));
    assert.equal((await run(['gateway', 'extra'])).err, shape('gateway', "unexpected argument 'extra'"));
    assert.equal((await run(['schedule', 'x', '--limit'])).err, shape('schedule', "option '--limit <N>' argument missing"));
    const sign = await run(['sign', '--url', 'http://x.example/', '--consumer-key', 'k']);
    assert.equal(sign.code, 2);
    assert.equal(sign.err, shape('sign', "required option '--method <M>' not specified"));
  });
  it("a value the command's own checks refuse has the same shape", async () => {
    assert.equal((await run(['gateway', '--port', 'abc'])).err, shape('gateway', '--port must be a number from 0 to 65535'));
    assert.equal((await run(['demo', '--days', '0'])).err, shape('demo', '--days must be a whole number from 1 to 3660'));
  });
});

describe('the program itself', () => {
  it('an unknown command or option exits 2 with the usage-error shape', async () => {
    const r = await run(['frobnicate']);
    assert.equal(r.code, 2);
    assert.equal(r.out, '');
    assert.equal(r.err, `paygate: unknown command 'frobnicate'\nRun "paygate --help" for usage.\n`);
    const option = await run(['--frobnicate']);
    assert.equal(option.code, 2);
    assert.equal(option.err, `paygate: unknown option '--frobnicate'\nRun "paygate --help" for usage.\n`);
    const help = await run(['help', 'frobnicate']);
    assert.equal(help.code, 2);
    assert.equal(help.err, r.err);
  });
  it('no command: the help on standard error, exit 2', async () => {
    const r = await run([]);
    assert.equal(r.code, 2);
    assert.equal(r.out, '');
    assert.match(r.err, /^Usage: paygate <command>/);
  });
  it('--version and -v print the version from package.json', async () => {
    const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string };
    for (const flag of ['--version', '-v']) assert.deepEqual(await run([flag]), { code: 0, out: `${pkg.version}\n`, err: '' });
  });
  it('an unknown command as a real process: exit 2 across the process boundary', () => {
    const r = spawnSync(process.execPath, [...paygateArgs(), 'frobnicate'], { cwd: root, encoding: 'utf8' });
    assert.equal(r.status, 2);
    assert.equal(r.stdout, '');
    assert.match(r.stderr, /^paygate: unknown command 'frobnicate'\n/);
  });
  it('lint reads standard input from the context, and relative paths from its folder', async () => {
    const text = 'client-orderid;rp_card_type;credit-card-number;amount;currency\no1;DST;5555555555554444;0;EUR\n';
    const { ctx, out } = captured({ stdin: async () => Buffer.from(text), cwd: join(root, 'examples') });
    assert.equal(await runPaygate(['lint', '--format', 'json', '-', 'valid.rpcsv'], ctx), 1);
    const json = JSON.parse(out()) as { files: { file: string; diagnostics: { code: string }[] }[] };
    assert.deepEqual(
      json.files.map((f) => [f.file, f.diagnostics.map((d) => d.code)]),
      [
        ['<stdin>', ['invalid-value']],
        ['valid.rpcsv', []],
      ],
    );
  });
});
