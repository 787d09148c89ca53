import { parseAmount } from '../amounts';
import { said, typed, type Said } from '../output';
import { formatAmount, type Charge, type ChargeAmount } from '../schedule/schedule';
import { amountInRange, sameAmount } from './amounts';
import { CHARGE_WORDS, type KindWords } from '../schedule/describe';
import type { ReconcileStatus, ReportCharge } from './types';

// One batch row's status from its charges due in the window and the report lines matched to it. The
// lines are paired with the due charges in date order (the i-th attempt is the i-th charge, as the
// gateway's repeats counter counts declined charges too); the most serious finding wins. A DST row's
// charges are payouts (money paid out to the receiver's card), and its reason says so. A reason is a
// message, a `Said` (../output/said.ts): our words and each value from the batch or the report with its type
// (a line number, a count, an amount; a currency or an unreadable amount as free text), checked alone where
// it is shown (the CLI, the editor's reconciliation page and its diagnostics), never the composed line, where
// a line number beside an amount could make a card-length run (issue 38).

function amountFits(charge: Charge, amount: string): boolean {
  const a = charge.amount;
  if (a.kind === 'fixed') return sameAmount(a.value, amount);
  if (a.kind === 'range') return amountInRange(amount, a.from, a.to);
  return false; // never reached: a row without an amount is amount-unreadable first
}

/** The scheduled amount read exactly by the one amount rule (core/amounts.ts), or false. */
function readable(a: ChargeAmount): boolean {
  if (a.kind === 'fixed') return parseAmount(a.value) !== undefined;
  if (a.kind === 'range') return parseAmount(a.from) !== undefined && parseAmount(a.to) !== undefined;
  return false;
}

/**
 * Why an amount of the row cannot be read exactly (a batch amount that is no decimal, none at all, a
 * report amount such as `1,000` or `0x10`), or undefined when every one can.
 */
function unreadableAmount(due: readonly Charge[], lines: readonly ReportCharge[]): Said | undefined {
  const charge = due.find((c) => !readable(c.amount));
  if (charge) {
    const shown = formatAmount(charge.amount);
    return charge.amount.kind === 'none'
      ? said`the batch row has no amount to compare with`
      : said`the batch amount ${typed.text(JSON.stringify(shown))} is not an amount (digits, optionally a dot and digits)`;
  }
  const line = lines.find((l) => parseAmount(l.amount) === undefined);
  if (line)
    return said`report line ${typed.count(line.line)} has the amount ${typed.text(JSON.stringify(line.amount))}, which is not an amount (digits, optionally a dot and digits)`;
  return undefined;
}

export function rowStatus(
  due: readonly Charge[],
  lines: readonly ReportCharge[],
  currency: string,
  words: KindWords = CHARGE_WORDS,
): { status: ReconcileStatus; reason: Said } {
  const paid = words === CHARGE_WORDS ? said`charged` : said`paid out`;
  const one: Said = { said: [words.one] };
  if (lines.length > due.length)
    return {
      status: 'extra',
      reason: said`${typed.count(lines.length)} ${one}(s) in the report, ${typed.count(due.length)} due: a possible double ${one}`,
    };
  const unreadable = unreadableAmount(due, lines);
  if (unreadable !== undefined) return { status: 'amount-unreadable', reason: unreadable };
  for (let i = 0; i < lines.length; i++) {
    if (!amountFits(due[i], lines[i].amount))
      return {
        status: 'amount-mismatch',
        reason: said`report line ${typed.count(lines[i].line)} ${paid} ${typed.amount(lines[i].amount)}, the schedule says ${typed.amount(formatAmount(due[i].amount))}`,
      };
  }
  const wrong = currency === '' ? undefined : lines.find((l) => l.currency !== '' && l.currency.toUpperCase() !== currency.toUpperCase());
  if (wrong)
    return {
      status: 'currency-mismatch',
      reason: said`report line ${typed.count(wrong.line)} is in ${typed.text(wrong.currency)}, the batch row in ${typed.text(currency)}`,
    };
  const declined = lines.find((l) => !l.approved);
  if (declined) return { status: 'declined', reason: said`report line ${typed.count(declined.line)} was not approved` };
  if (lines.length < due.length)
    return { status: 'missing', reason: said`${typed.count(due.length)} ${one}(s) due, ${typed.count(lines.length)} in the report` };
  if (due.length === 0) return { status: 'not-due', reason: said`nothing due in the window` };
  return { status: 'ok', reason: said`${typed.count(due.length)} ${one}(s) due and ${paid}` };
}
