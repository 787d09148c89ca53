// The last guard before submitted rows reach the page: whoever built the SubmissionView, card numbers
// leave the host masked (first 6 / last 4) and the card verification value never leaves at all.
import { maskCardNumber } from '../core/mask';
import type { SubmissionView } from './protocol';

const CARD_COLUMNS = new Set(['credit-card-number']);
const CVV_COLUMNS = new Set(['cvv2', 'cvv', 'cvc', 'cvc2']);
/** The gateway's own identifiers may be long digit runs and must be shown exactly. */
const ID_COLUMNS = new Set(['recurring-payment-id', 'serial-number', 'client-orderid', 'transaction_id', 'merchant_oid']);

const norm = (name: string) => name.trim().toLowerCase();

/** First 6 and last 4 digits kept; anything too short to mask meaningfully is hidden entirely. */
export function maskPan(value: string): string {
  const digits = value.replace(/[\s-]/g, '');
  if (/^\d{6}\*+\d{4}$/.test(digits)) return digits; // already masked upstream
  if (!/^\d+$/.test(digits)) return value.length === 0 ? value : '*'.repeat(Math.min(value.length, 19));
  return maskCardNumber(digits);
}

/** A bare 12–19 digit run in any other free-text column is treated as a card number too. */
const LOOSE_PAN = /(?<!\d)\d{12,19}(?!\d)/g;

function maskField(name: string, value: string): string {
  const n = norm(name);
  if (CARD_COLUMNS.has(n)) return maskPan(value);
  if (ID_COLUMNS.has(n)) return value;
  return value.replace(LOOSE_PAN, (m) => maskPan(m));
}

export function sanitiseSubmissionView(view: SubmissionView): SubmissionView {
  const keep: number[] = [];
  view.columns.forEach((c, i) => {
    if (!CVV_COLUMNS.has(norm(c))) keep.push(i);
  });
  const columns = keep.map((i) => view.columns[i]);
  const rows = view.rows.map((row) =>
    keep.map((i) => {
      return maskField(view.columns[i], row[i] ?? '');
    }),
  );
  const fields = view.fields
    ? Object.fromEntries(
        Object.entries(view.fields)
          .filter(([k]) => !CVV_COLUMNS.has(norm(k)))
          .map(([k, v]) => [k, maskField(k, v)]),
      )
    : undefined;
  return { ...view, columns, rows, ...(fields ? { fields } : {}) };
}

const loose = (name: string) => name.trim().toLowerCase().replace(/[-_ ]/g, '');
const LOOSE_CARD = new Set([...CARD_COLUMNS].map(loose));
const LOOSE_CVV = new Set([...CVV_COLUMNS].map(loose));

/**
 * For any CSV shown in the panel (Open CSV in PayGate Table, reports): the panel is outside the
 * document, so a card-number column is masked and a CVV column hidden, found by name in any spelling
 * (`Credit_Card_Number`). Undefined when the columns hold no card data, so other tables pay nothing.
 * The returned function masks a row in place.
 */
export function cardDataGuard(columns: readonly string[]): ((row: string[]) => void) | undefined {
  const pan: number[] = [];
  const cvv: number[] = [];
  columns.forEach((c, i) => {
    if (LOOSE_CARD.has(loose(c))) pan.push(i);
    else if (LOOSE_CVV.has(loose(c))) cvv.push(i);
  });
  if (pan.length === 0 && cvv.length === 0) return undefined;
  return (row) => {
    for (const i of pan) if (row[i]) row[i] = maskPan(row[i]);
    for (const i of cvv) if (row[i]) row[i] = '•••';
  };
}
