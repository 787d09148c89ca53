import { parseAmount } from '../amounts';
import { maskText } from '../output';
import { formatAmount, type Charge, type ChargeAmount } from '../schedule/schedule';
import { amountInRange, sameAmount } from './amounts';
import { CHARGE_WORDS, type KindWords } from '../schedule/describe';
import type { ReconcileStatus, ReportCharge } from './types';

// One batch row's status from its charges due in the window and the report lines matched to it. The
// lines are paired with the due charges in date order (the i-th attempt is the i-th charge, as the
// gateway's repeats counter counts declined charges too); the most serious finding wins. A DST row's
// charges are payouts (money paid out to the receiver's card), and its reason says so. A reason is a
// message: each value from the batch or the report in it is masked as it goes in (maskText), never the
// composed line, where a date or a line number beside an amount could make a card-length run.

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
function unreadableAmount(due: readonly Charge[], lines: readonly ReportCharge[]): string | undefined {
  const charge = due.find((c) => !readable(c.amount));
  if (charge) {
    const shown = formatAmount(charge.amount);
    return charge.amount.kind === 'none'
      ? 'the batch row has no amount to compare with'
      : `the batch amount ${JSON.stringify(maskText(shown))} is not an amount (digits, optionally a dot and digits)`;
  }
  const line = lines.find((l) => parseAmount(l.amount) === undefined);
  if (line)
    return `report line ${line.line} has the amount ${JSON.stringify(maskText(line.amount))}, which is not an amount (digits, optionally a dot and digits)`;
  return undefined;
}

export function rowStatus(
  due: readonly Charge[],
  lines: readonly ReportCharge[],
  currency: string,
  words: KindWords = CHARGE_WORDS,
): { status: ReconcileStatus; reason: string } {
  const paid = words === CHARGE_WORDS ? 'charged' : 'paid out';
  if (lines.length > due.length)
    return {
      status: 'extra',
      reason: `${lines.length} ${words.one}(s) in the report, ${due.length} due: a possible double ${words.one}`,
    };
  const unreadable = unreadableAmount(due, lines);
  if (unreadable !== undefined) return { status: 'amount-unreadable', reason: unreadable };
  for (let i = 0; i < lines.length; i++) {
    if (!amountFits(due[i], lines[i].amount))
      return {
        status: 'amount-mismatch',
        reason: `report line ${lines[i].line} ${paid} ${maskText(lines[i].amount)}, the schedule says ${maskText(formatAmount(due[i].amount))}`,
      };
  }
  const wrong = currency === '' ? undefined : lines.find((l) => l.currency !== '' && l.currency.toUpperCase() !== currency.toUpperCase());
  if (wrong)
    return {
      status: 'currency-mismatch',
      reason: `report line ${wrong.line} is in ${maskText(wrong.currency)}, the batch row in ${maskText(currency)}`,
    };
  const declined = lines.find((l) => !l.approved);
  if (declined) return { status: 'declined', reason: `report line ${declined.line} was not approved` };
  if (lines.length < due.length) return { status: 'missing', reason: `${due.length} ${words.one}(s) due, ${lines.length} in the report` };
  if (due.length === 0) return { status: 'not-due', reason: 'nothing due in the window' };
  return { status: 'ok', reason: `${due.length} ${words.one}(s) due and ${paid}` };
}
