// The notes under the grouped summary: why there are no groups, how many are listed, which columns joined
// the groups so that amounts of two currencies or two kinds of money (a payout beside the sales) are never
// added, and the amounts that could not be read.
import type { QueryOutcome } from '../../src/shared/query';
import { el } from '../dom';

import { thousands as count } from '../../src/shared/thousands';

export function summaryNotes(o: QueryOutcome, maxRows: number): HTMLElement[] {
  const notes: HTMLElement[] = [];
  const hint = (text: string) => notes.push(el('p', { class: 'hint' }, text));
  if (o.groups.length === 0) hint('No row matched the filter: there is nothing to group.');
  if (o.groups.length > maxRows) hint(`The first ${count(maxRows)} groups are listed; Export CSV has all ${count(o.groups.length)}.`);
  if (o.plan.currencyAdded) hint(`Grouped by ${o.plan.groups[o.plan.currencyGroup].name} too: amounts of two currencies are never added.`);
  if (o.plan.kindAdded)
    hint(
      `Grouped by what ${o.plan.groups[o.plan.kindGroup].name} says each row is (charges, payouts, refunds…): ` +
        'a payout or a refund is never added to the charges.',
    );
  else if (o.plan.kindGroup >= 0)
    hint('Totals are per kind of money (charges, payouts, refunds…): a payout is never added to the charges.');
  if (o.skippedCount > 0) {
    const rows = o.skipped.slice(0, 20).map((s) => `row ${count(s.row + 1)} (${s.reason === 'empty' ? 'empty' : `"${s.value}"`})`);
    const more = o.skippedCount > rows.length ? `, … ${count(o.skippedCount - rows.length)} more` : '';
    notes.push(
      el(
        'p',
        { class: 'skipped' },
        `${count(o.skippedCount)} ${o.skippedCount === 1 ? 'amount could not be read and is' : 'amounts could not be read and are'} in no sum, min, max or average: ${rows.join(', ')}${more}.`,
      ),
    );
  }
  return notes;
}
