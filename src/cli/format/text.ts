import { joinLaid, laid, vet, words, type Laid } from '../../core/output';
import { thousands } from '../../core/thousands';
import { omittedCount, showFiles, summarise, type FileLint } from './problems';

const field = vet.text;

// `paygate lint` (default format): one `file:line:column: severity code message` line per problem, then
// a summary line. Problem matchers key on that line shape, so the file name and the message are each one
// value on the line (field(): a line break or escape sequence in them is shown escaped), the line and column
// counts: the line is laid out from values (core/output/laid.ts), not read whole again by the floor.

export function formatText(files: readonly FileLint[]): Laid {
  const out: Laid[] = [];
  for (const f of showFiles(files)) {
    const file = field(f.lint.file);
    for (const { diagnostic: d, line, column } of f.diagnostics)
      out.push(laid`${file}:${vet.count(line)}:${vet.count(column)}: ${words(d.severity)} ${words(d.code)} ${field(d.message)}\n`);
    const more = omittedCount(f.lint);
    if (more > 0) {
      const listed = vet.count(thousands(f.diagnostics.length));
      out.push(laid`${file}: ${plural(more, 'more problem', thousands)} not listed (the first ${listed} are)\n`);
    }
  }
  const summary = summarise(files);
  return laid`${joinLaid(out, '')}${plural(summary.errors, 'error')}, ${plural(summary.warnings, 'warning')} in ${plural(files.length, 'file')}\n`;
}

/** `3 errors`: the count checked as a count (written by `write`), the word ours. */
const plural = (n: number, w: string, write: (n: number) => string = String) =>
  laid`${vet.count(write(n))} ${words(w)}${words(n === 1 ? '' : 's')}`;
