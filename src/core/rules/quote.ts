import { maskCardNumber, maskText } from '../mask';

// How text from the file appears inside a message. Messages reach CI logs, the local gateway's
// error-message and its log: anything that looks like a card number is masked whatever column it sits
// in (a header cell is a card number when the header line is missing), and a cell of any length is cut
// so a message stays one short line.

const MAX = 40;

/**
 * Stricter than maskText for text quoted from a cell: any 12 or more digits in a row, possibly split by
 * single spaces or dashes, glued to letters or to more digits (`card4111111111111111`,
 * `41111111111111112031-01-05`), is masked too. A message never needs such a run in full.
 */
const DIGIT_RUN = /\d(?:[ -]?\d){11,}/g;

/** The value masked, then cut to 40 characters. */
export function inMessage(value: string): string {
  const masked = maskText(value).replace(DIGIT_RUN, (run) => maskCardNumber(run.replace(/[ -]/g, '')));
  return masked.length > MAX ? `${masked.slice(0, MAX - 3)}...` : masked;
}

/** The value masked and cut, in double quotes. */
export function quoteInMessage(value: string): string {
  return `"${inMessage(value)}"`;
}
