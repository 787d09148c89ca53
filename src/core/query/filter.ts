// The expression's tree turned into a test of one row: nested closures, never code built from text (no
// eval, no Function), reading cells where they lie (cells.ts). What a value is comes from how it was
// written: a number compares as an exact decimal, a date as a date, text in quotes as text without
// regard to case (Unicode lower case, no locale). A cell that cannot be read as the value's kind never
// matches a comparison with it, neither `=` nor `!=` (as SQL's NULL); `not (…)` matches it.

import { compareAmounts, type Amount } from '../amounts';
import { unescape } from '../csv/reportScan';
import type { ColumnRef, CompareOp, Expr, Literal, Operand } from './ast';
import { decimal, decimalAmount, moment, POW10, readDate, readDecimal } from './cells';

/** The cells of some rows: one text and per-cell offsets into it, row-major (the report reader's Piece). */
export interface Cells {
  text: string;
  start: Uint32Array;
  end: Uint32Array;
  escaped: Uint8Array | null;
}

/** Whether the row whose first cell is cell `i` of `p` passes. */
export type RowTest = (p: Cells, i: number) => boolean;

export const cellText = (p: Cells, k: number): string => unescape(p.text, p.start[k], p.end[k], p.escaped !== null && p.escaped[k] === 1);

const FLIPPED: Record<CompareOp, CompareOp> = { '=': '=', '!=': '!=', '<': '>', '<=': '>=', '>': '<', '>=': '<=' };

function holds(op: CompareOp, c: number): boolean {
  switch (op) {
    case '=':
      return c === 0;
    case '!=':
      return c !== 0;
    case '<':
      return c < 0;
    case '<=':
      return c <= 0;
    case '>':
      return c > 0;
    case '>=':
      return c >= 0;
  }
}

const sign = (a: number, b: number) => Number(a > b) - Number(a < b);

export function compileFilter(expr: Expr): RowTest {
  switch (expr.kind) {
    case 'and': {
      const tests = expr.terms.map(compileFilter);
      if (tests.length === 2) {
        const [l, r] = tests;
        return (p, i) => l(p, i) && r(p, i);
      }
      return (p, i) => tests.every((t) => t(p, i));
    }
    case 'or': {
      const tests = orTests(expr.terms);
      if (tests.length === 2) {
        const [l, r] = tests;
        return (p, i) => l(p, i) || r(p, i);
      }
      return (p, i) => tests.some((t) => t(p, i));
    }
    case 'not': {
      const e = compileFilter(expr.expr);
      return (p, i) => !e(p, i);
    }
    case 'compare':
      return compare(expr.op, expr.left, expr.right);
    case 'match':
      return match(expr.op, expr.column, expr.value, expr.negate);
    case 'in': {
      const tests = inList(expr.column, expr.values);
      return expr.negate ? (p, i) => !tests(p, i) : tests;
    }
    case 'empty': {
      const col = expr.column.index;
      const negate = expr.negate;
      return (p, i) => isBlank(p, i + col) !== negate;
    }
  }
}

/** From how many `=` of one column an `or` looks its values up in a set, as `in (…)` does. */
const SET_FROM = 8;

/** `column = literal` (either way round), or undefined. */
function equality(e: Expr): { column: ColumnRef; value: Literal } | undefined {
  if (e.kind !== 'compare' || e.op !== '=') return undefined;
  if (e.left.kind === 'column' && e.right.kind !== 'column') return { column: e.left, value: e.right };
  if (e.right.kind === 'column' && e.left.kind !== 'column') return { column: e.right, value: e.left };
  return undefined;
}

/**
 * The tests of an `or`'s terms. Many `=` of one column against values (`Amount = 1 or Amount = 2 or …`, as a
 * tool writes a list) are one `in (…)` of those values: the same rows (an `=` and `in` compare alike), a set
 * lookup a row instead of a comparison per term. The order of an `or`'s terms changes no answer.
 */
