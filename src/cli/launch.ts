import type { CliContext } from './context';
import { HELP_FLAGS, paygateProgram, runCommand } from './parser';
import { runPaygate } from './program';
import { commandEntry } from './registry';
import { version } from './version';

// The `paygate` process loads only the command it runs: `paygate lint` starts without the other commands'
// modules (the local gateway and node's HTTP stack, zod's schemas, the ledger, OAuth), which took a fifth
// of its start. Help, --version, `paygate help` and an unknown or missing command load every command
// (program.ts). Both read the one list of commands, registry.ts.

/** Runs `paygate ARGS…` as runPaygate does, loading only the named command's module when one is named. */
export async function launch(args: string[], ctx: CliContext): Promise<number> {
  const entry = commandEntry(args[0]);
  if (!entry || args.some((a) => HELP_FLAGS.has(a))) return runPaygate(args, ctx);
  const build = await entry.load();
  return runCommand((c) => paygateProgram(version, c, [build(c)]), args, ctx);
}
