import type { TextDocument } from 'vscode-languageserver-textdocument';
import type { LintResult } from '../core/rules/lint';
import { IncrementalLint, type RowText, type TextChange } from './incremental';

/**
 * The lint of each open document, valid for one document version, kept up to date incrementally from
 * the changes the client sends. Diagnostics, code actions, hovers and completion all read from here, so
 * a hover or a lightbulb never lints the file again when nothing changed, and a request after an edit
 * sees the edit.
 */
export class LintStore {
  private readonly entries = new Map<string, { linter: IncrementalLint; version?: number; result?: LintResult }>();

  private entry(uri: string) {
    let entry = this.entries.get(uri);
    if (!entry) this.entries.set(uri, (entry = { linter: new IncrementalLint() }));
    return entry;
  }

  /** Every change of an open document must come through here, in order. */
  changed(uri: string, changes: readonly TextChange[]): void {
    this.entry(uri).linter.changed(changes);
  }

  /** The lint of the document as it is now: the cached one when the version matches, else brought up to date. */
  get(document: TextDocument): LintResult {
    const entry = this.entry(document.uri);
    if (entry.result && entry.version === document.version) return entry.result;
    entry.result = entry.linter.lint(document);
    entry.version = document.version;
    return entry.result;
  }

  /** The header and the row at `line` as a small file, after bringing the lint up to date (see IncrementalLint.rowText). */
  rowText(document: TextDocument, line: number): RowText | undefined {
    this.get(document);
    return this.entry(document.uri).linter.rowText(document, line);
  }

  /** Work the next edit would otherwise wait for, done now (IncrementalLint.prepare). */
  prepare(uri: string): void {
    this.entries.get(uri)?.linter.prepare();
  }

  delete(uri: string): void {
    this.entries.delete(uri);
  }
}
