// The filter expression, read by hand-written recursive descent (see docs/cli.md, "Query expressions"):
//
//   expression := term ('or' term)*
//   term       := factor ('and' factor)*
//   factor     := 'not' factor | '(' expression ')' | condition
//   condition  := operand ('=' | '!=' | '<' | '<=' | '>' | '>=') operand
//               | column ['not'] ('contains' | 'starts with' | 'ends with') operand
//               | column ['not'] 'in' '(' literal (',' literal)* ')'
//               | column 'is' ['not'] 'empty'
//   operand    := column | literal
//
// A chain of `and` or `or` is read in a loop into one flat node, and parentheses and `not` nest at most
// MAX_NESTING deep, refused past it at the place: so neither this reader nor the test filter.ts makes
// from the tree (one closure per node, called within each other) can run out of stack.
//
// Columns are resolved against the report's header while reading, so an unknown column is reported where
// it is written. The result is a tree (ast.ts) that filter.ts turns into closures: nothing is evaluated
// as code, so the results page's CSP stays without 'unsafe-eval'.

import { parseAmount } from '../amounts';
import type { ColumnRef, CompareOp, Expr, Literal, Operand } from './ast';
import { moment, readDate } from './cells';
import { findColumn, isAmountColumnName, KEYWORDS, quoteColumn } from './columns';
import { problem, tokenize, type Token } from './lexer';
import type { QueryProblem } from './problem';

/** How deep parentheses and `not` may nest. */
export const MAX_NESTING = 100;

const COMPARE_OPS = new Set(['=', '!=', '<', '<=', '>', '>=']);
const EXPECTED_CONDITION = '=, !=, <, <=, >, >=, contains, starts with, ends with, in (…) or is empty';

class Failure {
  constructor(readonly problem: QueryProblem) {}
}

/**
 * The expression's tree, or its first problem. An empty expression is no filter (undefined). Without
 * `columns` only the syntax is checked (before a report's header is known): any name is a column.
 */
export function parseExpression(
  source: string,
  columns: readonly string[] | undefined,
): { ok: true; expr: Expr | undefined } | { ok: false; problem: QueryProblem } {
  const tokens = tokenize(source);
  if (!Array.isArray(tokens)) return { ok: false, problem: tokens };
  if (tokens.length === 1) return { ok: true, expr: undefined };
  try {
    const parser = new Parser(tokens, columns);
    const expr = parser.expression();
    parser.expectEnd();
    return { ok: true, expr };
  } catch (err) {
    if (err instanceof Failure) return { ok: false, problem: err.problem };
    throw err;
  }
}

const describe = (t: Token): string => {
  switch (t.kind) {
    case 'end':
      return 'the end';
    case 'string':
      return `the text "${t.text}"`;
    case 'column':
      return `the column \`${t.text}\``;
    default:
      return `'${t.text}'`;
  }
};

class Parser {
  private i = 0;
  /** Parentheses and `not` open around the place being read. */
  private depth = 0;

  constructor(
    private readonly tokens: Token[],
    private readonly columns: readonly string[] | undefined,
  ) {}

  private get peek(): Token {
    return this.tokens[this.i];
  }

  private next(): Token {
    return this.tokens[Math.min(this.i++, this.tokens.length - 1)];
  }

  private fail(message: string, t: Token = this.peek): never {
    throw new Failure(problem(message, t.at, t.kind === 'end' ? t.at + 1 : t.end));
  }

  private isWord(word: string, t: Token = this.peek): boolean {
    return t.kind === 'word' && t.text.toLowerCase() === word;
  }

  private isPunct(p: string, t: Token = this.peek): boolean {
    return t.kind === 'punct' && t.text === p;
  }

  expectEnd(): void {
    const t = this.peek;
    if (t.kind === 'end') return;
    if (this.isPunct(')')) this.fail("')' closes no '('");
    this.fail(`expected 'and', 'or' or the end after a condition, found ${describe(t)}`);
  }

  expression(): Expr {
    const terms = [this.term()];
    while (this.isWord('or')) {
      this.next();
      terms.push(this.term());
    }
    return terms.length === 1 ? terms[0] : { kind: 'or', terms };
  }

  private term(): Expr {
    const terms = [this.factor()];
    while (this.isWord('and')) {
      this.next();
      terms.push(this.factor());
    }
    return terms.length === 1 ? terms[0] : { kind: 'and', terms };
  }

  /** One more level of parentheses or `not` at `t`, refused past MAX_NESTING. */
  private deeper(t: Token): void {
    if (++this.depth > MAX_NESTING)
      this.fail(`parentheses and 'not' nest more than ${MAX_NESTING} deep here; write the expression with fewer levels`, t);
  }

  private factor(): Expr {
    if (this.isWord('not')) {
      this.deeper(this.next());
      const expr: Expr = { kind: 'not', expr: this.factor() };
      this.depth--;
      return expr;
    }
    if (this.isPunct('(')) {
      const open = this.next();
      this.deeper(open);
      if (this.isPunct(')')) this.fail('expected a condition inside the parentheses');
      const expr = this.expression();
      this.depth--;
      if (!this.isPunct(')')) {
        if (this.peek.kind === 'end') this.fail("the '(' opened here has no ')'", open);
        this.fail(`expected 'and', 'or' or ')', found ${describe(this.peek)}`);
      }
      this.next();
      return expr;
    }
    return this.condition();
  }

