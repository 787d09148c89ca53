import { Command, CommanderError, Option, type CommandUnknownOpts } from '@commander-js/extra-typings';
import type { CliContext } from './context';

export { Option };
import { EXIT, saidOut, usageError } from './output';
import { throughOutputBoundary } from './boundary';
import { ourWords } from '../core/output';

// The one argument parser of `paygate`: every command is a commander command made by paygateCommand(),
// so options, --help, usage lines and usage errors are generated alike from the definitions. Commander
// never exits the process or writes to it: output goes to the injected context and runCommand() turns
// every outcome (an action's exit code, help, version, a usage error) into an exit code.

/** What a command is, for its help and docs/cli.md; the options come from the command itself. */
export interface CommandInfo {
  name: string;
  /** One line for the `paygate --help` list. */
  summary: string;
  /** The usage line after `paygate <name>` when the generated one would mislead (`lsp --stdio`). */
  usage?: string;
  /** The paragraph under the usage line of `paygate <name> --help`. */
  description: string;
  /** Exit status and its meaning, in order. */
  exits: readonly (readonly [code: number, meaning: string])[];
  /** More text after the options (secrets, admin URLs…). */
  notes?: string;
}

/** A problem with the arguments; runCommand prints it in the one usage-error shape (exit 2). */
/** The flags that ask for help: a run with one lists every command, so it loads the whole program. */
export const HELP_FLAGS = new Set(['-h', '--help']);

export class UsageError extends Error {
  constructor(
    message: string,
    /** The command's full name when known where the problem was found (`paygate lint`). */
    readonly command?: string,
  ) {
    super(message);
  }
}

/** `paygate`, `paygate lint`: what a user types, for usage lines and messages. */
export function commandPath(cmd: CommandUnknownOpts): string {
  if (cmd.parent) return `${commandPath(cmd.parent)} ${cmd.name()}`;
  return cmd.name() === 'paygate' ? 'paygate' : `paygate ${cmd.name()}`;
}

const infos = new WeakMap<CommandUnknownOpts, CommandInfo>();
const results = new WeakMap<CommandUnknownOpts, number>();

export function commandInfo(cmd: CommandUnknownOpts): CommandInfo | undefined {
  return infos.get(cmd);
}

/** Commander with paygate's messages: each problem becomes a UsageError instead of an exit. */
class PaygateCommand extends Command {
  override error(message: string): never {
    throw new UsageError(message.replace(/^error: /, ''), commandPath(this));
  }

  // Commander's own messages for these name its internals ("Expected 1 argument but got 2"); ours name
  // the argument as the usage line does.
  missingArgument(name: string): never {
    this.error(`no ${name} given`);
  }

  // `paygate help nope` would print the program's help; it is an unknown command like `paygate nope`.
  _dispatchHelpCommand(name: string | undefined): unknown {
    if (name !== undefined && !this.commands.some((c) => c.name() === name)) this.error(`unknown command '${name}'`);
    return (Command.prototype as unknown as { _dispatchHelpCommand(n?: string): unknown })._dispatchHelpCommand.call(this, name);
  }

  _excessArguments(received: string[]): never {
    const declared = this.registeredArguments;
    if (declared.length === 0) this.error(`unexpected argument '${received[0]}'`);
    if (declared.length === 1) this.error(`give exactly one ${declared[0].name()} (got ${received.length})`);
    this.error(`too many arguments: expected ${declared.map((a) => a.name()).join(' ')}`);
  }
}

function argumentUsage(cmd: CommandUnknownOpts): string[] {
  return cmd.registeredArguments.map((a) => {
    const name = `${a.name()}${a.variadic ? '...' : ''}`;
    return a.required ? name : `[${name}]`;
  });
}

/** Help laid out the same for every command, at a fixed width so it reads the same in docs and tests. */
function configure(cmd: CommandUnknownOpts, ctx: Pick<CliContext, 'stdout' | 'stderr'>): void {
  cmd
    .exitOverride()
    .configureOutput({
      // Help and the version are our words (a command's summary, package.json's version): vouched for, after
      // the same scan a Said gives our words.
      writeOut: (t) => ctx.stdout(saidOut(ourWords(t))),
      // Commander's own words with the argument it quotes: free text, scanned whole with its lines kept.
      writeErr: (t) => ctx.stderr(saidOut(ourWords(t))),
      outputError: () => undefined,
      getOutHelpWidth: () => 100,
      getErrHelpWidth: () => 100,
      getOutHasColors: () => false,
      getErrHasColors: () => false,
    })
    .configureHelp({
      commandUsage: (c) => {
        const custom = commandInfo(c)?.usage;
        if (custom !== undefined) return `${commandPath(c)} ${custom}`;
        return [commandPath(c), ...(c.commands.length > 0 ? ['<command>'] : []), ...argumentUsage(c), '[options]'].join(' ');
      },
      subcommandTerm: (c) => [c.name(), ...argumentUsage(c)].join(' '),
      sortSubcommands: false,
    })
    .helpOption('-h, --help', 'show this help');
}

