import type { Range, TextEdit } from '../text';
import type { Code, Severity } from './codes';

/** A fix is a list of text edits; `safe` ones are applied by fixAll / `paygate fix`. */
export interface Fix {
  title: string;
  edits: TextEdit[];
  safe: boolean;
  /** The fix the editor offers first (the alias rename). */
  preferred?: boolean;
}

export interface LintDiagnostic {
  code: Code;
  severity: Severity;
  message: string;
  range: Range;
  /** The table's column name the problem concerns, or null (file-level, row-level problems). */
  columnName: string | null;
  fixes: Fix[];
}
