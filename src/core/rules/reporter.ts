import type { Batch } from './batch';
import { CodeInfo, type Code } from './codes';
import type { Fix, LintDiagnostic } from './types';

// Where every check puts what it found: one diagnostic per problem, its range computed from offsets.

/** Builds diagnostics with ranges from offsets; one per problem. */
export class Reporter {
  readonly diagnostics: LintDiagnostic[] = [];
  constructor(readonly batch: Batch) {}

  add(code: Code, start: number, end: number, message: string, columnName: string | null, fixes: Fix[] = []): void {
    this.diagnostics.push({
      code,
      severity: CodeInfo[code].severity,
      message,
      range: this.batch.csv.index.range(start, end),
      columnName,
      fixes,
    });
  }
}