function exitStatusText(exits: CommandInfo['exits']): string {
  return `\nExit status:\n${exits.map(([code, meaning]) => `  ${code}  ${meaning}`).join('\n')}`;
}

/** A `paygate` command: name, summary, description and exit status set; add arguments and options. */
export function paygateCommand(info: CommandInfo, ctx: Pick<CliContext, 'stdout' | 'stderr'>): Command {
  const cmd = new PaygateCommand(info.name).summary(info.summary).description(info.description);
  configure(cmd, ctx);
  if (info.notes !== undefined) cmd.addHelpText('after', `\n${info.notes}`);
  cmd.addHelpText('after', exitStatusText(info.exits));
  infos.set(cmd, info);
  return cmd;
}

/** The program: `paygate <command>`, with --version and the commands' list. */
export function paygateProgram(version: string, ctx: Pick<CliContext, 'stdout' | 'stderr'>, commands: CommandUnknownOpts[]): Command {
  const program = new PaygateCommand('paygate').description(`PayGate Toolkit command line, version ${version}.`);
  configure(program, ctx);
  program.version(version, '-v, --version', 'print the version');
  program.helpCommand('help [command]', 'show the help of a command');
  program.addHelpText('after', `\nRun "paygate <command> --help" for a command's options.`);
  for (const c of commands) program.addCommand(c);
  return program;
}

/**
 * A command's action: the body returns the exit code, kept for runCommand. Arguments and options arrive
 * typed from the definitions.
 */
export function exits<A extends unknown[]>(body: (...args: A) => Promise<number>): (...args: A) => Promise<void> {
  return async (...args: A) => {
    // eslint-disable-next-line no-restricted-syntax -- bounded: commander passes one value per declared argument, plus options and the command
    const code = await body(...args);
    for (let c = args[args.length - 1] as CommandUnknownOpts | null; c; c = c.parent) results.set(c, code);
  };
}

/**
 * An option with a fixed set of values: listed in the help, checked with a message that names the option
 * and the values (`--format must be text or json, not "xml"`).
 */
export function choiceOption<const F extends string, const C extends readonly [string, ...string[]]>(
  flags: F,
  description: string,
  choices: C,
) {
  const option = new Option(flags, description).choices(choices);
  return option.argParser((value) => {
    if (!(choices as readonly string[]).includes(value))
      throw new UsageError(
        `${option.long} must be ${choices.length > 2 ? `${choices.slice(0, -1).join(', ')} or ${choices[choices.length - 1]}` : choices.join(' or ')}, not "${value}"`,
      );
    return value as C[number];
  });
}

/**
 * `--raw`, the opt-out of formula neutralisation, worded alike on every command that writes CSV
 * (csvText in ./output.ts). Card numbers stay masked and CVVs hidden with it: only `--out FILE` writes
 * an answer's raw bytes.
 */
export function rawOption(): Option {
  return new Option(
    '--raw',
    "csv: write cells a spreadsheet would run as a formula (starting =, +, -, @) as they are; by default they get a ' in front",
  );
}

/** Collects a repeatable option's values in order (`--param a=1 --param b=2`). */
export function collect(value: string, previous: string[] | undefined): string[] {
  return [...(previous ?? []), value];
}

/** Parses `args` (without the program name), runs the command and returns its exit code. */
export async function runCommand<C extends Pick<CliContext, 'stdout' | 'stderr'>>(
  build: (ctx: C) => CommandUnknownOpts | Promise<CommandUnknownOpts>,
  args: string[],
  given: C,
): Promise<number> {
  // Every byte a command writes passes the output boundary (./boundary.ts).
  const { ctx, flush } = throughOutputBoundary(given);
  try {
    return await parseAndRun(await build(ctx), args, ctx);
  } finally {
    flush();
  }
}

async function parseAndRun<C extends Pick<CliContext, 'stdout' | 'stderr'>>(
  cmd: CommandUnknownOpts,
  args: string[],
  ctx: C,
): Promise<number> {
  try {
    await cmd.parseAsync(args, { from: 'user' });
  } catch (err) {
    if (err instanceof UsageError) {
      // An option's value checker does not know its command: on the program it is the one named first.
      const where = err.command ?? commandPath(cmd.commands.find((c) => c.name() === args[0]) ?? cmd);
      return usageError(ctx, where, err.message);
    }
    if (err instanceof CommanderError) {
      // --help, --version and `paygate help` exit 0; the program's help shown for a missing command is a
      // usage error (exit 2, as every usage error).
      return err.exitCode === 0 ? EXIT.ok : EXIT.usage;
    }
    throw err;
  }
  return results.get(cmd) ?? EXIT.usage;
}
