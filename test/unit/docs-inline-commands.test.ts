// Every `paygate …` code span in README.md and docs/*.md (issue 43: the README's own commands), held to
// the CLI's own definitions: the command exists, every option it names is one of that command's, and a
// span written as a whole command line (no elision, no alternatives, no [optional] or <placeholder>)
// parses as `paygate` would parse it, required arguments and required options included, with a
// placeholder such as FILE or N standing for a value. The fenced blocks' command lines are run by
// test/process/docs-commands.test.ts.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { CommandUnknownOpts } from '@commander-js/extra-typings';
import { captured } from '../fixtures/cli/context';
import { codeSpans } from '../fixtures/markdown';
import { paygate } from '../../src/cli/program';

const root = join(__dirname, '..', '..');
const DOCS = ['README.md', ...readdirSync(join(root, 'docs')).map((f) => `docs/${f}`)].filter((f) => f.endsWith('.md'));

/** Stops a parse that got as far as running the command: everything before it (the checks) passed. */
class Parsed extends Error {}

/** A placeholder's stand-in value: an address for an address, a number for a count, else a word. */
function standIn(token: string): string {
  if (/^(URL|ADDRESS)$/.test(token)) return 'http://127.0.0.1:3000/hook';
  if (/^(N|PORT|BYTES)$/.test(token)) return '1';
  return /^[A-Z][A-Z_]*$/.test(token) ? 'x' : token;
}

/** The words of a span as a shell splits them (quotes kept together), a table's escaped \| unescaped. */
function words(span: string): string[] {
  return [...span.replace(/\\\|/g, '|').matchAll(/"([^"]*)"|'([^']*)'|(\S+)/g)].map((m) => m[1] ?? m[2] ?? m[3]);
}

/** The command a span's words name (`callbacks send`), and the words after it. */
function commandOf(program: CommandUnknownOpts, args: string[]): { cmd: CommandUnknownOpts; path: string[]; rest: string[] } {
  let cmd = program;
  const path: string[] = [];
  let i = 0;
  for (; i < args.length; i++) {
    const sub = cmd.commands.find((c) => c.name() === args[i]);
    if (!sub) break;
    cmd = sub;
    path.push(args[i]);
  }
  return { cmd, path, rest: args.slice(i) };
}

async function problemOf(span: string): Promise<string | undefined> {
  const args = words(span).slice(1);
  // A message that names the command (`paygate lint: …`, `paygate <command>: <problem>`) is not a command line.
  if (args.length === 0 || /:$/.test(args[0]) || /^<.*>:?$/.test(args[0])) return undefined;
  const { ctx } = captured();
  const program = (await paygate(ctx)) as unknown as CommandUnknownOpts;
  const { cmd, path, rest } = commandOf(program, args);
  if (path.length === 0 && rest[0] !== undefined && !rest[0].startsWith('-') && !/^[<[]/.test(rest[0]) && rest[0] !== 'help')
    return `no command ${rest[0]}`;
  const known = new Set(cmd.options.flatMap((o) => [o.long, o.short]).filter((f): f is string => f !== undefined));
  for (const f of ['--help', '-h', ...(path.length === 0 ? ['--version', '-v'] : [])]) known.add(f);
  for (const w of rest) {
    const option = /^\[?(--?[a-z][\w-]*)/.exec(w)?.[1];
    if (option && !known.has(option.split('=')[0])) return `paygate ${path.join(' ')} has no option ${option}`;
  }
  // Only the command's name (`paygate submit`), or a line with elisions, alternatives or optional parts: a
  // synopsis, not a line to run; its command and options are checked above.
  if (rest.length === 0 || rest.some((w) => /…|\.\.\.|^\||[[\]<>]/.test(w))) return undefined;
  program.hook('preAction', () => {
    throw new Parsed();
  });
  try {
    await program.parseAsync([...path, ...rest.map(standIn)], { from: 'user' });
    return 'ran to its end without reaching its action';
  } catch (err) {
    if (err instanceof Parsed) return undefined;
    const code = (err as { code?: string }).code;
    if (code === 'commander.helpDisplayed' || code === 'commander.version' || code === 'commander.help') return undefined;
    const message = err instanceof Error ? err.message : String(err);
    // Prose may name a command and its options and leave the file out (`paygate fix --strip-cvv`): the
    // arguments are checked last (the parser's missingArgument), so a missing one means every option, the
    // required ones too, passed.
    if (/^no \S+ given$/.test(message)) return undefined;
    // … or name an option without its value, last (`paygate split --max-bytes`).
    if (/^option '.*' argument missing$/.test(message) && /^--?[a-z][\w-]*$/.test(rest[rest.length - 1])) return undefined;
    return message;
  }
}

describe('paygate code spans in the docs', () => {
  it('a span that misses a required option is found (the check can fail)', async () => {
    assert.match((await problemOf('paygate report')) ?? 'passes', /passes/);
    assert.match((await problemOf('paygate lint --nope FILE')) ?? 'passes', /no option --nope/);
    assert.match((await problemOf('paygate frobnicate FILE')) ?? 'passes', /no command frobnicate/);
    assert.match((await problemOf('paygate sign --method POST --url URL')) ?? 'passes', /--consumer-key/);
    assert.match((await problemOf('paygate lint --format xml FILE')) ?? 'passes', /--format must be/);
    assert.match((await problemOf('paygate lint --format json FILE')) ?? 'passes', /passes/);
  });

  for (const file of DOCS) {
    it(`${file}: every paygate span names a command and its options, and a whole command line parses`, async () => {
      const bad: string[] = [];
      for (const { line, code } of codeSpans(readFileSync(join(root, file), 'utf8'))) {
        if (!/^paygate(\s|$)/.test(code)) continue;
        const problem = await problemOf(code);
        if (problem !== undefined) bad.push(`${file}:${line}: \`${code}\`: ${problem}`);
      }
      assert.deepEqual(bad, []);
    });
  }
});
