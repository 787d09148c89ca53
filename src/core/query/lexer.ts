// The filter expression's words: column names (bare, or in backticks when they hold spaces), text in
// double or single quotes (a doubled quote inside is one quote, as in CSV), numbers, the report's two
// date shapes, keywords and operators. Every token knows where it stands, so every error can say where.

import type { QueryProblem } from './problem';

export type TokenKind = 'word' | 'column' | 'string' | 'number' | 'date' | 'punct' | 'end';

export interface Token {
  kind: TokenKind;
  /** The word, the column's name or the text with its quotes undone, the number or date as written, the operator. */
  text: string;
  /** Offsets into the expression: [at, end). */
  at: number;
  end: number;
}

const WORD = /[\p{L}\p{M}_][\p{L}\p{M}\p{N}_.-]*/uy;
const ISO_DATE = /\d{4}-\d{2}-\d{2}(?: \d{2}:\d{2}(?::\d{2})?)?(?![\p{L}\p{N}_.:-])/uy;
const DOTTED_DATE = /\d{2}\.\d{2}\.\d{4}(?![\p{L}\p{N}_.:-])/uy;
const NUMBER = /[+-]?\d+(?:\.\d+)?/y;
const NUMBER_TAIL = /[\p{L}\p{N}_.]/uy;
const PUNCT = ['!=', '<>', '<=', '>=', '==', '=', '<', '>', '(', ')', ','];
/** Other spellings people bring from SQL and programming languages. */
const SAME_AS: Record<string, string> = { '==': '=', '<>': '!=' };

function sticky(rx: RegExp, s: string, at: number): string | undefined {
  rx.lastIndex = at;
  return rx.exec(s)?.[0];
}

/** The tokens of `source`, ending with one `end` token, or the first problem. */
export function tokenize(source: string): Token[] | QueryProblem {
  const tokens: Token[] = [];
  let i = 0;
  const n = source.length;
  while (i < n) {
    const c = source[i];
    if (/\s/.test(c)) {
      i++;
      continue;
    }
    const at = i;
    if (c === '"' || c === "'" || c === '`') {
      const read = quoted(source, i, c);
      if ('message' in read) return read;
      tokens.push({ kind: c === '`' ? 'column' : 'string', text: read.text, at, end: read.end });
      i = read.end;
      continue;
    }
    const date = /\d/.test(c) ? (sticky(ISO_DATE, source, i) ?? sticky(DOTTED_DATE, source, i)) : undefined;
    if (date !== undefined) {
      tokens.push({ kind: 'date', text: date, at, end: i + date.length });
      i += date.length;
      continue;
    }
    const number = /[\d+-]/.test(c) ? sticky(NUMBER, source, i) : undefined;
    if (number !== undefined) {
      const end = i + number.length;
      if (sticky(NUMBER_TAIL, source, end) !== undefined) {
        const rest = /^[^\s()=<>!,]*/.exec(source.slice(end))![0];
        return problem(
          `'${number}${rest}' is neither a number nor a date: numbers are written 1234.5, dates 2026-01-31, 2026-01-31 14:05:00 or 31.01.2026, and text in quotes`,
          at,
          end + rest.length,
        );
      }
      tokens.push({ kind: 'number', text: number, at, end });
      i = end;
      continue;
    }
    const word = sticky(WORD, source, i);
    if (word !== undefined) {
      tokens.push({ kind: 'word', text: word, at, end: i + word.length });
      i += word.length;
      continue;
    }
    const punct = PUNCT.find((p) => source.startsWith(p, i));
    if (punct !== undefined) {
      tokens.push({ kind: 'punct', text: SAME_AS[punct] ?? punct, at, end: i + punct.length });
      i += punct.length;
      continue;
    }
    if (c === '.' && /\d/.test(source[i + 1] ?? ''))
      return problem(`a number starts with a digit: write 0.${/^\d+/.exec(source.slice(i + 1))![0]}`, at, at + 1);
    return problem(`unexpected '${c}'`, at, at + 1);
  }
  tokens.push({ kind: 'end', text: '', at: n, end: n });
  return tokens;
}

function quoted(source: string, from: number, quote: string): { text: string; end: number } | QueryProblem {
  let text = '';
  let i = from + 1;
  for (;;) {
    const close = source.indexOf(quote, i);
    if (close === -1) {
      const what = quote === '`' ? 'column name' : 'text';
      return problem(`the ${what} opened here has no closing ${quote}`, from, from + 1);
    }
    text += source.slice(i, close);
    if (source[close + 1] === quote) {
      text += quote;
      i = close + 2;
      continue;
    }
    return { text, end: close + 1 };
  }
}

export function problem(message: string, at: number, end: number): QueryProblem {
  return { message, at, end: Math.max(end, at) };
}
