import { joinLaid, laid, vet, words, type Laid, type Vetted } from '../../core/output';
import type { Severity } from '../../core/rules/codes';
import { relativeToCwd, showFiles, type FileLint } from './problems';

const field = vet.text;

// `paygate lint --format github`: GitHub Actions workflow commands, which the runner turns into
// annotations on the pull request: `::error file=…,line=…,col=…,endLine=…,endColumn=…,title=…::message`.
// Pure: the working directory is passed in (annotations name files relative to the checkout). A value
// from input (the file name, a message quoting a cell) passes field() first: one value, one line, no
// escape sequence; the runner's own escaping then keeps `%`, `:` and `,` from ending the command.

const COMMAND: Record<Severity, 'error' | 'warning' | 'notice'> = { error: 'error', warning: 'warning', information: 'notice' };

/** The runner's escaping of a command's message: `%`, CR and LF would end or garble the command. */
export function escapeData(s: string): string {
  return s.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}

/** A property value additionally may not hold `:` (ends the properties) or `,` (separates them). */
export function escapeProperty(s: string): string {
  return escapeData(s).replace(/:/g, '%3A').replace(/,/g, '%2C');
}

/**
 * A message laid out (each of its values checked alone), escaped for the runner: the escaping writes `%25`,
 * `%0D`, `%0A` after a `%`, which is no separator of a card number's digit groups, so it adds no card number
 * and the text stays laid out (it is not read whole again).
 */
const escaped = (message: Laid): Laid => escapeData(message) as Laid;

export function formatGithub(files: readonly FileLint[], context: { cwd: string }): Laid {
  const out: Laid[] = [];
  for (const f of showFiles(files)) {
    const file = f.lint.stdin ? undefined : field(relativeToCwd(f.lint.file, context.cwd).path);
    for (const { diagnostic: d, line, column, endLine, endColumn } of f.diagnostics) {
      // Each property's value checked alone: the file name as free text, positions as counts, the title ours.
      const props: [string, Vetted | Laid][] =
        file === undefined
          ? []
          : [
              ['file', field(escapeProperty(file))],
              ['line', vet.count(line)],
              ['col', vet.count(column)],
              ['endLine', vet.count(endLine)],
              ['endColumn', vet.count(endColumn)],
            ];
      props.push(['title', words(escapeProperty(`paygate ${d.code}`))]);
      const list = joinLaid(
        props.map(([k, v]) => laid`${words(k)}=${v}`),
        ',',
      );
      out.push(laid`::${words(COMMAND[d.severity])} ${list}::${escaped(laid`${d.message}`)}\n`);
    }
  }
  return joinLaid(out, '');
}
