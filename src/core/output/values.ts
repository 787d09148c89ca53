import { maskCardNumbers } from './cardNumbers';
import { hideCvvs } from './cvv';
import { idSpans } from './idSpans';
import { maskText } from './mask';
import { terminalValue } from './terminal';

// Mask values, not layouts (issue 38): a value is made safe by its type before it is laid out on a line
// (./laid.ts), so two values meeting on a line (a date beside an amount) are never read as one number. A
// value that has the shape of its type holds no card number by construction and passes as it is: a date, an
// amount (at most 12 digits before its point), a count (at most 12 digits), a hash (32, 40 or 64 hex), an id
// of known form (a UUID, a 24-hex row key). The hex shapes need a letter, as the floor's own ids do
// (./idSpans.ts). A value that does not have its type's shape, and free text (a description, a file name, an
// answer's words), is scanned whole: card numbers masked, labelled CVVs hidden. Either way no control
// character and no line break is left in it: a value is one line.

declare const VETTED: unique symbol;

/** One value made safe by its type: masked where it must be, CVVs hidden, one line, no control character. */
export type Vetted = string & { readonly [VETTED]: true };

const DATE =
  /^(?:\d{2}\.\d{2}\.\d{4}|\d{2}\/\d{2}\/\d{4}|\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:?\d{2})?)?)$/;
const AMOUNT = /^[-+]?(?:\d{1,12}|\d{1,3}(?:,\d{3}){1,3})(?:\.\d{1,3})?$/;
const COUNT = /^(?:\d{1,12}|\d{1,3}(?:,\d{3}){1,3})$/;
const HASH = /^(?:[0-9a-f]{64}|[0-9a-f]{40}|[0-9a-f]{32})$/i;
const ID = /^(?:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|[0-9a-f]{24})$/i;
const HEX_LETTER = /[a-f]/i;

/** Free text as one value: scanned whole (card numbers masked, labelled CVVs hidden), every control character escaped. */
function text(value: string): Vetted {
  return terminalValue(hideCvvs(maskCardNumbers(value))) as Vetted;
}

/** `value` as it is when it has its type's shape, else scanned as free text. */
function shaped(value: string, shape: RegExp, needsLetter = false): Vetted {
  return shape.test(value) && (!needsLetter || HEX_LETTER.test(value)) ? (value as Vetted) : text(value);
}

// Plain functions, so a bundle that does not use them (the results page) leaves them out.
const date = (value: string): Vetted => shaped(value, DATE);
const amount = (value: string): Vetted => shaped(value, AMOUNT);
const count = (value: number | string): Vetted => shaped(String(value), COUNT);
const hash = (value: string): Vetted => shaped(value, HASH, true);
const id = (value: string): Vetted => shaped(value, ID, true);
const cell = (value: string): Vetted => terminalValue(maskText(value).replace(/\r\n|\r|\n/g, ' ⏎ ')) as Vetted;

/**
 * The first `n` characters of a vetted value, safe again. The cut is scanned again, because the first digits
 * of a run too long to be a card number may be one; but an id of known form the cut falls inside keeps its
 * first characters as they are (a hash's prefix is no card number, and no longer looks like a hash).
 */
function cut(value: Vetted, n: number): Vetted {
  if (value.length <= n) return value;
  let from = n;
  for (const [start, end] of idSpans(value) ?? []) if (start < n && n < end) from = start;
  return `${cell(value.slice(0, from))}${value.slice(from, n)}` as Vetted;
}

const SHAPES = { date: [DATE, false], amount: [AMOUNT, false], count: [COUNT, false], hash: [HASH, true], id: [ID, true] } as const;

/** Whether `value` has the shape of its type: then vet[type] passes it as it is, and it holds no card number. */
export function hasShape(type: keyof typeof SHAPES, value: string): boolean {
  const [shape, needsLetter] = SHAPES[type];
  return shape.test(value) && (!needsLetter || HEX_LETTER.test(value));
}

/** Values by their type, each safe to lay out beside any other. */
export const vet = {
  /** A date or a date and time: `DD.MM.YYYY`, `MM/DD/YYYY`, `YYYY-MM-DD`, ISO 8601 with a time. */
  date,
  /**
   * A decimal amount: at most 12 digits before the point (thousands may be grouped by `,`), at most 3 after,
   * as the floor reads an amount (a longer "fraction" may be a card number's last digits).
   */
  amount,
  /** A count or a line number. */
  count,
  /** A content hash or checksum: 64, 40 or 32 hex digits. */
  hash,
  /** An id of known form: a UUID or a 24-hex row key. */
  id,
  /** Free text (a description, a file name, an answer's words, an id of no known form): scanned whole. */
  text,
  /**
   * Free text in a table cell, read as maskText reads free text (a 12–19 digit run standing on its own is
   * masked even when it fails Luhn: a mistyped card is a card), its line breaks shown as ` ⏎ `.
   */
  cell,
  /** The first `n` characters of a vetted value, scanned again where the cut could make a card number. */
  cut,
};
