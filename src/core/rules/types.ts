import type { Said } from '../output';
import type { Range, TextEdit } from '../text';
import type { Code, Severity } from './codes';

/** A fix is a list of text edits; `safe` ones are applied by fixAll / `paygate fix`. */
export interface Fix {
  /**
   * What the fix does, as our words and the value it would write by its type (core/output/said.ts), laid out
   * at each face (the editor's light bulb, `paygate fix`, SARIF): never a composed string (issue 38).
   */
  title: Said;
  edits: TextEdit[];
  safe: boolean;
  /** The fix the editor offers first (the alias rename). */
  preferred?: boolean;
}

export interface LintDiagnostic {
  code: Code;
  severity: Severity;
  /**
   * Our words and each value by its type (core/output/said.ts), never a composed string: every face lays it
   * out at its own boundary (saidText, the CLI's laid path), each value checked alone (issue 38).
   */
  message: Said;
  range: Range;
  /** The table's column name the problem concerns, or null (file-level, row-level problems). */
  columnName: string | null;
  fixes: Fix[];
}
