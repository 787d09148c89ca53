import * as vscode from 'vscode';
import { writeFileAtomic } from '../core/atomicFile';
import { applyEdits, type TextEdit } from '../core/text';

// Edits made on a file's bytes rather than on the editor's copy of it. VS Code holds one kind of line
// break per document: a file mixing LF, CRLF and lone CRs (a quoted "Savings plan:\nrising amounts" in a
// CRLF file) is shown with every break made alike, and saving the buffer writes them all so. A fix made on
// the bytes changes only what it names; the file is replaced in one step (the core's writeFileAtomic) and
// the editor reloads it, as it does any document without unsaved changes whose file changed. Used by the
// submit's edits (strip the CVVs, move the already-sent rows) and the light bulb's fixes (lint/fixOnDisk.ts).

const BOM = '\ufeff';

/**
 * The file's text as it is on disk, when the document shows exactly that up to its line breaks (no
 * unsaved change, UTF-8); undefined otherwise, and then only the buffer can be edited.
 */
export async function diskText(doc: vscode.TextDocument): Promise<string | undefined> {
  if (doc.uri.scheme !== 'file' || doc.isDirty) return undefined;
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(await vscode.workspace.fs.readFile(doc.uri));
  } catch {
    return undefined;
  }
  const eol = doc.eol === vscode.EndOfLine.CRLF ? '\r\n' : '\n';
  const shown = (text.startsWith(BOM) ? text.slice(1) : text).replace(/\r\n|\r|\n/g, eol);
  return shown === doc.getText() ? text : undefined;
}

/** Which documents' files hold line breaks the editor shows otherwise, by the version it was asked for. */
const breaksAsked = new WeakMap<vscode.TextDocument, { version: number; differ: boolean }>();

/**
 * Whether saving the document would rewrite line breaks of its file (no unsaved change, and the file's
 * breaks are not all the document's kind). Read once per version of the document.
 */
export async function showsOtherBreaks(doc: vscode.TextDocument): Promise<boolean> {
  if (doc.uri.scheme !== 'file' || doc.isDirty) return false;
  const asked = breaksAsked.get(doc);
  if (asked && asked.version === doc.version) return asked.differ;
  const disk = await diskText(doc);
  const differ = disk !== undefined && (disk.startsWith(BOM) ? disk.slice(1) : disk) !== doc.getText();
  breaksAsked.set(doc, { version: doc.version, differ });
  return differ;
}

/**
 * Edits made on the editor's text applied to the file's bytes: a position is the same line and character
 * in both (every break, whatever its kind, is one break in the editor too; a byte order mark is not shown).
 */
export function applyOnDiskText(disk: string, edits: readonly TextEdit[]): string {
  const bom = disk.startsWith(BOM);
  const text = applyEdits(bom ? disk.slice(1) : disk, edits);
  return bom ? BOM + text : text;
}

/** Replaces the document's file with `text` in one step and waits (bounded) until the editor shows it. */
export async function writeShown(doc: vscode.TextDocument, text: string): Promise<void> {
  const before = doc.version;
  const shown = new Promise<void>((resolve) => {
    const done = () => {
      clearTimeout(timer);
      sub.dispose();
      resolve();
    };
    // The editor reloads a document without unsaved changes when its file changes; bounded, as every wait.
    const timer = setTimeout(done, 10_000);
    const sub = vscode.workspace.onDidChangeTextDocument((e) => {
      if (e.document === doc && doc.version !== before) done();
    });
  });
  await writeFileAtomic(doc.uri.fsPath, text);
  await shown;
}
