import { readFile, stat } from 'node:fs/promises';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { TextDocument as Lines } from 'vscode-languageserver-textdocument';
import { safeText, said, typed } from '../core/output';
import { LANGUAGE_ID } from '../shared/lintProtocol';
import { showWarning } from './say';
import { beyondSyncLimit, isBatch, megabytes } from './bigBatch';
import { uriArg, type CommandArgs } from './commandArgs';

// A batch the editor does not pass to extensions (over 50 MB, see bigBatch.ts), as a read-only
// TextDocument of the file on disk, so the commands that read a batch's text (submit, forecast,
// reconcile, signature details) work on it as on any other. It is the file as saved: the editor's
// unsaved changes never reach an extension, so a batch with some is saved first (the user is asked).

/** The file on disk as a TextDocument, when `uri` is a file too large for the editor to pass; undefined otherwise. */
export async function documentFromDisk(uri: vscode.Uri): Promise<vscode.TextDocument | undefined> {
  if (uri.scheme !== 'file') return undefined;
  let bytes: number;
  try {
    bytes = (await stat(uri.fsPath)).size;
  } catch {
    return undefined;
  }
  if (!beyondSyncLimit(bytes) || !(await savedIfDirty(uri, bytes))) return undefined;
  const text = new TextDecoder('utf-8').decode(await readFile(uri.fsPath));
  const firstLine = text.slice(0, 64 * 1024).split(/\r\n|\r|\n/, 1)[0] ?? '';
  return new DiskDocument(uri, isBatch(path.basename(uri.fsPath), firstLine) ? LANGUAGE_ID : 'plaintext', text);
}

/** Unsaved changes in the editor's tab of `uri` would not be read: asks to save them first. False when the user declines. */
async function savedIfDirty(uri: vscode.Uri, bytes: number): Promise<boolean> {
  const key = uri.toString();
  const dirty = vscode.window.tabGroups.all.some((g) =>
    g.tabs.some((t) => t.isDirty && t.input instanceof vscode.TabInputText && t.input.uri.toString() === key),
  );
  if (!dirty) return true;
  const name = safeText(path.basename(uri.fsPath));
  const choice = await showWarning(
    said`PayGate: ${typed.text(name)} has unsaved changes. At ${typed.text(megabytes(bytes))} it is too large for VS Code to pass to extensions, so PayGate reads it from disk: save it first?`,
    'Save',
  );
  return choice === 'Save' && (await vscode.workspace.save(uri)) !== undefined;
}

class DiskDocument implements vscode.TextDocument {
  readonly isUntitled = false;
  readonly encoding = 'utf8';
  readonly version = 1;
  readonly isDirty = false;
  readonly isClosed = false;
  readonly eol: vscode.EndOfLine;
  private readonly lines: Lines;

  constructor(
    readonly uri: vscode.Uri,
    readonly languageId: string,
    text: string,
  ) {
    this.lines = Lines.create(uri.toString(), languageId, 1, text);
    const lf = text.indexOf('\n');
    this.eol = lf > 0 && text.charCodeAt(lf - 1) === 13 ? vscode.EndOfLine.CRLF : vscode.EndOfLine.LF;
  }

  get fileName(): string {
    return this.uri.fsPath;
  }

  get lineCount(): number {
    return this.lines.lineCount;
  }

  save(): Thenable<boolean> {
    return Promise.resolve(false);
  }

  lineAt(at: number | vscode.Position): vscode.TextLine {
    const line = typeof at === 'number' ? at : at.line;
    if (line < 0 || line >= this.lineCount) throw new Error(`Illegal value for \`line\`: ${line}`);
    const withBreak = this.lines.getText({ start: { line, character: 0 }, end: { line: line + 1, character: 0 } });
    const text = withBreak.replace(/(\r\n|\r|\n)$/, '');
    const firstNonWhitespace = text.search(/\S/);
    return {
      lineNumber: line,
      text,
      range: new vscode.Range(line, 0, line, text.length),
      rangeIncludingLineBreak: new vscode.Range(line, 0, line, withBreak.length),
      firstNonWhitespaceCharacterIndex: firstNonWhitespace === -1 ? text.length : firstNonWhitespace,
      isEmptyOrWhitespace: firstNonWhitespace === -1,
    };
  }

  offsetAt(position: vscode.Position): number {
    return this.lines.offsetAt(position);
  }

  positionAt(offset: number): vscode.Position {
    const p = this.lines.positionAt(offset);
    return new vscode.Position(p.line, p.character);
  }

  getText(range?: vscode.Range): string {
    return this.lines.getText(range);
  }

  getWordRangeAtPosition(position: vscode.Position, regex = /[^\s;"]+/g): vscode.Range | undefined {
    const { text } = this.lineAt(position.line);
    const global = new RegExp(regex.source, regex.flags.includes('g') ? regex.flags : `${regex.flags}g`);
    for (const m of text.matchAll(global)) {
      const end = m.index + m[0].length;
      if (m.index <= position.character && position.character <= end && m[0].length > 0)
        return new vscode.Range(position.line, m.index, position.line, end);
    }
    return undefined;
  }

  validateRange(range: vscode.Range): vscode.Range {
    return new vscode.Range(this.validatePosition(range.start), this.validatePosition(range.end));
  }

  validatePosition(position: vscode.Position): vscode.Position {
    return this.positionAt(this.offsetAt(position));
  }
}

/**
 * The open document for the Uri (with unsaved edits), opened from disk otherwise; a file too large for
 * the editor to pass to extensions is read from disk as it is saved (documentFromDisk).
 */
export async function documentFor(args: CommandArgs): Promise<vscode.TextDocument | undefined> {
  const uri = uriArg(args);
  if (!uri) return undefined;
  try {
    return await vscode.workspace.openTextDocument(uri);
  } catch {
    return documentFromDisk(uri).catch(() => undefined);
  }
}
