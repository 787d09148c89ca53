import { maskCardNumbers, withoutSeparators } from './cardNumbers';
import { HIDDEN_CVV, hideCvvs, isCvvName } from './cvv';

// Card data by field: what a named value, a record, a table or a message shows once it leaves the batch
// file. Card numbers keep their first 6 and last 4 digits; a card verification value is never shown at
// all. Every function here ends in the floor every output passes (./cardNumbers.ts): an id column is
// exact unless it holds a card number, because an id that is a card number is still a card number.

/** Columns that hold a card number, compared loosely (`Credit_Card_Number`, `credit card number`). */
const CARD_COLUMNS = ['credit-card-number', 'card-number', 'pan'];
/** The gateway's own identifiers may be long digit runs and must be shown exactly, card numbers apart. */
const ID_COLUMNS = ['recurring-payment-id', 'serial-number', 'client-orderid', 'transaction_id', 'merchant_oid', 'error-code', 'error-id'];

const loose = (name: string) => name.trim().toLowerCase().replace(/[-_ ]/g, '');
const LOOSE_CARD = new Set(CARD_COLUMNS.map(loose));
const LOOSE_ID = new Set(ID_COLUMNS.map(loose));

export const isCardColumn = (name: string): boolean => LOOSE_CARD.has(loose(name));
const isIdColumn = (name: string): boolean => LOOSE_ID.has(loose(name));

/**
 * First 6 and last 4 digits, the rest as `*`. A value shorter than a card number (12 digits) is hidden
 * whole: keeping 10 of 11 characters would show it.
 */
export function maskCardNumber(pan: string): string {
  const s = pan.trim();
  if (s.length < 12) return '*'.repeat(s.length);
  return s.slice(0, 6) + '*'.repeat(s.length - 10) + s.slice(-4);
}

/** A card-number cell as written: digits of any script, possibly grouped by separators; anything else hidden. */
export function maskCardValue(value: string): string {
  const digits = withoutSeparators(value);
  if (/^\d{6}\*+\d{4}$/.test(digits)) return digits; // already masked upstream
  if (!/^\d+$/.test(digits)) return value.length === 0 ? value : '*'.repeat(Math.min(value.length, 19));
  return maskCardNumber(digits);
}

const REGEX_SPECIAL = /[.*+?^${}()|[\]\\]/g;

/**
 * Free text (a message, an answer's body, a log line) with every card number masked, each of `sensitive`
 * (values known to be card data, such as the batch's own numbers) masked wherever it stands as a word,
 * and every labelled CVV hidden: free text that leaves the product carries neither. Looser than the floor
 * (./cardNumbers.ts): a run of 12–19 digits standing on its own is masked even when it fails the Luhn
 * check (a mistyped number is still a customer's card).
 */
export function maskText(text: string, sensitive: readonly string[] = []): string {
  let out = text;
  for (const value of [...sensitive].filter((v) => v.trim() !== '').sort((a, b) => b.length - a.length)) {
    const v = value.trim();
    out = out.replace(new RegExp(`(?<![\\w])${v.replace(REGEX_SPECIAL, '\\$&')}(?![\\w])`, 'g'), maskCardNumber(v));
  }
  return hideCvvs(maskCardNumbers(out, 'loose'));
}

/**
 * Stricter than maskText, for a value quoted from a cell into a message: any 12 or more digits in a row,
 * possibly split by separators, glued to letters or to more digits (`card4111111111111111`,
 * `41111111111111112031-01-05`), is masked too. A message never needs such a run in full; a report table
 * does (long transaction ids), which is why maskText itself stays narrower.
 */
export function maskQuotedValue(value: string): string {
  return hideCvvs(maskCardNumbers(value, 'strict'));
}

/** One named value: card columns masked, CVVs hidden, the gateway's ids exact, other text scanned. */
export function maskField(name: string, value: string): string {
  if (isCardColumn(name)) return maskCardValue(value);
  if (isCvvName(name)) return value === '' ? value : HIDDEN_CVV;
  if (isIdColumn(name)) return maskCardNumbers(value);
  return maskText(value);
}

/** A record of named values (an answer's fields), CVV entries dropped. */
export function maskFields(fields: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(fields)) if (!isCvvName(k)) out[k] = maskField(k, v);
  return out;
}

/** A table leaving the host: CVV columns removed, every other cell masked by its column. */
export function maskTable(columns: readonly string[], rows: readonly (readonly string[])[]): { columns: string[]; rows: string[][] } {
  const keep: number[] = [];
  columns.forEach((c, i) => {
    if (!isCvvName(c)) keep.push(i);
  });
  return { columns: keep.map((i) => columns[i]), rows: rows.map((row) => keep.map((i) => maskField(columns[i], row[i] ?? ''))) };
}

/**
 * For a CSV shown where rows arrive one at a time (a file or report opened in the panel): a function
 * that masks a row in place, card-number columns masked and CVV columns hidden, found by name in any
 * spelling. Undefined when the columns hold no card data, so other tables pay nothing.
 */
export function rowMasker(columns: readonly string[]): ((row: string[]) => void) | undefined {
  const pan: number[] = [];
  const cvv: number[] = [];
  columns.forEach((c, i) => {
    if (isCardColumn(c)) pan.push(i);
    else if (isCvvName(c)) cvv.push(i);
  });
  if (pan.length === 0 && cvv.length === 0) return undefined;
  return (row) => {
    for (const i of pan) if (row[i]) row[i] = maskCardValue(row[i]);
    for (const i of cvv) if (row[i]) row[i] = HIDDEN_CVV;
  };
}

/**
 * Free text kept at rest (a description the local gateway stores and serves): card-number-like digit
 * runs masked as strictly as in a quoted value, and a CVV-like value next to its label hidden. Such text
 * has no business holding card data, so erring towards masking a long invoice number is the safe side.
 */
export function maskStoredText(text: string): string {
  return maskQuotedValue(text);
}
