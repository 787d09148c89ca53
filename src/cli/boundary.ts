import { floorText, takeVouched, terminalSafe } from '../core/output';
import type { CliContext } from './context';

// Everything a command writes to standard output and error passes the product's one output boundary (card
// numbers masked, labelled CVVs hidden, control characters shown escaped), so a new command or field is
// safe on a terminal without remembering to be. Formats still escape a value's own line breaks
// (terminalField) and neutralise CSV formulas cell by cell; this is the floor under them.
//
// Whole lines pass the boundary: a command may write a report in chunks, and a chunk can end between the
// CR and LF of a record's end or inside a card number, which the boundary must see whole. What follows
// the last line break waits for the next write or for flush() (runCommand calls it when the command ends).

/** A line without a break that grows past this is let through in part, so memory stays bounded. */
const MAX_PENDING = 64 * 1024;

/** Characters a card number or a labelled CVV (label, separators, digits) is made of (made on first use: issue 40). */
let inCardOrCvv: RegExp | undefined;

/**
 * Where a long line may be cut, in its second half: before the last word that starts with a letter, or
 * before a character that no card number or labelled CVV holds (`,`, `;`, `|`…). A card number is a
 * digit run and a labelled CVV a label, a few separators and digits, so neither spans such a cut; 0 when
 * there is none.
 */
function safeCut(text: string): number {
  for (let i = text.length - 1; i > text.length / 2; i--) {
    const c = text[i];
    const code = text.charCodeAt(i);
    if (code >= 0xdc00 && code <= 0xdfff) continue; // never between the halves of a surrogate pair
    if (!(inCardOrCvv ??= /[\p{L}\p{N}_ .\-:=#"'\s]/u).test(c)) return i;
    if (/\p{L}/u.test(c) && !/[\p{L}\p{N}_]/u.test(text[i - 1])) return i;
  }
  return 0;
}

type Write = (text: string) => void;

function lineBuffered(write: Write): { write: Write; flush: () => void } {
  let pending = '';
  // Whether what waits was all vouched for: pieces of one long line laid out from values (a JSON document
  // written a thousand rows at a time), each ending between two values.
  let pendingLaid = false;
  return {
    write(text) {
      // Laid out from vetted values and vouched for (core/output/laid.ts): let through unread, whole lines at
      // once, or kept with other vouched pieces of the same line until its end. A text that would join a
      // waiting piece of a line not vouched for, or that a piece not vouched for joins, is read whole.
      if (pending === '' && text.endsWith('\n')) return write(floorText(text));
      if ((pending === '' || pendingLaid) && takeVouched(text)) {
        pending += text;
        pendingLaid = true;
        if (text.endsWith('\n') || pending.length > MAX_PENDING) {
          write(pending);
          pending = '';
        }
        return;
      }
      pendingLaid = false;
      const all = pending + text;
      const end = all.lastIndexOf('\n') + 1;
      if (end > 0) write(terminalSafe(all.slice(0, end)));
      pending = all.slice(end);
      if (pending.length > MAX_PENDING) {
        // No such place in the second half (32K characters of digits and spaces): all of it goes.
        const found = safeCut(pending);
        const cut = found > pending.length / 2 ? found : pending.length;
        write(terminalSafe(pending.slice(0, cut)));
        pending = pending.slice(cut);
      }
    },
    flush() {
      if (pending !== '') write(pendingLaid ? pending : terminalSafe(pending));
      pending = '';
      pendingLaid = false;
    },
  };
}

/** The context a command sees, writing through the boundary, and the flush for when it ends. */
export function throughOutputBoundary<C extends Pick<CliContext, 'stdout' | 'stderr'>>(ctx: C): { ctx: C; flush: () => void } {
  const out = lineBuffered((t) => ctx.stdout(t));
  const err = lineBuffered((t) => ctx.stderr(t));
  // The context's own properties as they are: a getter (processContext's `interactive`) stays one, asked
  // only when a command reads it.
  const through = Object.defineProperties({}, Object.getOwnPropertyDescriptors(ctx)) as C;
  through.stdout = out.write;
  through.stderr = err.write;
  return {
    ctx: through,
    flush() {
      out.flush();
      err.flush();
    },
  };
}