function orTests(terms: readonly Expr[]): RowTest[] {
  const lists = new Map<number, { column: ColumnRef; values: Literal[] }>();
  const rest: Expr[] = [];
  for (const term of terms) {
    const eq = equality(term);
    if (!eq) {
      rest.push(term);
      continue;
    }
    const list = lists.get(eq.column.index);
    if (list) list.values.push(eq.value);
    else lists.set(eq.column.index, { column: eq.column, values: [eq.value] });
  }
  const tests: RowTest[] = [];
  for (const { column, values } of lists.values())
    if (values.length >= SET_FROM) tests.push(inList(column, values));
    else for (const value of values) tests.push(literalCompare('=', column.index, value));
  for (const term of rest) tests.push(compileFilter(term));
  return tests;
}

function compare(op: CompareOp, left: Operand, right: Operand): RowTest {
  if (left.kind !== 'column') return compare(FLIPPED[op], right, left);
  if (right.kind === 'column') return columnsCompare(op, left.index, right.index);
  return literalCompare(op, left.index, right);
}

function literalCompare(op: CompareOp, col: number, lit: Literal): RowTest {
  switch (lit.kind) {
    case 'number': {
      const c = numberComparer(lit.amount);
      return (p, i) => {
        const k = i + col;
        const r = c(p, k);
        return r !== undefined && holds(op, r);
      };
    }
    case 'date': {
      const c = dateComparer(lit);
      return (p, i) => {
        const r = c(p, i + col);
        return r !== undefined && holds(op, r);
      };
    }
    case 'text': {
      const want = lit.text.toLowerCase();
      if (op === '=' || op === '!=') {
        const equal = op === '=';
        return (p, i) => (cellText(p, i + col).toLowerCase() === want) === equal;
      }
      return (p, i) => holds(op, textOrder(cellText(p, i + col).toLowerCase(), want));
    }
  }
}

const textOrder = (a: string, b: string) => Number(a > b) - Number(a < b);

/** The cell compared with an exact decimal: -1, 0, 1, or undefined when the cell is no amount. */
function numberComparer(lit: Amount): (p: Cells, k: number) => number | undefined {
  const abs = lit.units < 0n ? -lit.units : lit.units;
  // A double keeps every decimal of up to 15 digits apart and in order: compare doubles when both fit.
  const fast = abs < 10n ** 15n && lit.scale < POW10.length ? Number(lit.units) / POW10[lit.scale] : undefined;
  return (p, k) => {
    if (!readDecimal(p.text, p.start[k], p.end[k])) return undefined;
    if (fast !== undefined && decimal.big === null) return sign(decimal.units / POW10[decimal.scale], fast);
    return compareAmounts(decimalAmount(), lit);
  };
}

/**
 * The cell compared with a date: a date without a time stands for its whole day (a cell's time is then
 * not compared); with a time, a cell without one is at 00:00:00.
 */
function dateComparer(lit: Extract<Literal, { kind: 'date' }>): (p: Cells, k: number) => number | undefined {
  const whole = lit.second < 0;
  const at = lit.day * 86400 + Math.max(0, lit.second);
  return (p, k) => {
    if (!readDate(p.text, p.start[k], p.end[k])) return undefined;
    return whole ? sign(moment.day, lit.day) : sign(moment.day * 86400 + Math.max(0, moment.second), at);
  };
}

/**
 * Two columns: as decimals when both cells are, as dates when both are (a date without a time is its
 * whole day), as text when neither is either; a number against a date or text matches nothing.
 */
function columnsCompare(op: CompareOp, a: number, b: number): RowTest {
  return (p, i) => {
    const ka = i + a;
    const kb = i + b;
    const numberA = readDecimal(p.text, p.start[ka], p.end[ka]);
    const x = numberA ? decimalAmount() : undefined;
    const numberB = readDecimal(p.text, p.start[kb], p.end[kb]);
    if (numberA || numberB) return numberA && numberB && holds(op, compareAmounts(x!, decimalAmount()));
    const dateA = readDate(p.text, p.start[ka], p.end[ka]);
    const day = moment.day;
    const second = moment.second;
    const dateB = readDate(p.text, p.start[kb], p.end[kb]);
    if (dateA || dateB) {
      if (!(dateA && dateB)) return false;
      if (second < 0 || moment.second < 0) return holds(op, sign(day, moment.day));
      return holds(op, sign(day * 86400 + second, moment.day * 86400 + moment.second));
    }
    return holds(op, textOrder(cellText(p, ka).toLowerCase(), cellText(p, kb).toLowerCase()));
  };
}