  private condition(): Expr {
    const left = this.operand('a column or a value');
    const t = this.peek;
    if (t.kind === 'punct' && COMPARE_OPS.has(t.text)) {
      this.next();
      const right = this.operand(`a value after '${t.text}'`, true);
      if (left.kind !== 'column' && right.kind !== 'column')
        this.fail('compare a column with a value or another column, not two values', t);
      amountWithText(left, right);
      amountWithText(right, left);
      return { kind: 'compare', op: t.text as CompareOp, left, right };
    }
    const negate = this.isWord('not');
    if (negate) this.next();
    const word = this.peek.kind === 'word' ? this.peek.text.toLowerCase() : '';
    if (word === 'contains' || word === 'starts' || word === 'ends') return this.match(left, negate, word);
    if (word === 'in') return this.list(left, negate);
    if (word === 'is' && !negate) return this.empty(left);
    const after = left.kind === 'column' ? `the column ${left.name}` : 'a value';
    return this.fail(
      `expected ${negate ? 'contains, starts with, ends with or in' : EXPECTED_CONDITION} after ${after}, found ${describe(this.peek)}`,
    );
  }

  private columnOf(o: Operand, what: string): ColumnRef {
    if (o.kind === 'column') return o;
    throw new Failure(problem(`${what} needs a column on its left, not a value`, o.at, o.end));
  }

  private match(left: Operand, negate: boolean, word: 'contains' | 'starts' | 'ends'): Expr {
    const t = this.next();
    const column = this.columnOf(left, `'${t.text}'`);
    if (word !== 'contains') {
      if (!this.isWord('with')) this.fail(`expected 'with' after '${t.text}'`);
      this.next();
    }
    const value = this.operand(`a value after '${word === 'contains' ? 'contains' : `${word} with`}'`, true);
    return { kind: 'match', op: word, negate, column, value };
  }

  private list(left: Operand, negate: boolean): Expr {
    const t = this.next();
    const column = this.columnOf(left, "'in'");
    if (!this.isPunct('(')) this.fail(`expected '(' and a list of values after 'in', found ${describe(this.peek)}`);
    this.next();
    const values: Literal[] = [];
    for (;;) {
      const v = this.operand('a value in the list', true);
      if (v.kind === 'column') throw new Failure(problem("a list after 'in' holds values, not columns", v.at, v.end));
      values.push(v);
      if (this.isPunct(',')) {
        this.next();
        continue;
      }
      if (this.isPunct(')')) break;
      this.fail(`expected ',' or ')' in the list after 'in' (opened at column ${t.at + 1}), found ${describe(this.peek)}`);
    }
    this.next();
    return { kind: 'in', negate, column, values };
  }

  private empty(left: Operand): Expr {
    this.next();
    const column = this.columnOf(left, "'is empty'");
    const negate = this.isWord('not');
    if (negate) this.next();
    if (!this.isWord('empty')) this.fail(`expected 'empty' after 'is${negate ? ' not' : ''}', found ${describe(this.peek)}`);
    this.next();
    return { kind: 'empty', negate, column };
  }

  /** `value`: where a value is expected (after an operator), so a bare word is likely text without quotes. */
  private operand(expected: string, value = false): Operand {
    const t = this.peek;
    switch (t.kind) {
      case 'word':
        if (KEYWORDS.has(t.text.toLowerCase()))
          this.fail(`expected ${expected}, found the keyword '${t.text}' (a column of that name goes in backticks)`);
        return this.column(this.next(), value);
      case 'column':
        return this.column(this.next(), false);
      case 'string':
        this.next();
        return { kind: 'text', text: t.text, at: t.at, end: t.end };
      case 'number': {
        this.next();
        return { kind: 'number', text: t.text, amount: parseAmount(t.text)!, at: t.at, end: t.end };
      }
      case 'date': {
        this.next();
        if (!readDate(t.text, 0, t.text.length)) this.fail(`${t.text} is not a real date and time`, t);
        return { kind: 'date', text: t.text, day: moment.day, second: moment.second, at: t.at, end: t.end };
      }
      default:
        return this.fail(`expected ${expected}, found ${describe(t)}`);
    }
  }

  private column(t: Token, value: boolean): ColumnRef {
    if (this.columns === undefined) return { kind: 'column', name: t.text, index: -1, at: t.at, end: t.end };
    const found = findColumn(this.columns, t.text);
    if (!found.ok) {
      const hint = value ? ` (text is written in quotes: "${t.text}")` : '';
      throw new Failure(problem(`${found.message}${hint}`, t.at, t.end));
    }
    return { kind: 'column', name: this.columns[found.index], index: found.index, at: t.at, end: t.end };
  }
}

/**
 * An amount column compared with text in quotes matches no row, ever: a value's kind is how it is written,
 * and "abc" (or "10") is text. Said, at the text, rather than answered with no rows.
 */
function amountWithText(column: Operand, value: Operand): void {
  if (column.kind !== 'column' || value.kind !== 'text' || !isAmountColumnName(column.name)) return;
  const number = parseAmount(value.text.trim()) !== undefined;
  const hint = number ? `: write ${value.text.trim()} without quotes` : `, such as ${quoteColumn(column.name)} >= 10.00`;
  throw new Failure(
    problem(
      `${quoteColumn(column.name)} holds amounts: compare it with a number, not the text "${value.text}"${hint}`,
      value.at,
      value.end,
    ),
  );
}
