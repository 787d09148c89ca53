import type { CommandUnknownOpts } from '@commander-js/extra-typings';
import type { CliContext } from './context';
import { HELP_FLAGS, paygateProgram, runCommand } from './parser';
import { version } from './version';

// The `paygate` process loads only the command it runs: `paygate lint` starts without the other commands'
// modules (the local gateway and node's HTTP stack, zod's schemas, the ledger, OAuth), which took a fifth
// of its start. Help, --version, `paygate help` and an unknown or missing command load the whole program
// (program.ts, which the tests and docs/cli.md read too); a unit test keeps this list in step with it.

type Builder = (ctx: CliContext) => CommandUnknownOpts;

export const COMMAND_MODULES: Record<string, () => Promise<Builder>> = {
  lint: async () => (await import('./commands/lint.js')).lintCommand,
  fix: async () => (await import('./commands/fix.js')).fixCommand,
  schedule: async () => (await import('./commands/schedule.js')).scheduleCommand,
  forecast: async () => (await import('./commands/forecast.js')).forecastCommand,
  sign: async () => (await import('./commands/sign.js')).signCommand,
  submit: async () => (await import('./commands/submit.js')).submitCommand,
  history: async () => (await import('./commands/history.js')).historyCommand,
  report: async () => (await import('./commands/report.js')).reportCommand,
  query: async () => (await import('./commands/query.js')).queryCommand,
  reconcile: async () => (await import('./commands/reconcile.js')).reconcileCommand,
  trust: async () => (await import('./commands/trust.js')).trustCommand,
  gateway: async () => (await import('./commands/gateway.js')).gatewayCommand,
  listen: async () => (await import('./commands/listen.js')).listenCommand,
  callbacks: async () => (await import('./commands/callbacks.js')).callbacksCommand,
  demo: async () => (await import('./commands/demo.js')).demoCommand,
  lsp: async () => (await import('./commands/lsp.js')).lspCommand,
};

/** Runs `paygate ARGS…` as runPaygate does, loading only the named command's modules when one is named. */
export async function launch(args: string[], ctx: CliContext): Promise<number> {
  const load = Object.hasOwn(COMMAND_MODULES, args[0]) ? COMMAND_MODULES[args[0]] : undefined;
  if (!load || args.some((a) => HELP_FLAGS.has(a))) return (await import('./program.js')).runPaygate(args, ctx);
  const build = await load();
  return runCommand((c) => paygateProgram(version, c, [build(c)]), args, ctx);
}