const MATCHERS = {
  contains: (v: string, w: string) => v.includes(w),
  starts: (v: string, w: string) => v.startsWith(w),
  ends: (v: string, w: string) => v.endsWith(w),
};

function match(op: 'contains' | 'starts' | 'ends', column: ColumnRef, value: Operand, negate: boolean): RowTest {
  const col = column.index;
  const has = MATCHERS[op];
  if (value.kind === 'column') {
    const other = value.index;
    return (p, i) => has(cellText(p, i + col).toLowerCase(), cellText(p, i + other).toLowerCase()) !== negate;
  }
  const want = value.text.toLowerCase();
  return (p, i) => has(cellText(p, i + col).toLowerCase(), want) !== negate;
}

function inList(column: ColumnRef, values: Literal[]): RowTest {
  const col = column.index;
  const texts = new Set(values.flatMap((v) => (v.kind === 'text' ? [v.text.toLowerCase()] : [])));
  const numbers = numberSet(values.flatMap((v) => (v.kind === 'number' ? [v.amount] : [])));
  const dates = values.flatMap((v) => (v.kind === 'date' ? [literalCompare('=', col, v)] : []));
  const hasTexts = texts.size > 0;
  return (p, i) =>
    (hasTexts && texts.has(cellText(p, i + col).toLowerCase())) ||
    (numbers !== undefined && numbers(p, i + col)) ||
    (dates.length > 0 && dates.some((t) => t(p, i)));
}

/** An exact decimal without trailing zeros after its point: 12.50 and 12.5 are one value. */
function normalized(a: Amount): Amount {
  let { units, scale } = a;
  while (scale > 0 && units % 10n === 0n) {
    units /= 10n;
    scale--;
  }
  return { units, scale };
}

/**
 * Whether a cell is one of `amounts`, by exact decimal value: built once per query, a set lookup per row
 * (each number compared in turn made a list of a thousand numbers a thousand comparisons a row). The
 * values that fit a double exactly are kept as numbers per scale, the rest as text.
 */
function numberSet(amounts: Amount[]): ((p: Cells, k: number) => boolean) | undefined {
  if (amounts.length === 0) return undefined;
  const small: Set<number>[] = [];
  const large = new Set<string>();
  const bigKey = (a: Amount) => `${a.units}e${a.scale}`;
  const fits = (a: Amount) => a.scale < POW10.length && a.units <= SAFE && a.units >= -SAFE;
  for (const amount of amounts) {
    const a = normalized(amount);
    if (fits(a)) (small[a.scale] ??= new Set()).add(Number(a.units));
    else large.add(bigKey(a));
  }
  return (p, k) => {
    if (!readDecimal(p.text, p.start[k], p.end[k])) return false;
    if (decimal.big === null) {
      let units = decimal.units;
      let scale = decimal.scale;
      while (scale > 0 && units % 10 === 0) {
        units /= 10;
        scale--;
      }
      return small[scale]?.has(units) === true;
    }
    const a = normalized(decimal.big);
    return fits(a) ? small[a.scale]?.has(Number(a.units)) === true : large.has(bigKey(a));
  };
}

const SAFE = BigInt(Number.MAX_SAFE_INTEGER);

/** Empty, or spaces only. */
function isBlank(p: Cells, k: number): boolean {
  for (let j = p.start[k]; j < p.end[k]; j++) {
    const c = p.text.charCodeAt(j);
    if (c !== 32 && c !== 9) return false;
  }
  return true;
}
