import { vouched } from '../../core/output';
import { formatGithub } from './github';
import { formatJson } from './json';
import type { FileLint, LintFormat } from './problems';
import { formatSarif } from './sarif';
import { formatText } from './text';

export { LINT_FORMATS, type FileLint, type LintFormat } from './problems';

export interface FormatContext {
  cwd: string;
  version: string;
  /** Messages about files that could not be read (they are also written to standard error). */
  failures: readonly string[];
}

/**
 * The whole standard output of `paygate lint` in one format, laid out from its values and vouched for
 * (core/output/laid.ts; a JSON document holding a number that is not a count is not): write it at once.
 */
export function formatLint(format: LintFormat, files: readonly FileLint[], context: FormatContext): string {
  switch (format) {
    case 'text':
      return vouched(formatText(files));
    case 'json':
      return formatJson(files);
    case 'sarif':
      return formatSarif(files, context);
    case 'github':
      return vouched(formatGithub(files, context));
  }
}

/** Today's exit status, the same for every format: 2 unreadable input, 1 errors, 0 otherwise. */
export function lintExitCode(files: readonly FileLint[], failures: readonly unknown[]): number {
  if (failures.length > 0) return 2;
  return files.some((f) => (f.omitted?.error ?? 0) > 0 || f.diagnostics.some((d) => d.severity === 'error')) ? 1 : 0;
}
