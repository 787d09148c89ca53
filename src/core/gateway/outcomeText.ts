import { maskFields, maskText } from '../output/mask';
import { joinSaid, ourWords, said, typed, type Said } from '../output/said';
import { vet } from '../output/values';
import type { GatewayOutcome } from './outcome';
import { outcomeHeadline, outcomeTodo } from './outcomes';

// A person's summary of an answer, as every face tells it: the outcome table's headline, what was sent, the
// answer's own words (masked) and what to do. A `Said` (core/output/said.ts): our words, and each value with
// its type (a count of rows, the gateway's words as free text), so two values meeting on a line are never
// read as one card number, and the face that shows it (the CLI's standard output, the editor's messages and
// log) checks every part alone.

/** The answer's fields, one `  key  value` line each (CVV fields left out, values masked by their key). */
function fieldLines(fields: Record<string, string>): Said {
  const masked = Object.entries(maskFields(fields));
  // Aligned as shown: a key's shown form may be longer than it came (an escaped control character).
  const width = masked.reduce((w, [k]) => Math.max(w, vet.text(k).length), 0);
  return joinSaid(
    masked.map(([k, v]) => said`  ${typed.text(k)}${ourWords(' '.repeat(width - vet.text(k).length))}  ${typed.text(v)}\n`),
    '',
  );
}

/** One line of the answer's own words under the headline. */
const answerLine = (words: string): Said => said`  ${typed.text(words)}\n`;

/**
 * An answer from outside (a gateway's unrecognised answer, a callback handler's), masked and quoted line
 * by line (at most 40 lines of 300 characters): each of its lines is one value behind "  | ", so a line of
 * the answer never stands as a line of ours, and its escape sequences are shown escaped.
 */
export function quotedAnswer(raw: string): Said {
  // Masked and CVVs hidden whole first: a label on one line and its value on the next are still a pair.
  const lines = maskText(raw).split(/\r\n|\r|\n/);
  if (lines.at(-1) === '') lines.pop(); // the answer's last line break ends a line; it opens none
  const shown = lines.slice(0, 40).map((l) => said`  | ${typed.text(l.length > 300 ? `${l.slice(0, 300)}…` : l)}\n`);
  if (lines.length > 40) shown.push(said`  | … (${typed.count(lines.length - 40)} more lines)\n`);
  return joinSaid(shown, '');
}

/** The answer's own words under the headline, masked. */
function outcomeBody(o: GatewayOutcome): Said {
  switch (o.outcome) {
    case 'accepted':
      return fieldLines(o.fields);
    case 'declined':
    case 'validation-error':
    case 'error':
      return said`${answerLine(maskText(o.errorMessage ?? '(no error-message)'))}${fieldLines(o.fields)}`;
    case 'server-error': {
      const fields = fieldLines(o.fields);
      return fields.said.length > 0 ? fields : answerLine(maskText(o.raw.trim()).slice(0, 500));
    }
    case 'auth-failed':
      return answerLine(maskText(o.message));
    case 'unknown':
    case 'transport-error':
      return answerLine(o.message);
    case 'unrecognised':
      return said`  Shown as it came; it is neither an acceptance nor a known error.\n${quotedAnswer(o.raw)}`;
    case 'report':
      return ourWords('');
    default:
      return plainBody(o);
  }
}

/** An outcome without words of its own here: its message, else its fields, else the answer as it came. */
function plainBody(o: GatewayOutcome): Said {
  if ('message' in o) return answerLine(maskText(o.message));
  const fields = 'fields' in o ? fieldLines(o.fields) : ourWords('');
  return fields.said.length > 0 || !('raw' in o) ? fields : quotedAnswer(o.raw);
}

/**
 * A person's summary of an answer, lines ending in a line break; `what` names the request
 * (said`${typed.text(file)} (${typed.count(rows)} rows) to local`). The title, the detail and what to do
 * come from the outcome table (./outcomes.ts), the same in every face.
 */
export function outcomeText(o: GatewayOutcome, what: Said): Said {
  const todo = outcomeTodo(o);
  // The headline quotes the answer (an error-code, a content type): one value, one line.
  const todoLine = todo ? said`  ${typed.text(todo)}\n` : ourWords('');
  return said`${typed.text(outcomeHeadline(o))}: ${what}\n${outcomeBody(o)}${todoLine}`;
}
