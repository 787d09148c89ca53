import { hostname } from 'node:os';
import { findEnvironment } from '../../core/gateway/settings';
import { LEDGER_URL_ENV } from '../../core/ledger/team/url';
import { approveBatch, approvedLines } from '../../core/submit/approveBatch';
import { loadCliConfig } from '../config';
import type { CliContext } from '../context';
import { readInput } from '../io';
import { teamLedgerFor, teamLedgerUrl } from '../ledger';
import { said } from '../../core/output';
import { inputError, saidOut } from '../output';
import { exits, paygateCommand } from '../parser';

// `paygate approve FILE [--env NAME]`: the checker's half of maker-checker. Records, in the team ledger,
// that this member (the database role) approves this exact content for this environment; a submit to an
// environment with `"approvals": N` needs N such approvals by members other than the submitter.

export interface ApproveOptions {
  env?: string;
  ledger?: string;
  config?: string;
}

export function approveCommand(ctx: CliContext) {
  return paygateCommand(
    {
      name: 'approve',
      summary: "approve a batch for an environment that needs a teammate's approval",
      description:
        'Records in the team ledger that you (your database role) approve the exact content of FILE for the environment: ' +
        'a submit to an environment with "approvals": N in paygate.config.json needs N approvals by members other than ' +
        'the one who submits. Any edit to the file changes its content and needs new approvals. A file with lint errors ' +
        'cannot be approved.',
      exits: [
        [0, 'approved (or approved before by you)'],
        [2, 'usage error, unreadable FILE, lint errors, no team ledger, or the team ledger could not be used'],
      ],
    },
    ctx,
  )
    .argument('<FILE>', 'the recurring-payments file as it will be sent')
    .option('--env <NAME>', 'environment from paygate.config.json (default: its "environment")')
    .option('--ledger <URL>', `the team ledger (default $${LEDGER_URL_ENV})`)
    .option('--config <FILE>', 'configuration file (as paygate submit chooses it)')
    .action(exits((file, o) => approve(file, o, ctx)));
}

export async function approve(file: string, o: ApproveOptions, ctx: CliContext): Promise<number> {
  const command = 'paygate approve';
  const url = teamLedgerUrl(ctx, o.ledger);
  if (url === undefined) return inputError(ctx, command, `approvals live in the team ledger: pass --ledger URL or set $${LEDGER_URL_ENV}`);
  const config = loadCliConfig(ctx.cwd, o.config, ctx.env);
  if (!config.ok) return inputError(ctx, command, config.message);
  const name = o.env ?? config.value.config.environment;
  const environment = findEnvironment(config.value.config.environments, name);
  if (!environment) return inputError(ctx, command, `unknown environment "${name}"`);
  const input = await readInput(file, ctx);
  if (!input.ok) return inputError(ctx, command, input.message);
  const store = teamLedgerFor(ctx, command, url);
  if (typeof store === 'number') return store;
  try {
    const done = await approveBatch(store, environment, input.text, input.name, hostname());
    if (done.status === 'refused') return inputError(ctx, command, done.message);
    const [what, all] = approvedLines(done, input.name, environment.name);
    ctx.stdout(saidOut(said`${what}\n${all}\n`));
    return 0;
  } catch (err) {
    return inputError(ctx, command, (err as Error).message);
  } finally {
    await store.close();
  }
}
