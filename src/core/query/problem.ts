// A problem with a query: what is wrong and where in the expression ([at, end), 0-based offsets), so the
// CLI can point at it under the expression and the table's filter box can select it.

export interface QueryProblem {
  message: string;
  at: number;
  end: number;
}

/** 1-based line and column of an offset (an expression may span lines in a saved view or a shell). */
function problemPlace(source: string, at: number): { line: number; column: number } {
  const before = source.slice(0, at);
  const lines = before.split(/\r\n|\r|\n/);
  return { line: lines.length, column: lines[lines.length - 1].length + 1 };
}

/** "column 15: message" (or "line 2, column 3: …"), then the expression's line and a caret under the problem. */
export function describeProblem(source: string, p: QueryProblem): string {
  const { line, column } = problemPlace(source, p.at);
  const where = source.includes('\n') || source.includes('\r') ? `line ${line}, column ${column}` : `column ${column}`;
  const text = source.split(/\r\n|\r|\n/)[line - 1] ?? '';
  const width = Math.max(1, Math.min(p.end - p.at, text.length - column + 1));
  return `${where}: ${p.message}\n  ${text}\n  ${' '.repeat(column - 1)}${'^'.repeat(width)}`;
}
