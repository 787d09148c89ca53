/* eslint-disable no-control-regex -- finding control characters is this file's job */
// Text from input (a cell, a callback field, the gateway's error-message, a file name) never reaches a
// terminal as a control character: an ESC starts a sequence that can clear the screen, retitle the
// window, set the clipboard (OSC 52) or forge colours; a CR or a line break forges a log line; a bidi
// override makes a line read differently from what it holds. Each is shown escaped and visible instead.

// C0 (but tab and line feed, which layouts use), DEL, C1, the bidi controls and the Unicode line and
// paragraph separators. A CR is only allowed as the first half of a CRLF (the CSV we write ends records so).
const UNSAFE_IN_TEXT =
  /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]|\r(?!\n)/g;
// One value, one line: tab, line feed and CR are escaped as well.
const UNSAFE_IN_VALUE = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

const NAMED: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

/**
 * A C0 character as `\x1b`; DEL, C1 and the others as `\u009b`, which is also a valid escape inside a JSON
 * string (a JSON document passing a terminal stays JSON: JSON.stringify escapes C0 itself, not these).
 */
function visible(c: string): string {
  const named = NAMED[c];
  if (named !== undefined) return named;
  const code = c.charCodeAt(0);
  return code < 0x20 ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
}

/** Text for a terminal: every control character shown as an escape (`\x1b`), tabs and line breaks kept. */
export function terminalText(text: string): string {
  return text.replace(UNSAFE_IN_TEXT, visible);
}

/** One value for a terminal line: as terminalText, and a line break, CR or tab inside it shown as `\n`… */
export function terminalValue(value: string): string {
  return value.replace(UNSAFE_IN_VALUE, visible);
}
