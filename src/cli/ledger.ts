import { hostname, homedir } from 'node:os';
import { resolve } from 'node:path';
import {
  damageText as coreDamageText,
  Ledger,
  ledgerDirectory,
  sentBy,
  type Damage,
  type LedgerStore,
  type SubmissionRecord,
} from '../core/ledger';
import { LEDGER_URL_ENV, parseLedgerUrl } from '../core/ledger/team/url';
import { KEY_FILE_ENV, readTeamKey } from '../core/ledger/team/key';
import { TeamLedger } from '../core/ledger/team/teamLedger';
import { ourWords, said, typed, type Said } from '../core/output';
import type { CliContext } from './context';
import { inputError } from './output';

// The CLI's side of the shared submission ledger: where it is (--state DIR, else $PAYGATE_DATA_DIR, else
// the user's data directory, the same one the editor uses), and the words for what it says.

export function openFileLedger(ctx: CliContext, stateOption: string | undefined): Ledger {
  return new Ledger(ledgerDirectory(stateOption, { base: ctx.cwd, env: ctx.env, home: ctx.env.HOME || homedir() }));
}

/** The team ledger's URL: --ledger URL, else $PAYGATE_LEDGER_URL; undefined for the file ledger. */
export function teamLedgerUrl(ctx: Pick<CliContext, 'env'>, ledgerOption: string | undefined): string | undefined {
  return ledgerOption ?? (ctx.env[LEDGER_URL_ENV] || undefined);
}

/** A team ledger URL that is not one: the command's usage error, before anything is read or sent. */
export class LedgerUrlError extends Error {}

/** The team ledger at `url`, with the team key of $PAYGATE_LEDGER_KEY_FILE (its problem kept for when a key is needed). */
export function openTeamLedger(ctx: CliContext, url: string): TeamLedger {
  const parsed = parseLedgerUrl(url);
  if (!parsed.ok) throw new LedgerUrlError(parsed.message);
  const keyFile = ctx.env[KEY_FILE_ENV];
  const key = keyFile ? readTeamKey(resolve(ctx.cwd, keyFile)) : undefined;
  return new TeamLedger({
    url: parsed.url,
    env: ctx.env,
    home: ctx.env.HOME || homedir(),
    ...(key?.ok ? { key: key.key } : {}),
    keyProblem: key && !key.ok ? key.message : `no team key: set ${KEY_FILE_ENV} to the file 'paygate ledger init --key-out FILE' wrote`,
  });
}

/** The team ledger at `url` for a command that needs it, or the command's usage error (exit 2) when `url` is not one. */
export function teamLedgerFor(ctx: CliContext, command: string, url: string): TeamLedger | number {
  try {
    return openTeamLedger(ctx, url);
  } catch (err) {
    if (err instanceof LedgerUrlError) return inputError(ctx, command, err.message);
    throw err;
  }
}

/**
 * One store at a time: the team ledger when --ledger URL or $PAYGATE_LEDGER_URL names one (never the file
 * ledger instead, whatever happens to the team ledger), else the file ledger of --state DIR.
 */
export function openLedger(ctx: CliContext, stateOption: string | undefined, ledgerOption?: string): LedgerStore {
  const url = teamLedgerUrl(ctx, ledgerOption);
  return url === undefined ? openFileLedger(ctx, stateOption) : openTeamLedger(ctx, url);
}

/** Whether a record's process is still running on this machine (a "sending" record may be in flight). */
export function sendingNow(r: SubmissionRecord): boolean {
  if (r.state !== 'sending' || r.host !== hostname()) return false;
  try {
    process.kill(r.pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export function damageText(d: Damage, ledger: LedgerStore): Said {
  return coreDamageText(d, ledger.kind === 'file' ? ledger.filePath : ledger.place);
}

/** What the earlier send was, in one line: when, from where, and what came of it. */
export function describeEarlier(r: SubmissionRecord): Said {
  const who = r.role === undefined ? said` from ${ourWords(r.face === 'editor' ? 'the editor' : 'the CLI')}` : sentBy(r);
  return said`${typed.date(r.time)}${who} (${typed.text(r.file)}): ${typed.text(earlierState(r))}`;
}

/** Still sending, interrupted, or the outcome with its kind and ids. */
function earlierState(r: SubmissionRecord): string {
  if (r.state === 'sending') {
    // Another member's machine: whether it is still on its way cannot be seen from here.
    if (r.role !== undefined && r.host !== hostname())
      return 'no answer recorded: still being sent, or interrupted (the payments may exist)';
    return sendingNow(r)
      ? `still being sent by process ${r.pid}`
      : 'interrupted while sending (no answer recorded; the payments may exist)';
  }
  return `${r.outcome ?? 'no outcome'}${r.kind ? ` (${r.kind})` : ''}${r.recurringPaymentIds.length ? `, recurring-payment-id ${r.recurringPaymentIds.join(', ')}` : ''}`;
}
