import type { CsvRecord } from '../core/csv/parse';
import type { LintResult } from '../core/rules/lint';
import type { RowFacts } from '../core/rules/rowFacts';
import type { Said } from '../core/output';
import type { LintDiagnostic } from '../core/rules/types';

// The small pieces the stream lint (streamLint.ts) keeps and counts with: what the core told of each row, a
// problem made safe to keep, and positions in a piece of text.

/**
 * A copy of a string (or a message's parts) that shares no memory with the text it was cut from. V8 keeps a cut of a long text
 * as a view of the whole text, so an id or a message kept from a chunk would keep the chunk alive.
 */
export function detached<T extends string | Said>(s: T): T {
  return JSON.parse(JSON.stringify(s)) as T;
}

/** What the core told of each row of a small file (LintOptions.onRow), kept as plain values. */
export class RowsTold {
  readonly starts: number[] = [];
  readonly ids: (string | undefined)[] = [];
  readonly idFrom: number[] = [];
  readonly idTo: number[] = [];
  /** The first SRC row, and the first SRC row needing a state: which row, and where its record is. */
  src: { i: number; start: number; end: number } | undefined;
  needsState: { i: number; start: number; end: number } | undefined;

  row(record: CsvRecord, facts: RowFacts): void {
    const i = this.starts.length;
    this.starts.push(record.start);
    this.ids.push(facts.orderId);
    this.idFrom.push(facts.orderIdStart);
    this.idTo.push(facts.orderIdEnd);
    if (facts.src && !this.src) this.src = { i, start: record.start, end: record.end };
    if (facts.srcNeedsState && !this.needsState) this.needsState = { i, start: record.start, end: record.end };
  }

  /** How many of the rows start before `offset` (all but, at most, the last: see StreamLint.cutAt). */
  before(offset: number): number {
    let n = this.starts.length;
    while (n > 0 && this.starts[n - 1] >= offset) n--;
    return n;
  }
}

/** The line `offset` is on: the line breaks before it (CRLF, LF or a lone CR). */
export function linesBefore(text: string, offset: number): number {
  let lines = 0;
  for (let at = text.indexOf('\n'); at !== -1 && at < offset; at = text.indexOf('\n', at + 1)) lines++;
  for (let at = text.indexOf('\r'); at !== -1 && at < offset; at = text.indexOf('\r', at + 1)) if (text.charCodeAt(at + 1) !== 10) lines++;
  return lines;
}

/** A problem to keep: no fixes (they hold the small file's text; a file the editor cannot pass is never edited through them) and its own message. */
export function keepable(d: LintDiagnostic): LintDiagnostic {
  return { code: d.code, severity: d.severity, message: detached(d.message), range: d.range, columnName: d.columnName, fixes: [] };
}

export function startsBefore(a: LintDiagnostic, b: LintDiagnostic): boolean {
  const s = a.range.start;
  const t = b.range.start;
  return s.line < t.line || (s.line === t.line && s.character < t.character);
}

/** The line ending that starts at `at`: CRLF, a lone CR, or LF (also at the end of the text). */
export function lineEndAt(text: string, at: number): '\r\n' | '\r' | '\n' {
  if (text.charCodeAt(at) !== 13) return '\n';
  return text.charCodeAt(at + 1) === 10 ? '\r\n' : '\r';
}

export function countRows(result: LintResult): number {
  const { csv, headerIndex, header } = result.batch;
  if (!header || header.isBlank) return 0;
  let rows = 0;
  for (let r = headerIndex + 1; r < csv.recordCount; r++) if (!csv.isBlankAt(r)) rows++;
  return rows;
}
