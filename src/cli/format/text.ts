import { terminalField as field } from '../../core/output';
import { thousands } from '../../core/thousands';
import { omittedCount, showFiles, summarise, type FileLint } from './problems';

// `paygate lint` (default format): one `file:line:column: severity code message` line per problem, then
// a summary line. Problem matchers key on that line shape, so the file name and the message are each one
// value on the line (field(): a line break or escape sequence in them is shown escaped).

export function formatText(files: readonly FileLint[]): string {
  let out = '';
  for (const f of showFiles(files)) {
    const file = field(f.lint.file);
    for (const d of f.diagnostics)
      out += `${file}:${d.line}:${d.column}: ${d.diagnostic.severity} ${d.diagnostic.code} ${field(d.diagnostic.message)}\n`;
    const more = omittedCount(f.lint);
    if (more > 0)
      out += `${file}: ${thousands(more)} more problem${more === 1 ? '' : 's'} not listed (the first ${thousands(f.diagnostics.length)} are)\n`;
  }
  const summary = summarise(files);
  const plural = (n: number, w: string) => `${n} ${w}${n === 1 ? '' : 's'}`;
  return `${out}${plural(summary.errors, 'error')}, ${plural(summary.warnings, 'warning')} in ${plural(files.length, 'file')}\n`;
}
