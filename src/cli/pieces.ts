import { joinLaid, vouched, type Laid } from '../core/output';

// Output gathered into pieces before each write: one write per line (a report's row, a query's group) would
// cost more than the line, and a million lines are never one string. A piece made only of lines laid out
// from vetted values (core/output/laid.ts) is written vouched for, so the CLI's floor does not read it again.

/** Output gathered into pieces of about this size. */
const PIECE = 64 * 1024;

export interface Pieces {
  /** Text of any kind: the piece holding it is read whole by the floor. */
  add(text: string): void;
  /** A layout of vetted values. */
  addLaid(text: Laid): void;
  /** A layout or a plain text, as jsonLaid makes them. */
  addMade(made: { laid: Laid } | { plain: string }): void;
  flush(): void;
}

/** A writer that hands text on in pieces, never holding more than one. */
export function batched(write: (text: string) => void): Pieces {
  let parts: string[] = [];
  let size = 0;
  let allLaid = true;
  const flush = () => {
    if (parts.length > 0) write(allLaid ? vouched(joinLaid(parts as Laid[], '')) : parts.join(''));
    parts = [];
    size = 0;
    allLaid = true;
  };
  const add = (text: string, isLaid: boolean) => {
    parts.push(text);
    size += text.length;
    allLaid &&= isLaid;
    if (size >= PIECE) flush();
  };
  return {
    add: (text) => add(text, false),
    addLaid: (text) => add(text, true),
    addMade: (made) => ('laid' in made ? add(made.laid, true) : add(made.plain, false)),
    flush,
  };
}
