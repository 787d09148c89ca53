import * as vscode from 'vscode';
import { newReportTemplate } from '../../core/gateway';
import { optionsArg, type CommandArgs } from '../commandArgs';
import { showError } from '../say';
import { said, typed } from '../../core/output';

// Report templates are `*.report.json` files: the manifest's jsonValidation gives them completion and
// checks from schemas/report-template.schema.json, and this command writes a fresh one.

export const REPORT_TEMPLATE_SUFFIX = '.report.json';

export function isReportTemplateUri(uri: vscode.Uri): boolean {
  return uri.path.toLowerCase().endsWith(REPORT_TEMPLATE_SUFFIX);
}

export function newReportTemplateText(): string {
  return `${JSON.stringify(newReportTemplate(), null, 2)}\n`;
}

export interface NewReportTemplateOptions {
  /** Where to write it (tests, automation); an existing file is never overwritten this way. */
  uri?: vscode.Uri | string;
}

export type NewReportTemplateResult = { ok: true; uri: vscode.Uri } | { ok: false; message: string };

export async function newReportTemplateCommand(...args: CommandArgs): Promise<NewReportTemplateResult | undefined> {
  const options = optionsArg<NewReportTemplateOptions>(args);
  let target = typeof options.uri === 'string' ? vscode.Uri.file(options.uri) : options.uri;
  if (target) {
    const exists = await vscode.workspace.fs.stat(target).then(
      () => true,
      () => false,
    );
    if (exists) {
      const message = `${target.fsPath} already exists; it was left as it is.`;
      void showError(said`PayGate: ${typed.text(message)}`);
      return { ok: false, message };
    }
  } else {
    const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
    target = await vscode.window.showSaveDialog({
      title: 'PayGate: new report template',
      defaultUri: folder ? vscode.Uri.joinPath(folder, `new${REPORT_TEMPLATE_SUFFIX}`) : undefined,
      filters: { 'Report template': ['json'] },
      saveLabel: 'Create template',
    });
    if (!target) return undefined;
  }
  // The schema and the Run command find templates by this suffix, so it is added when missing.
  if (!isReportTemplateUri(target)) {
    target = target.with({ path: target.path.replace(/(\.json)?$/i, REPORT_TEMPLATE_SUFFIX) });
  }
  await vscode.workspace.fs.writeFile(target, new TextEncoder().encode(newReportTemplateText()));
  const doc = await vscode.workspace.openTextDocument(target);
  const editor = await vscode.window.showTextDocument(doc);
  // The one value that must be filled in: the report's identifier from the support manager. Its
  // placeholder is selected, so typing (or pasting) the identifier replaces it.
  const key = '"reportIdentifier": "';
  const at = doc.getText().indexOf(key);
  if (at >= 0) {
    const from = at + key.length;
    const to = doc.getText().indexOf('"', from);
    editor.selection = new vscode.Selection(doc.positionAt(from), doc.positionAt(to < 0 ? from : to));
    editor.revealRange(editor.selection);
  }
  return { ok: true, uri: target };
}
