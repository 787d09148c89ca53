import type { Said } from '../../core/output';
import { jsonOut } from '../output';
import { showFiles, summarise, type FileLint, type Summary } from './problems';

// `paygate lint --format json`: {"files":[{"file","diagnostics":[...]}],"summary":{"errors","warnings"}}.
// The shape and key order are public (scripts parse it); positions are 1-based, end column exclusive.

export interface JsonDiagnostic {
  code: string;
  severity: 'error' | 'warning' | 'information';
  /** Written as a string: jsonOut lays it out (saidText), each value checked alone, the line never read whole. */
  message: Said;
  line: number;
  column: number;
  endLine: number;
  endColumn: number;
  columnName: string | null;
}

export interface JsonReport {
  /** `omitted` only on a file with more problems than listed: {"errors","warnings","information"}. */
  files: { file: string; diagnostics: JsonDiagnostic[]; omitted?: { errors: number; warnings: number; information: number } }[];
  summary: Summary;
}

export function buildJson(files: readonly FileLint[]): JsonReport {
  return {
    files: showFiles(files).map((f) => ({
      ...(f.lint.omitted && {
        omitted: { errors: f.lint.omitted.error, warnings: f.lint.omitted.warning, information: f.lint.omitted.information },
      }),
      file: f.lint.file,
      diagnostics: f.diagnostics.map(({ diagnostic: d, line, column, endLine, endColumn }) => ({
        code: d.code,
        severity: d.severity,
        message: d.message,
        line,
        column,
        endLine,
        endColumn,
        columnName: d.columnName,
      })),
    })),
    summary: summarise(files),
  };
}

/** The JSON and a line break, vouched for when laid out from its values (jsonOut): write it at once. */
export function formatJson(files: readonly FileLint[]): string {
  return jsonOut(buildJson(files));
}
