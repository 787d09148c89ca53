// The filter expression's tree (parser.ts reads it, filter.ts turns it into a test of a row). Every node
// keeps where it was written, for problems found after reading.

import type { Amount } from '../amounts';

export type CompareOp = '=' | '!=' | '<' | '<=' | '>' | '>=';

interface Placed {
  /** Offsets into the expression: [at, end). */
  at: number;
  end: number;
}

export interface ColumnRef extends Placed {
  kind: 'column';
  /** The header's spelling. */
  name: string;
  index: number;
}

/** A value written in the expression: text in quotes, a number (an exact decimal) or a date. */
export type Literal =
  | (Placed & { kind: 'text'; text: string })
  | (Placed & { kind: 'number'; text: string; amount: Amount })
  /** `second` is -1 for a date without a time (a whole day). */
  | (Placed & { kind: 'date'; text: string; day: number; second: number });

export type Operand = ColumnRef | Literal;

export type Expr =
  /** A chain of `and` (or of `or`) held flat: two terms or more, in order (a long chain is no deep tree). */
  | { kind: 'and' | 'or'; terms: Expr[] }
  | { kind: 'not'; expr: Expr }
  | { kind: 'compare'; op: CompareOp; left: Operand; right: Operand }
  | { kind: 'match'; op: 'contains' | 'starts' | 'ends'; negate: boolean; column: ColumnRef; value: Operand }
  | { kind: 'in'; negate: boolean; column: ColumnRef; values: Literal[] }
  | { kind: 'empty'; negate: boolean; column: ColumnRef };
