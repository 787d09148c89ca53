import { lint as lintText } from '../../core/rules/lint';
import { commandArgs } from '../args';
import type { Command } from '../command';
import { displayPosition, maxBytesOption, readInput } from '../io';

const HELP = `Usage: paygate lint [--format text|json] [--max-bytes N] FILE...

Checks recurring-payment CSV files against the rule book. FILE may be - for standard input.

Options:
  --format text|json   text (default): one problem per line, file:line:column: severity code message
                       json: {"files":[{"file","diagnostics":[...]}],"summary":{"errors","warnings"}};
                       a file with more problems than listed also has "omitted":{"errors","warnings","information"}
  --max-bytes N        read files up to N bytes (default 512M; K, M, G suffixes); only regular files
                       (or - for standard input) are read
  -h, --help           this help

At most 10,000 problems are listed per file (by position); the rest are counted in the summary.

Exit status: 0 no errors (warnings allowed), 1 errors found, 2 usage error or unreadable file.`;

/**
 * Problems listed per file; the rest are counted (in the summary and the file's `omitted`). A file
 * broken on every line would otherwise hold millions of diagnostics in memory and flood the log.
 */
export const MAX_LISTED = 10_000;

interface JsonDiagnostic {
  code: string;
  severity: 'error' | 'warning' | 'information';
  message: string;
  line: number;
  column: number;
  endLine: number;
  endColumn: number;
  columnName: string | null;
}

export const lint: Command = {
  summary: 'check recurring-payment CSV files (text or JSON report)',
  async run(args) {
    const parsed = commandArgs('lint', HELP, args, { format: { type: 'string', default: 'text' }, 'max-bytes': { type: 'string' } });
    if (typeof parsed === 'number') return parsed;
    const { values, positionals } = parsed;
    if (values.format !== 'text' && values.format !== 'json') {
      process.stderr.write(`paygate lint: --format must be text or json, not "${values.format}"\n`);
      return 2;
    }
    const maxBytes = maxBytesOption(values['max-bytes']);
    if (maxBytes === null) {
      process.stderr.write(`paygate lint: --max-bytes must be a whole number of bytes (e.g. 1073741824 or 1G), not "${values['max-bytes']}"\n`);
      return 2;
    }
    if (positionals.length === 0) {
      process.stderr.write(`paygate lint: no FILE given\n${HELP}\n`);
      return 2;
    }

    const files: { file: string; diagnostics: JsonDiagnostic[]; omitted?: { errors: number; warnings: number; information: number } }[] = [];
    let unreadable = false;
    for (const path of positionals) {
      const input = await readInput(path, { maxBytes });
      if (!input.ok) {
        process.stderr.write(`paygate lint: ${input.message}\n`);
        unreadable = true;
        continue;
      }
      const result = lintText(input.text, { maxDiagnostics: MAX_LISTED });
      const bom = result.batch.csv.bom;
      const o = result.omitted;
      files.push({
        ...(o && { omitted: { errors: o.error, warnings: o.warning, information: o.information } }),
        file: input.name,
        diagnostics: result.diagnostics.map((d) => {
          const s = displayPosition(d.range.start, bom);
          const e = displayPosition(d.range.end, bom);
          return { code: d.code, severity: d.severity, message: d.message, line: s.line, column: s.column, endLine: e.line, endColumn: e.column, columnName: d.columnName };
        }),
      });
    }

    const all = files.flatMap((f) => f.diagnostics);
    const omitted = (key: 'errors' | 'warnings') => files.reduce((n, f) => n + (f.omitted?.[key] ?? 0), 0);
    const summary = { errors: all.filter((d) => d.severity === 'error').length + omitted('errors'), warnings: all.filter((d) => d.severity === 'warning').length + omitted('warnings') };
    if (values.format === 'json') {
      process.stdout.write(`${JSON.stringify({ files, summary })}\n`);
    } else {
      for (const f of files) {
        for (const d of f.diagnostics) process.stdout.write(`${f.file}:${d.line}:${d.column}: ${d.severity} ${d.code} ${d.message}\n`);
        if (f.omitted) {
          const more = f.omitted.errors + f.omitted.warnings + f.omitted.information;
          process.stdout.write(`${f.file}: ${more.toLocaleString('en-US')} more problem${more === 1 ? '' : 's'} not listed (the first ${MAX_LISTED.toLocaleString('en-US')} are)\n`);
        }
      }
      const plural = (n: number, w: string) => `${n} ${w}${n === 1 ? '' : 's'}`;
      process.stdout.write(`${plural(summary.errors, 'error')}, ${plural(summary.warnings, 'warning')} in ${plural(files.length, 'file')}\n`);
    }
    if (unreadable) return 2;
    return summary.errors > 0 ? 1 : 0;
  },
};
