import type { TextDocument } from 'vscode-languageserver-textdocument';
import { lint, type LintResult } from '../core/rules/lint';

/**
 * The last lint of each open document, valid for one document version. Diagnostics, code actions,
 * hovers and completion all read from here, so a hover or a lightbulb never lints the file again when
 * nothing changed since the last check, and a request after an edit sees the edit.
 */
export class LintStore {
  private readonly entries = new Map<string, { version: number; result: LintResult }>();

  /** The lint of the document as it is now: the cached one when the version matches, else a fresh one. */
  get(document: TextDocument): LintResult {
    const entry = this.entries.get(document.uri);
    if (entry && entry.version === document.version) return entry.result;
    const result = lint(document.getText());
    this.entries.set(document.uri, { version: document.version, result });
    return result;
  }

  /** The cached lint of exactly this version, without linting. */
  peek(uri: string, version: number): LintResult | undefined {
    const entry = this.entries.get(uri);
    return entry && entry.version === version ? entry.result : undefined;
  }

  delete(uri: string): void {
    this.entries.delete(uri);
  }
}
