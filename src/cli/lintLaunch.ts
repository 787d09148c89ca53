import type { CliContext } from './context';
import { lintCommand } from './commands/lint';
import { HELP_FLAGS, paygateProgram, runCommand } from './parser';
import { version } from './version';
import { ourWords, saidText } from '../core/output/said';

// `paygate lint FILE…`, what users and CI run most and on the largest files, is the whole job of the
// small bundle dist/cli.js: this file, the lint command and the argument parser; so is the version alone.
// Every other command and help load the rest of the program (launch.ts, its own bundle
// dist/cli-program.js; see esbuild.js), so lint starts without compiling their code (about a fifth of a
// second's tenth).

/** Is this run `paygate lint …` without help (which lists every command, so needs the whole program)? */
export const runsLintOnly = (args: string[]): boolean => args[0] === 'lint' && !args.some((a) => HELP_FLAGS.has(a));

/** Is this run `paygate --version` (or `-v`) and nothing else, which commander answers with the version alone? */
export const runsVersionOnly = (args: string[]): boolean => args.length === 1 && (args[0] === '--version' || args[0] === '-v');

/** Runs `paygate lint …` as launch() would: the program with the lint command alone. */
export function launchLint(args: string[], ctx: CliContext): Promise<number> {
  return runCommand((c) => paygateProgram(version, c, [lintCommand(c)]), args, ctx);
}

/**
 * `paygate --version` alone, as the program answers it (the version, exit 0), without loading the program. Its
 * context has no floor under it: the version (package.json's, our words) is checked as a Said's words are.
 */
export function launchVersion(ctx: CliContext): Promise<number> {
  ctx.stdout(saidText(ourWords(`${version}\n`)));
  return Promise.resolve(0);
}
