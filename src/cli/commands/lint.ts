import { lint as lintText } from '../../core/rules/lint';
import { commandArgs } from '../args';
import type { Command } from '../command';
import { formatLint, isLintFormat, lintExitCode, type FileLint } from '../format';
import { readInput } from '../io';
import { version } from '../version';

const HELP = `Usage: paygate lint [--format text|json|sarif|github] FILE...

Checks recurring-payment CSV files against the rule book. FILE may be - for standard input.

Options:
  --format FORMAT      text (default): one problem per line, file:line:column: severity code message
                       json: {"files":[{"file","diagnostics":[...]}],"summary":{"errors","warnings"}}
                       sarif: SARIF 2.1.0 for code scanning (paths relative to the working directory)
                       github: GitHub Actions annotations (::error file=…,line=…::message)
  -h, --help           this help

Output is sorted by file, line, column and code.

Exit status: 0 no errors (warnings allowed), 1 errors found, 2 usage error or unreadable file.`;

export const lint: Command = {
  summary: 'check recurring-payment CSV files (text, JSON, SARIF or GitHub annotations)',
  async run(args) {
    const parsed = commandArgs('lint', HELP, args, { format: { type: 'string', default: 'text' } });
    if (typeof parsed === 'number') return parsed;
    const { values, positionals } = parsed;
    if (!isLintFormat(values.format)) {
      process.stderr.write(`paygate lint: --format must be text, json, sarif or github, not "${values.format}"\n`);
      return 2;
    }
    if (positionals.length === 0) {
      process.stderr.write(`paygate lint: no FILE given\n${HELP}\n`);
      return 2;
    }

    const files: FileLint[] = [];
    const failures: string[] = [];
    for (const path of positionals) {
      const input = await readInput(path);
      if (!input.ok) {
        process.stderr.write(`paygate lint: ${input.message}\n`);
        failures.push(input.message);
        continue;
      }
      files.push({ file: input.name, stdin: path === '-', text: input.text, diagnostics: lintText(input.text).diagnostics });
    }
    process.stdout.write(formatLint(values.format, files, { cwd: process.cwd(), version, failures }));
    return lintExitCode(files, failures);
  },
};
