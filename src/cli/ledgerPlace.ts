import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { LEDGER_FILE } from '../core/ledger/files';
import { ledgerDirectory } from '../core/ledger/location';
import { LEDGER_URL_ENV } from '../core/ledger/team/url';
import type { CliContext } from './context';

// Where the CLI's ledger is, without loading the ledger: `paygate lint` asks whether there is one before
// it loads anything else of it.

/** The ledger directory for --state DIR (else the default one the editor uses too). */
export function ledgerDirectoryFor(ctx: Pick<CliContext, 'cwd' | 'env'>, state: string | undefined): string {
  return ledgerDirectory(state, { base: ctx.cwd, env: ctx.env, home: ctx.env.HOME || homedir() });
}

/**
 * Whether there is a ledger to read: a team ledger named by $PAYGATE_LEDGER_URL (always read: lint says so
 * when it cannot be), or a file ledger written there (a send from either face).
 */
export function ledgerIsPresent(ctx: Pick<CliContext, 'cwd' | 'env'>, state: string | undefined): boolean {
  if (ctx.env[LEDGER_URL_ENV]) return true;
  return existsSync(join(ledgerDirectoryFor(ctx, state), LEDGER_FILE));
}
