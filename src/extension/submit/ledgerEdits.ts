import * as path from 'node:path';
import * as vscode from 'vscode';
import { taggedName } from '../../core/freeName';
import type { AlreadySentRow } from '../../core/ledger';
import { readBatch } from '../../core/rules/batch';
import { moveRowsOut, stripCvv, stripCvvEdits } from '../../core/rules/batchEdits';
import { applyEdits, type TextEdit } from '../../core/text';
import { diskText, writeShown } from '../diskEdits';
import { log, showErrorWithLog } from '../log';
import { showWarning } from '../say';
import { errorMessage } from '../../core/errorMessage';
import { said, typed } from '../../core/output';

// What the editor does about the ledger's findings on a batch, with the core's edits (the same the
// language server's quick fixes and `paygate fix --strip-cvv` make): rows already sent moved into a file
// of their own, and the CVVs of an accepted batch emptied. A document without unsaved changes is edited on
// its file's bytes (the editor may show a file's line breaks otherwise than they are); one with unsaved
// changes, in one WorkspaceEdit: one undo.

function toVscode(edits: readonly TextEdit[]): vscode.TextEdit[] {
  return edits.map(
    (e) =>
      new vscode.TextEdit(
        new vscode.Range(e.range.start.line, e.range.start.character, e.range.end.line, e.range.end.character),
        e.newText,
      ),
  );
}

/** A name beside `uri` that is not taken: NAME.already-sent.rpcsv, then NAME.already-sent-2.rpcsv, … */
async function freeName(uri: vscode.Uri): Promise<vscode.Uri> {
  // Bounded: a hundred such files beside one batch would be a mistake of its own.
  for (let n = 1; n <= 100; n++) {
    const candidate = uri.with({ path: taggedName(uri.path, 'already-sent', n) });
    const exists = await vscode.workspace.fs.stat(candidate).then(
      () => true,
      () => false,
    );
    if (!exists) return candidate;
  }
  throw new Error(`too many .already-sent files beside ${path.basename(uri.path)}`);
}

/**
 * Moves the rows already sent out of `doc` into a new file beside it (the header and those rows as
 * written). A document without unsaved changes is edited on disk, byte for byte elsewhere, and stays
 * saved; one with unsaved changes is edited in the editor (one undo) and left unsaved.
 * The new file's Uri and whether the document is saved, or undefined when it is not a file on disk.
 */
export async function moveAlreadySentRows(
  doc: vscode.TextDocument,
  rows: readonly AlreadySentRow[],
): Promise<{ target: vscode.Uri; saved: boolean } | undefined> {
  if (doc.uri.scheme !== 'file') return undefined;
  const lines = new Set(rows.map((r) => r.line));
  const target = await freeName(doc.uri);
  const disk = await diskText(doc);
  if (disk !== undefined) {
    // Line numbers are the same in both: every break, whatever its kind, is one break in the editor too.
    const { moved, edits } = moveRowsOut(readBatch(disk), lines);
    // The moved rows first: were the second write to fail, they would be in both files, never in neither.
    await vscode.workspace.fs.writeFile(target, Buffer.from(moved, 'utf8'));
    await writeShown(doc, applyEdits(disk, edits));
    return { target, saved: true };
  }
  const { moved, edits } = moveRowsOut(readBatch(doc.getText()), lines);
  const edit = new vscode.WorkspaceEdit();
  edit.createFile(target, { contents: Buffer.from(moved, 'utf8') });
  edit.set(doc.uri, toVscode(edits));
  if (!(await vscode.workspace.applyEdit(edit))) throw new Error(`the edit moving ${rows.length} rows was not applied`);
  return { target, saved: false };
}

/**
 * Empties every cvv2 value of `doc` and saves it; how many there were. A document without unsaved changes
 * is edited on disk (only the cvv2 cells change, every line break stays as it was).
 */
export async function stripCvvInDocument(doc: vscode.TextDocument): Promise<number> {
  const disk = await diskText(doc);
  if (disk !== undefined) {
    const { text, count } = stripCvv(disk, readBatch(disk));
    if (count > 0) await writeShown(doc, text);
    return count;
  }
  const edits = stripCvvEdits(readBatch(doc.getText()));
  if (edits.length === 0) return 0;
  const edit = new vscode.WorkspaceEdit();
  edit.set(doc.uri, toVscode(edits));
  if (!(await vscode.workspace.applyEdit(edit))) throw new Error('the edit emptying the cvv2 values was not applied');
  // The CVVs must leave the disk, not only the buffer.
  if (doc.uri.scheme === 'file') await doc.save();
  return edits.length;
}

/** Whether the batch holds a non-empty cvv2 value. */
export function holdsCvv(text: string): boolean {
  return stripCvvEdits(readBatch(text)).length > 0;
}

/**
 * Right after an accepted submit of a batch holding CVVs: PCI DSS forbids keeping them after
 * authorisation, so the person is offered to empty them (the same edit as `paygate fix --strip-cvv`).
 * `answer` (tests) decides without asking; otherwise the notification is not waited for.
 */
export async function offerStripCvv(doc: vscode.TextDocument, name: string, answer: boolean | undefined): Promise<void> {
  const strip = async () => {
    try {
      const n = await stripCvvInDocument(doc);
      log().info(said`Submit ${typed.text(name)}: emptied ${typed.count(n)} cvv2 value${n === 1 ? said`` : said`s`}`);
    } catch (err) {
      void showErrorWithLog(said`PayGate: the cvv2 values of ${typed.text(name)} could not be emptied: ${typed.text(errorMessage(err))}`);
    }
  };
  if (answer !== undefined) {
    if (answer) await strip();
    return;
  }
  const action = 'Empty the cvv2 values';
  void showWarning(
    said`PayGate: ${typed.text(name)} was accepted and still holds CVVs, which must not be kept after authorisation (PCI DSS 3.3.1.2).`,
    action,
  ).then((choice) => (choice === action ? strip() : undefined));
}
