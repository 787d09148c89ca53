// Completion in the filter box: the word being typed at the cursor, and the column names (written as the
// expression needs them: in backticks when they hold spaces) and keywords that start with it.
import { quoteColumn } from '../../src/shared/query';

export interface Completion {
  /** What the list shows. */
  label: string;
  /** What replaces the word typed. */
  insert: string;
  kind: 'column' | 'keyword';
}

export interface Completions {
  /** The word typed: expression[from, to). */
  from: number;
  to: number;
  items: Completion[];
}

const WORD_CHAR = /[\p{L}\p{M}\p{N}_.-]/u;
const WORDS = ['and', 'or', 'not', 'contains', 'starts with', 'ends with', 'in (', 'is empty', 'is not empty'];
const MAX_ITEMS = 12;

/** Inside quoted text nothing is offered; after a backtick, the rest of a column name is. */
function openQuote(text: string): string | undefined {
  let open: string | undefined;
  for (const c of text) {
    if (open === undefined && (c === '"' || c === "'" || c === '`')) open = c;
    else if (c === open) open = undefined; // a doubled quote closes and opens again: the same state
  }
  return open;
}

/** `always`: offer every column even before a letter is typed (Ctrl+Space). */
export function completionsAt(expression: string, cursor: number, columns: readonly string[], always = false): Completions | undefined {
  const before = expression.slice(0, cursor);
  const quote = openQuote(before);
  if (quote === '"' || quote === "'") return undefined;
  let from = cursor;
  if (quote === '`') from = before.lastIndexOf('`');
  else while (from > 0 && WORD_CHAR.test(expression[from - 1])) from--;
  let to = cursor;
  while (quote === undefined && to < expression.length && WORD_CHAR.test(expression[to])) to++;
  const typed = expression.slice(quote === '`' ? from + 1 : from, cursor).toLowerCase();
  if (/^\d/.test(typed)) return undefined; // a number or a date
  if (typed === '' && quote === undefined && !always) return undefined;
  // Names that start with what was typed come first (Tab takes the first), then those that hold it.
  const starts = columns.filter((c) => c.toLowerCase().startsWith(typed));
  const holds = typed.length > 1 ? columns.filter((c) => !c.toLowerCase().startsWith(typed) && c.toLowerCase().includes(typed)) : [];
  const items: Completion[] = [...starts, ...holds].map((c) => ({
    label: c,
    insert: quote === '`' ? `\`${c.replace(/`/g, '``')}\`` : quoteColumn(c),
    kind: 'column' as const,
  }));
  if (quote === undefined && typed !== '')
    for (const w of WORDS)
      if (w.startsWith(typed) && w !== typed) items.push({ label: w, insert: `${w}${w.endsWith('(') ? '' : ' '}`, kind: 'keyword' });
  if (items.length === 0) return undefined;
  return { from, to, items: items.slice(0, MAX_ITEMS) };
}
