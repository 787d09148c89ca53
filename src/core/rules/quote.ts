import { maskQuotedValue, said, terminalValue, typed, type Part, type Said } from '../output';

// How text from the file appears inside a message. Messages reach CI logs, terminals (the CLI, an editor
// drawn in a terminal), the local gateway's error-message and its log: anything that looks like a card
// number is masked whatever column it sits in (a header cell is a card number when the header line is
// missing), a labelled CVV is hidden, a control character or line break is shown escaped (one value, one
// line), and a cell of any length is cut so a message stays one short line.
//
// A message is a `Said` (core/output/said.ts): the cell is one value in it, masked here alone (strictly: any
// run of 12 digits or more) and checked again alone by the face that lays the message out, never scanned on
// a line where it meets another value (issue 38).

const MAX = 40;

/** The value masked and escaped, then cut to 40 characters. */
export function inMessage(value: string): string {
  const masked = terminalValue(maskQuotedValue(value));
  return masked.length > MAX ? `${masked.slice(0, MAX - 3)}...` : masked;
}

/** The value masked and cut (inMessage) as one free-text part of a message. */
export const cellPart = (value: string): Part => typed.text(inMessage(value));

/** The value masked and cut, in double quotes, as a part of a message. */
export const quotedCell = (value: string): Said => said`"${cellPart(value)}"`;
