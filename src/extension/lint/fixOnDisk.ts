import * as vscode from 'vscode';
import type { Middleware } from 'vscode-languageclient/node';
import type { TextEdit } from '../../core/text';
import { errorMessage } from '../../core/errorMessage';
import { applyOnDiskText, diskText, showsOtherBreaks, writeShown } from '../diskEdits';
import { log } from '../log';
import { showError, showWarning } from '../say';
import { said, typed } from '../../core/output';

// The light bulb's fixes on a file whose line breaks the editor shows otherwise than they are (a quoted LF
// in a CRLF file): VS Code holds one kind of break per document, so a fix applied to the buffer and then
// saved would rewrite every break. For a document without unsaved changes, a quick fix (one cell, "fix
// all of this kind", "fix all safe problems in the file") is handed to the editor as a command that makes
// the same edits on the file's bytes, byte for byte elsewhere, replaces the file in one step and lets the
// editor reload it. Anything else keeps the buffer path. Fix-on-save (source.fixAll.paygate) is not
// turned: VS Code writes the buffer at every explicit save, even without changes, so the breaks of a file
// saved in it are VS Code's to write (docs/editor.md, "Line breaks").

/** Internal (not contributed, kept out of the palette by its leading underscore). */
export const APPLY_FIX_ON_DISK = '_paygate.applyFixOnDisk';

/** Actions whose edit the language server gives only when picked (codeAction/resolve), by document. */
const lazy = new WeakMap<vscode.CodeAction, vscode.TextDocument>();

function plain(edits: readonly vscode.TextEdit[]): TextEdit[] {
  const at = (p: vscode.Position) => ({ line: p.line, character: p.character });
  return edits.map((e) => ({ range: { start: at(e.range.start), end: at(e.range.end) }, newText: e.newText }));
}

/** The quick fix as a command on the file's bytes, when its edit is of this document alone. */
function onDisk(doc: vscode.TextDocument, action: vscode.CodeAction): vscode.CodeAction {
  const entries = action.edit?.entries() ?? [];
  if (entries.length !== 1 || entries[0][0].toString() !== doc.uri.toString() || action.edit?.size !== 1) return action;
  const edits = plain(entries[0][1]);
  action.edit = undefined;
  action.command = { command: APPLY_FIX_ON_DISK, title: action.title, arguments: [doc.uri.toString(), doc.version, edits] };
  return action;
}

const isQuickFix = (a: vscode.Command | vscode.CodeAction): a is vscode.CodeAction =>
  typeof (a as vscode.Command).command !== 'string' && (a as vscode.CodeAction).kind?.value === vscode.CodeActionKind.QuickFix.value;

export const fixOnDiskMiddleware: Middleware = {
  async provideCodeActions(document, range, context, token, next) {
    const actions = await next(document, range, context, token);
    if (!actions || !actions.some(isQuickFix) || !(await showsOtherBreaks(document))) return actions;
    return actions.map((a) => {
      if (!isQuickFix(a)) return a;
      if (!a.edit) lazy.set(a, document);
      return a.edit ? onDisk(document, a) : a;
    });
  },
  async resolveCodeAction(item, token, next) {
    const resolved = await next(item, token);
    const doc = lazy.get(item);
    return doc && resolved?.edit && !doc.isDirty ? onDisk(doc, resolved) : resolved;
  },
};

/** The command: the edits on the file's bytes; on the buffer when the file or the document changed since. */
export async function applyFixOnDisk(uri: string, version: number, edits: TextEdit[]): Promise<void> {
  const doc = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri);
  if (!doc) return;
  if (doc.version !== version) {
    void showWarning(said`PayGate: the file changed after this fix was offered; nothing was changed. Open the light bulb again.`);
    return;
  }
  try {
    const disk = await diskText(doc);
    if (disk !== undefined) {
      await writeShown(doc, applyOnDiskText(disk, edits));
      log().info(
        said`Fixed ${typed.text(doc.uri.fsPath)} on disk (${typed.count(edits.length)} edit${edits.length === 1 ? said`` : said`s`}), its line breaks kept`,
      );
      return;
    }
    const edit = new vscode.WorkspaceEdit();
    const range = (r: TextEdit['range']) => new vscode.Range(r.start.line, r.start.character, r.end.line, r.end.character);
    edit.set(
      doc.uri,
      edits.map((e) => new vscode.TextEdit(range(e.range), e.newText)),
    );
    await vscode.workspace.applyEdit(edit);
  } catch (err) {
    void showError(said`PayGate: the fix could not be written to ${typed.text(doc.uri.fsPath)}: ${typed.text(errorMessage(err))}`);
  }
}
