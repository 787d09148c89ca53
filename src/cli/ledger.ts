import { hostname, homedir } from 'node:os';
import { damageText as coreDamageText, Ledger, ledgerDirectory, type Damage, type SubmissionRecord } from '../core/ledger';
import type { CliContext } from './context';
import { field } from './output';

// The CLI's side of the shared submission ledger: where it is (--state DIR, else $PAYGATE_DATA_DIR, else
// the user's data directory, the same one the editor uses), and the words for what it says.

export function openLedger(ctx: CliContext, stateOption: string | undefined): Ledger {
  return new Ledger(ledgerDirectory(stateOption, { base: ctx.cwd, env: ctx.env, home: ctx.env.HOME || homedir() }));
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

export function damageText(d: Damage, ledger: Ledger): string {
  return coreDamageText(d, ledger.filePath);
}

/** What the earlier send was, in one line: when, from where, and what came of it. */
export function describeEarlier(r: SubmissionRecord): string {
  const from = r.face === 'editor' ? 'the editor' : 'the CLI';
  return `${field(r.time)} from ${from} (${field(r.file)}): ${field(earlierState(r))}`;
}

/** Still sending, interrupted, or the outcome with its kind and ids. */
function earlierState(r: SubmissionRecord): string {
  if (r.state === 'sending') {
    return sendingNow(r)
      ? `still being sent by process ${r.pid}`
      : 'interrupted while sending (no answer recorded; the payments may exist)';
  }
  return `${r.outcome ?? 'no outcome'}${r.kind ? ` (${r.kind})` : ''}${r.recurringPaymentIds.length ? `, recurring-payment-id ${r.recurringPaymentIds.join(', ')}` : ''}`;
}
