// The saved views the table offers (docs/results-table.md, "Saved views"): those of the template a
// report was run from, or, for a CSV file, of the report templates (*.report.json) in its folder, as
// `paygate query --view` finds them. A template that does not pass the one schema offers none.
import * as vscode from 'vscode';
import { parseReportTemplate, type ReportTemplate } from '../../core/gateway/reportTemplate';
import type { SavedView } from '../../shared/resultsProtocol';
import { log } from '../log';
import { said, typed } from '../../core/output';

const TEMPLATE = /\.report\.json$/i;
/** A template is small: a larger file of that name is not read. */
const MAX_TEMPLATE_BYTES = 1024 * 1024;

export function viewsOf(template: ReportTemplate, name: string): SavedView[] {
  return (template.views ?? []).map((v) => ({ ...v, template: name }));
}

export async function viewsBeside(file: vscode.Uri): Promise<SavedView[]> {
  const folder = vscode.Uri.joinPath(file, '..');
  let entries: [string, vscode.FileType][];
  try {
    entries = await vscode.workspace.fs.readDirectory(folder);
  } catch {
    return [];
  }
  const views: SavedView[] = [];
  for (const [name, type] of entries
    .filter(([n, t]) => TEMPLATE.test(n) && t === vscode.FileType.File)
    .sort(([a], [b]) => a.localeCompare(b))) {
    const uri = vscode.Uri.joinPath(folder, name);
    try {
      if ((await vscode.workspace.fs.stat(uri)).size > MAX_TEMPLATE_BYTES || type !== vscode.FileType.File) continue;
      const parsed = parseReportTemplate(new TextDecoder().decode(await vscode.workspace.fs.readFile(uri)));
      if (parsed.ok) for (const v of viewsOf(parsed.template, name)) views.push(v);
      else log().info(said`Results table: ${typed.text(name)} is not a valid report template; its views are not offered`);
    } catch (err) {
      log().info(said`Results table: cannot read ${typed.text(name)}: ${typed.text(String(err))}`);
    }
  }
  return views;
}
