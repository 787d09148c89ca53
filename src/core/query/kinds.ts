// What a report row's money is, read from its transaction type: a charge (a sale: money drawn from a payer),
// a payout (money paid out to a receiver's card, as a DST row schedules), a refund (a sale given back:
// return, reversal, void) or a chargeback. Amounts of two kinds are never added, as amounts of two
// currencies are not: a total of sales with a payout in it is a number nobody has. The words are the
// gateway family's transaction types (its callbacks' `type`: sale, reversal, chargeback, spec/gateway-api.md;
// its PHP library's Sale, Return and Chargeback callbacks and return query, payneteasy/php-library-payneteasy-api)
// and the local gateway's report ("Sale approved", "Payout approved"). A type naming none of them is
// `other`, never a charge: an unknown kind of money is kept apart, not guessed into the sales.

import { CHARGE_WORDS, PAYOUT_WORDS } from '../schedule/describe';

/** The kinds in the order totals are listed. */
export const MONEY_KINDS = [CHARGE_WORDS.many, PAYOUT_WORDS.many, 'refunds', 'chargebacks', 'other'] as const;
export type MoneyKind = (typeof MONEY_KINDS)[number];

// Chargeback before charge: "chargeback" holds "charge".
const WORDS: readonly [RegExp, MoneyKind][] = [
  [/charge[\s_-]*backs?\b|\bdisputes?\b/i, 'chargebacks'],
  [/\b(?:refunds?|refunded|returns?|returned|reversals?|reversed|voids?|voided)\b/i, 'refunds'],
  [/\bpay[\s_-]*outs?\b|\bpaid[\s_-]*out\b/i, PAYOUT_WORDS.many],
  [/\b(?:sales?|captures?|captured|rebills?|recurring|charges?|charged|purchases?|debits?|debited)\b/i, CHARGE_WORDS.many],
];

/** The kind of money a transaction type names ("Sale approved": charges; "Payout approved": payouts). */
export function moneyKind(transactionType: string): MoneyKind {
  // Underscores join words in some reports (SALE_APPROVED); \b does not see them as breaks.
  const text = transactionType.replace(/_/g, ' ');
  for (const [re, kind] of WORDS) if (re.test(text)) return kind;
  return 'other';
}

/** Position of a kind in the order totals are listed (MONEY_KINDS). */
export const kindRank = (kind: string): number => {
  const at = (MONEY_KINDS as readonly string[]).indexOf(kind);
  return at < 0 ? MONEY_KINDS.length : at;
};

/**
 * The column saying which is which: Transaction_type (in any case, a space for the underscore), as the
 * gateway's sample report has it; -1 when there is none (every amount is then of one kind, as before).
 */
export function defaultKindColumn(columns: readonly string[]): number {
  return columns.findIndex((c) => /^transaction[\s_-]*type$/i.test(c.trim()));
}

/** The heading of a group column that holds each row's kind rather than its cell. */
export const kindHeading = (name: string): string => `${name} (charges/payouts)`;
