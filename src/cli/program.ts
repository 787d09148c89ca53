import type { CliContext } from './context';
import { paygateProgram, runCommand } from './parser';
import { version } from './version';
import { lintCommand } from './commands/lint';
import { fixCommand } from './commands/fix';
import { scheduleCommand } from './commands/schedule';
import { forecastCommand } from './commands/forecast';
import { signCommand } from './commands/sign';
import { submitCommand } from './commands/submit';
import { reportCommand } from './commands/report';
import { gatewayCommand } from './commands/gateway';
import { demoCommand } from './commands/demo';
import { lspCommand } from './commands/lsp';
import { historyCommand } from './commands/history';
import { trustCommand } from './commands/trust';
import { reconcileCommand } from './commands/reconcile';
import { queryCommand } from './commands/query';
import { listenCommand } from './commands/listen';
import { callbacksCommand } from './commands/callbacks';

// `paygate`: the commands in the order its help lists them. A new command is one file in commands/ that
// exports a builder like these, and one entry here.
export const COMMANDS = [
  lintCommand,
  fixCommand,
  scheduleCommand,
  forecastCommand,
  signCommand,
  submitCommand,
  historyCommand,
  reportCommand,
  queryCommand,
  reconcileCommand,
  trustCommand,
  gatewayCommand,
  listenCommand,
  callbacksCommand,
  demoCommand,
  lspCommand,
];

export function paygate(ctx: CliContext) {
  return paygateProgram(
    version,
    ctx,
    COMMANDS.map((build) => build(ctx)),
  );
}

/** Runs `paygate ARGS…` (without the program name) and returns the exit code. */
export function runPaygate(args: string[], ctx: CliContext): Promise<number> {
  return runCommand(paygate, args, ctx);
}
