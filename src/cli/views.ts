// Where `paygate query --view NAME` finds its view: in the template given with --template, else in the
// report templates (*.report.json) in the report's own folder (the working folder for standard input), as
// a report saved beside the template it came from is found by it. A name two templates there share must
// be told apart with --template; every template read is checked against the one schema.

import { readdir } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { parseReportTemplate, type ReportView } from '../core/gateway/reportTemplate';
import type { CliContext } from './context';
import { readInput } from './io';

export type FoundView = { ok: true; view: ReportView; template: string } | { ok: false; message: string };

const TEMPLATE = /\.report\.json$/i;
/** A template is small; a file this large named *.report.json is no template. */
const MAX_TEMPLATE_BYTES = 1024 * 1024;

async function viewsOf(path: string, name: string, ctx: CliContext): Promise<{ views: ReportView[] } | { message: string }> {
  const input = await readInput(path, ctx, { maxBytes: MAX_TEMPLATE_BYTES });
  if (!input.ok) return { message: input.message };
  const parsed = parseReportTemplate(input.text);
  if (!parsed.ok) {
    const p = parsed.problems[0];
    return { message: `${name}${p.line !== undefined ? `:${p.line}:${p.column}` : ''}: ${p.message}` };
  }
  return { views: parsed.template.views ?? [] };
}

/** The view called `view`, from `template` when given, else from the templates beside `file`. */
export async function findView(view: string, template: string | undefined, file: string, ctx: CliContext): Promise<FoundView> {
  if (template !== undefined) {
    const read = await viewsOf(template, template, ctx);
    if ('message' in read) return { ok: false, message: read.message };
    const found = read.views.find((v) => v.name === view);
    if (found) return { ok: true, view: found, template };
    const known = read.views.map((v) => `"${v.name}"`).join(', ');
    return { ok: false, message: `${template} has no view "${view}"${known ? ` (it has ${known})` : ' (it has none)'}` };
  }
  const folder = file === '-' ? ctx.cwd : dirname(resolve(ctx.cwd, file));
  const shown = file === '-' ? '.' : dirname(file);
  let names: string[];
  try {
    names = (await readdir(folder)).filter((n) => TEMPLATE.test(n)).sort();
  } catch (err) {
    return { ok: false, message: `${shown}: cannot list the report templates: ${(err as NodeJS.ErrnoException).code ?? String(err)}` };
  }
  const found: { view: ReportView; template: string }[] = [];
  const known: string[] = [];
  for (const n of names) {
    const shownName = join(shown, n);
    const read = await viewsOf(join(folder, n), shownName, ctx);
    // A broken template beside the report is said only when it could have held the view.
    if ('message' in read) {
      known.push(`${shownName} (unreadable: ${read.message})`);
      continue;
    }
    for (const v of read.views) {
      if (v.name === view) found.push({ view: v, template: shownName });
      else known.push(`"${v.name}" in ${shownName}`);
    }
  }
  if (found.length === 1) return { ok: true, ...found[0] };
  if (found.length > 1) {
    return { ok: false, message: `view "${view}" is in ${found.map((f) => f.template).join(' and ')}: name one with --template FILE` };
  }
  const where = names.length === 0 ? `no report template (*.report.json) in ${shown}` : `no view "${view}" in the templates in ${shown}`;
  return {
    ok: false,
    message: `${where}${known.length > 0 ? ` (found: ${known.join(', ')})` : ''}; name the template with --template FILE`,
  };
}
