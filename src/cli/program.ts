import type { Command } from '@commander-js/extra-typings';
import type { CliContext } from './context';
import { paygateProgram, runCommand } from './parser';
import { COMMANDS, type CommandBuilder } from './registry';
import { version } from './version';

// `paygate` whole: every command of the registry (registry.ts), in its order, as `paygate --help`,
// `paygate help NAME`, docs/cli.md and the tests see it.

/** Loads every command's module (the registry's order). */
export function loadCommandBuilders(): Promise<CommandBuilder[]> {
  return Promise.all(COMMANDS.map((entry) => entry.load()));
}

/** The whole program on a context. */
export async function paygate(ctx: CliContext): Promise<Command> {
  const builders = await loadCommandBuilders();
  return paygateProgram(
    version,
    ctx,
    builders.map((build) => build(ctx)),
  );
}

/** Runs `paygate ARGS…` (without the program name) and returns the exit code. */
export function runPaygate(args: string[], ctx: CliContext): Promise<number> {
  return runCommand(paygate, args, ctx);
}
