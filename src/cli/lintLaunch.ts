import type { CliContext } from './context';
import { lintCommand } from './commands/lint';
import { HELP_FLAGS, paygateProgram, runCommand } from './parser';
import { version } from './version';

// `paygate lint FILE…`, what users and CI run most and on the largest files, is the whole job of the
// small bundle dist/cli.js: this file, the lint command and the argument parser. Every other command,
// help and the version load the rest of the program (launch.ts, its own bundle dist/cli-program.js; see
// esbuild.js), so lint starts without compiling their code (about a fifth of a second's tenth).

/** Is this run `paygate lint …` without help (which lists every command, so needs the whole program)? */
export const runsLintOnly = (args: string[]): boolean => args[0] === 'lint' && !args.some((a) => HELP_FLAGS.has(a));

/** Runs `paygate lint …` as launch() would: the program with the lint command alone. */
export function launchLint(args: string[], ctx: CliContext): Promise<number> {
  return runCommand((c) => paygateProgram(version, c, [lintCommand(c)]), args, ctx);
}
