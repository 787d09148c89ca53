import path from 'node:path';
import { saidText } from '../../core/output';
import type { Severity } from '../../core/rules/codes';
import type { LintDiagnostic } from '../../core/rules/types';
import type { Range } from '../../core/text';
import { displayPosition } from '../io';

// What every `paygate lint` output format starts from: the checked files with their diagnostics, in one
// stable order, with positions as people count them. Pure: no reading, no printing, no process globals.

export const LINT_FORMATS = ['text', 'json', 'sarif', 'github'] as const;
export type LintFormat = (typeof LINT_FORMATS)[number];

/** One checked file as the formatters receive it. */
export interface FileLint {
  /** The name as given on the command line (`<stdin>` for standard input). */
  file: string;
  /** Standard input has no path: no file location is made up for it. */
  stdin?: boolean;
  text: string;
  diagnostics: readonly LintDiagnostic[];
  /** Problems found past the listed ones (paygate lint lists the first 10,000 per file), by severity. */
  omitted?: Record<Severity, number>;
}

/** 1-based lines and columns (UTF-16 code units, the BOM not counted); the end column is exclusive. */
export interface DisplayRange {
  line: number;
  column: number;
  endLine: number;
  endColumn: number;
}

export interface ShownDiagnostic extends DisplayRange {
  diagnostic: LintDiagnostic;
}

export interface ShownFile {
  lint: FileLint;
  bom: boolean;
  diagnostics: ShownDiagnostic[];
}

export function hasBom(text: string): boolean {
  return text.charCodeAt(0) === 0xfeff;
}

/** The one conversion from the core's 0-based ranges to what every format prints. */
export function displayRange(range: Range, bom: boolean): DisplayRange {
  const s = displayPosition(range.start, bom);
  const e = displayPosition(range.end, bom);
  return { line: s.line, column: s.column, endLine: e.line, endColumn: e.column };
}

// Code-unit order, not locale order: the same bytes in, the same output out, on every machine.
function compare(a: string, b: string): number {
  if (a < b) return -1;
  return a > b ? 1 : 0;
}

function compareShown(a: ShownDiagnostic, b: ShownDiagnostic): number {
  return (
    a.line - b.line ||
    a.column - b.column ||
    compare(a.diagnostic.code, b.diagnostic.code) ||
    a.endLine - b.endLine ||
    a.endColumn - b.endColumn ||
    compare(saidText(a.diagnostic.message), saidText(b.diagnostic.message))
  );
}

/** Files sorted by name, each file's diagnostics by line, column and code (then end and message). */
export function showFiles(files: readonly FileLint[]): ShownFile[] {
  return [...files]
    .sort((a, b) => compare(a.file, b.file))
    .map((lint) => {
      const bom = hasBom(lint.text);
      const diagnostics = lint.diagnostics.map((diagnostic) => ({ diagnostic, ...displayRange(diagnostic.range, bom) })).sort(compareShown);
      return { lint, bom, diagnostics };
    });
}

export interface Summary {
  errors: number;
  warnings: number;
}

/** Every problem counts, listed or not. */
export function summarise(files: readonly FileLint[]): Summary {
  const all = files.flatMap((f) => f.diagnostics);
  const omitted = (s: Severity) => files.reduce((n, f) => n + (f.omitted?.[s] ?? 0), 0);
  return {
    errors: all.filter((d) => d.severity === 'error').length + omitted('error'),
    warnings: all.filter((d) => d.severity === 'warning').length + omitted('warning'),
  };
}

/** How many of a file's problems were not listed. */
export function omittedCount(f: FileLint): number {
  return f.omitted ? f.omitted.error + f.omitted.warning + f.omitted.information : 0;
}

/**
 * A file's path relative to the working directory with forward slashes, as CI systems name files in
 * a checkout; `inside` is false for a file outside the working directory (then `path` is absolute).
 */
export function relativeToCwd(file: string, cwd: string, pathApi: typeof path = path): { inside: boolean; path: string; absolute: string } {
  const absolute = pathApi.resolve(cwd, file);
  const rel = pathApi.relative(cwd, absolute);
  const inside = rel !== '' && !rel.startsWith('..') && !pathApi.isAbsolute(rel);
  const slashes = (p: string) => p.split(pathApi.sep).join('/');
  return { inside, path: slashes(inside ? rel : absolute), absolute: slashes(absolute) };
}
