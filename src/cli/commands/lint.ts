import { lint as lintText } from '../../core/rules/lint';
import type { CliContext } from '../context';
import { displayPosition, readInput } from '../io';
import { EXIT } from '../output';
import { choiceOption, exits, paygateCommand, runCommand } from '../parser';

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

export interface LintOptions {
  format: 'text' | 'json';
}

export function lintCommand(ctx: CliContext) {
  return paygateCommand(
    {
      name: 'lint',
      summary: 'check recurring-payment CSV files (text or JSON report)',
      description: 'Checks recurring-payment CSV files against the rule book.',
      exits: [
        [0, 'no errors (warnings allowed)'],
        [1, 'errors found'],
        [2, 'usage error or unreadable file'],
      ],
    },
    ctx,
  )
    .argument('<FILE...>', 'files to check; - reads standard input')
    .addOption(
      choiceOption(
        '--format <FORMAT>',
        'text: one problem per line, file:line:column: severity code message; json: {"files":[{"file","diagnostics":[...]}],"summary":{"errors","warnings"}}',
        ['text', 'json']).default('text'),
    )
    .action(exits((files, o) => lintFiles(files, o, ctx)));
}

export const runLint = (args: string[], ctx: CliContext) => runCommand(lintCommand, args, ctx);

export async function lintFiles(paths: string[], values: LintOptions, ctx: CliContext): Promise<number> {
  const files: { file: string; diagnostics: JsonDiagnostic[] }[] = [];
  let unreadable = false;
  for (const path of paths) {
    const input = await readInput(path, ctx);
    if (!input.ok) {
      ctx.stderr(`paygate lint: ${input.message}\n`);
      unreadable = true;
      continue;
    }
    const result = lintText(input.text);
    const bom = result.batch.csv.bom;
    files.push({
      file: input.name,
      diagnostics: result.diagnostics.map((d) => {
        const s = displayPosition(d.range.start, bom);
        const e = displayPosition(d.range.end, bom);
        return { code: d.code, severity: d.severity, message: d.message, line: s.line, column: s.column, endLine: e.line, endColumn: e.column, columnName: d.columnName };
      }),
    });
  }

  const all = files.flatMap((f) => f.diagnostics);
  const summary = { errors: all.filter((d) => d.severity === 'error').length, warnings: all.filter((d) => d.severity === 'warning').length };
  if (values.format === 'json') {
    ctx.stdout(`${JSON.stringify({ files, summary })}\n`);
  } else {
    for (const f of files) {
      for (const d of f.diagnostics) ctx.stdout(`${f.file}:${d.line}:${d.column}: ${d.severity} ${d.code} ${d.message}\n`);
    }
    const plural = (n: number, w: string) => `${n} ${w}${n === 1 ? '' : 's'}`;
    ctx.stdout(`${plural(summary.errors, 'error')}, ${plural(summary.warnings, 'warning')} in ${plural(files.length, 'file')}\n`);
  }
  if (unreadable) return EXIT.usage;
  return summary.errors > 0 ? 1 : 0;
}
