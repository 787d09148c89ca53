import * as vscode from 'vscode';
import { log, showErrorWithLog } from '../log';
import type { ReadOnlyDocuments } from '../readOnlyDocs';
import { advanceMessage, parseDays, paymentsText } from './clockText';
import type { LocalGatewayManager } from './localGateway';
import { ask, showInfo, shown } from '../say';
import { errorMessage } from '../../core/errorMessage';
import { said, typed } from '../../core/output';

// PayGate: Advance Local Gateway Clock…: moves the local gateway's simulated clock so a person sees the
// schedules of a submitted batch charge, without a terminal or curl. The same local gateway the
// `local` environment uses: this host's own, or the `paygate gateway` process it found.

export interface AdvanceClockOptions {
  /** Days to advance without asking (tests, automation). */
  days?: number;
  /** false: no message (tests); the result says everything. */
  show?: boolean;
  /** Open the payments document at once, as the message's "Show payments" action does. */
  openPayments?: boolean;
}

export type AdvanceClockResult =
  | {
      status: 'advanced';
      from: string;
      today: string;
      charges: number;
      approved: number;
      declined: number;
      stopped: number;
      message: string;
      paymentsText?: string;
    }
  | { status: 'cancelled' }
  | { status: 'refused'; message: string }
  | { status: 'failed'; message: string };

export interface AdvanceClockDeps {
  local: LocalGatewayManager;
  docs: ReadOnlyDocuments;
}

const SHOW_PAYMENTS = 'Show payments';

function optionsOf(arg: unknown): AdvanceClockOptions {
  if (typeof arg === 'number') return { days: arg };
  return arg && typeof arg === 'object' && !(arg instanceof vscode.Uri) ? (arg as AdvanceClockOptions) : {};
}

export async function advanceLocalGatewayClockCommand(deps: AdvanceClockDeps, arg?: unknown): Promise<AdvanceClockResult> {
  const options = optionsOf(arg);
  let days: number;
  if (options.days !== undefined) {
    const parsed = parseDays(String(options.days));
    if (!parsed.ok) return { status: 'refused', message: parsed.message };
    days = parsed.days;
  } else {
    const text = await ask({
      title: said`PayGate: Advance Local Gateway Clock`,
      prompt: said`Days to move the local gateway's simulated clock forward; the schedules due on the way are charged.`,
      value: typed.count(35),
      validateInput: (t) => {
        const p = parseDays(t);
        return p.ok ? undefined : said`${typed.text(p.message)}`;
      },
    });
    if (text === undefined) return { status: 'cancelled' };
    const parsed = parseDays(text);
    if (!parsed.ok) return { status: 'refused', message: parsed.message };
    days = parsed.days;
  }

  let gateway;
  try {
    gateway = await deps.local.ensureStarted();
  } catch (err) {
    const message = `The local gateway could not start: ${errorMessage(err)}`;
    log().error(said`${typed.text(message)}`);
    if (options.show !== false) void showErrorWithLog(said`PayGate: ${typed.text(message)}`);
    return { status: 'failed', message };
  }
  let summary;
  try {
    summary = await gateway.advanceDays(days);
  } catch (err) {
    const message = `The local gateway did not advance its clock: ${errorMessage(err)}`;
    log().error(said`${typed.text(message)}`);
    if (options.show !== false) void showErrorWithLog(said`PayGate: ${typed.text(message)}`);
    return { status: 'failed', message };
  }
  const message = advanceMessage(days, summary);
  log().info(said`Local gateway: ${message}`);
  const approved = summary.charges.filter((c) => c.status === 'approved').length;
  if (options.show !== false) {
    void showInfo(said`PayGate: ${message}.`, SHOW_PAYMENTS).then(async (choice) => {
      if (choice !== SHOW_PAYMENTS) return;
      try {
        await showPayments(deps, summary.today);
      } catch (err) {
        void showErrorWithLog(said`PayGate: the local gateway's payments could not be listed: ${typed.text(errorMessage(err))}`);
      }
    });
  }
  const listed = options.openPayments ? await showPayments(deps, summary.today) : undefined;
  return {
    ...(listed !== undefined ? { paymentsText: listed } : {}),
    status: 'advanced',
    from: summary.from,
    today: summary.today,
    charges: summary.charges.length,
    approved,
    declined: summary.charges.length - approved,
    stopped: summary.stopped.length,
    message: shown(message),
  };
}

/** The payments in a read-only document; its text, for the command's caller. */
async function showPayments(deps: AdvanceClockDeps, today: string): Promise<string> {
  const gateway = await deps.local.ensureStarted();
  const text = paymentsText(today, await gateway.payments());
  await deps.docs.show(`Local gateway payments ${today.replace(/\./g, '-')}.txt`, text);
  return text;
}
