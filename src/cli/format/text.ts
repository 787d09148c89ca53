import { joinLaid, laid, vet, words, type Laid } from '../../core/output';
import { thousands } from '../../core/thousands';
import { omittedCount, showFiles, summarise, type FileLint } from './problems';

const field = vet.text;

// `paygate lint` (default format): one `file:line:column: severity code message` line per problem, then
// a summary line. Problem matchers key on that line shape, so the file name is one value on the line
// (field(): a line break or escape sequence in it is shown escaped), the line and column counts, and the
// message a `Said` laid out part by part (our words, each value by its type): the line is laid out from
// values (core/output/laid.ts), never read whole, so two values of a message never meet as one number.

export function formatText(files: readonly FileLint[]): Laid {
  const out: Laid[] = [];
  for (const f of showFiles(files)) {
    const file = field(f.lint.file);
    for (const { diagnostic: d, line, column } of f.diagnostics)
      out.push(laid`${file}:${vet.count(line)}:${vet.count(column)}: ${words(d.severity)} ${words(d.code)} ${d.message}\n`);
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
