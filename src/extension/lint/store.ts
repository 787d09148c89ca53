import * as vscode from 'vscode';
import { lint, type LintResult } from '../../core/rules/lint';

/**
 * The last lint of each open document, keyed by URI and valid for one document version. Diagnostics,
 * code actions and hovers all read from here, so a hover or a lightbulb never lints the file again when
 * nothing changed since the last check.
 */
export class LintStore {
  private readonly entries = new Map<string, { version: number; result: LintResult }>();

  /** The lint of the document as it is now: the cached one when the version matches, else a fresh one. */
  get(document: vscode.TextDocument): LintResult {
    const key = document.uri.toString();
    const entry = this.entries.get(key);
    if (entry && entry.version === document.version) return entry.result;
    const result = lint(document.getText());
    this.entries.set(key, { version: document.version, result });
    return result;
  }

  delete(uri: vscode.Uri): void {
    this.entries.delete(uri.toString());
  }

  clear(): void {
    this.entries.clear();
  }
}
