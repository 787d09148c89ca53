import { maskText, said, typed, type Said } from '../../core/output';
import { MAX_ADVANCE_DAYS, type AdvanceSummary, type StoredPayment } from '../../local-gateway';

// The words of "PayGate: Advance Local Gateway Clock…": the days a person types, what the advance charged,
// and the local gateway's payments as a read-only document. Pure, so the unit tests read them as the user does.

export type DaysInput = { ok: true; days: number } | { ok: false; message: string };

/** A whole number of days from 1 to MAX_ADVANCE_DAYS (ten years), as the local gateway accepts. */
export function parseDays(text: string): DaysInput {
  const t = text.trim();
  if (!/^\d+$/.test(t)) return { ok: false, message: `Type a whole number of days from 1 to ${MAX_ADVANCE_DAYS}.` };
  const days = Number(t);
  if (days < 1 || days > MAX_ADVANCE_DAYS) return { ok: false, message: `The clock moves from 1 to ${MAX_ADVANCE_DAYS} days at a time.` };
  return { ok: true, days };
}

const count = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;
/** A count and its noun, as a `Said`: the noun is our word. */
const counted = (n: number, one: string, many = `${one}s`): Said => ({ said: [typed.count(n), ` ${n === 1 ? one : many}`] });

/**
 * "Advanced 35 days to 26.02.2027: 7 charges (6 approved, 1 declined)", plus payments that stopped: a `Said`, so
 * the date beside the counts is checked as a date (issue 38), wherever it is shown.
 */
export function advanceMessage(days: number, s: Pick<AdvanceSummary, 'today' | 'charges' | 'stopped'>): Said {
  const approved = s.charges.filter((c) => c.status === 'approved').length;
  const declined = s.charges.length - approved;
  const charged =
    s.charges.length === 0
      ? said`no charges`
      : said`${counted(s.charges.length, 'charge')} (${typed.count(approved)} approved, ${typed.count(declined)} declined)`;
  const stopped = s.stopped.length > 0 ? said`; ${counted(s.stopped.length, 'payment')} stopped` : said``;
  return said`Advanced ${counted(days, 'day')} to ${typed.date(s.today)}: ${charged}${stopped}`;
}

function table(rows: string[][]): string[] {
  const widths = rows[0].map((_, i) => rows.reduce((w, r) => Math.max(w, r[i].length), 0));
  return rows.map((r) =>
    r
      .map((cell, i) => (i === r.length - 1 ? cell : cell.padEnd(widths[i])))
      .join('  ')
      .trimEnd(),
  );
}

/** The local gateway's recurring payments and their charges; card numbers appear masked, as the gateway keeps them. */
export function paymentsText(today: string, payments: readonly StoredPayment[]): string {
  const lines = [`Local gateway payments, simulated date ${today}`, ''];
  if (payments.length === 0) return `${lines.join('\n')}No recurring payments yet: submit a batch to the local environment first.\n`;
  for (const p of payments) {
    const approved = p.charges.filter((c) => c.status === 'approved').length;
    const status = p.status === 'stop' ? `stop${p.stopReason ? ` (${p.stopReason})` : ''}` : p.status;
    // Each value masked before it is laid out, never the composed line (where an id beside a date could make a card-length run).
    const m = maskText;
    lines.push(
      `Payment ${m(p['recurring-payment-id'])}  client-orderid ${m(p['client-orderid'])}  ${m(p.rp_card_type)}  card ${m(p.maskedCard)}  ${m(status)}`,
      `  ${p.order_desc ? `${m(p.order_desc)}; ` : ''}created ${p.createdDate}; ${count(p.charges.length, 'charge')} (${approved} approved, ${p.charges.length - approved} declined)`,
    );
    if (p.charges.length > 0) {
      const rows = [
        ['  #', 'date', 'time', 'amount', 'status', 'transaction'],
        ...p.charges.map((c) => [`  ${c.index}`, c.date, c.time, `${c.amount} ${p.currency}`, c.status, c.transactionId]),
      ];
      for (const line of table(rows)) lines.push(line);
    }
    lines.push('');
  }
  return `${lines.join('\n')}`;
}
