import { readFile, realpath, writeFile } from 'node:fs/promises';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { CodeActionKind, type CodeAction, type Diagnostic, type TextDocumentContentChangeEvent } from 'vscode-languageserver';
import { gitFileStatus, type GitFileStatus } from '../core/git';
import { cardDataInGit, withGitignoreEntry } from '../core/rules/cardDataInGit';
import { Codes } from '../core/rules/codes';
import type { LintResult } from '../core/rules/lint';
import type { LintDiagnostic } from '../core/rules/types';

/** The server's command behind "Add to .gitignore" (not `paygate.`: it is the server's, not a contributed one). */
export const ADD_TO_GITIGNORE = 'paygate-lsp.addToGitignore';

interface Entry {
  status: GitFileStatus;
  /** The warning as of the last check; dropped when an edit lands at or above it, until the next save. */
  found?: LintDiagnostic;
}

/**
 * card-data-in-git in the editor. What git keeps is the saved file, so the check runs when a file is
 * opened or saved (and after "Add to .gitignore"), never per keystroke: asking git and reading the
 * whole batch on every edit would undo the incremental lint. Only file: documents are in a work tree.
 */
export class GitGuard {
  private readonly entries = new Map<string, Entry>();

  /**
   * Asks git again where the file stands. True when git keeps or would keep it (tracked, or in a work
   * tree and not ignored): then `check` is worth its whole-file read.
   */
  async refresh(uri: string): Promise<boolean> {
    if (!uri.startsWith('file:')) return false;
    const status = await gitFileStatus(fileURLToPath(uri));
    this.entries.set(uri, { status });
    return status.tracking === 'tracked' || status.tracking === 'unignored';
  }

  /** Looks for the first full card number in the document as it is; the warning, if any. */
  check(uri: string, result: LintResult): LintDiagnostic | undefined {
    const entry = this.entries.get(uri);
    if (!entry) return undefined;
    entry.found = cardDataInGit(result.batch, entry.status.tracking, path.basename(fileURLToPath(uri)));
    return entry.found;
  }

  changed(uri: string, changes: readonly TextDocumentContentChangeEvent[]): void {
    const entry = this.entries.get(uri);
    const at = entry?.found?.range.start.line;
    if (at === undefined) return;
    if (changes.some((c) => !('range' in c) || c.range.start.line <= at)) entry!.found = undefined;
  }

  diagnostic(uri: string): LintDiagnostic | undefined {
    return this.entries.get(uri)?.found;
  }

  /** "Add to .gitignore" for our warning on a file git does not track yet. */
  actions(uri: string, context: readonly Diagnostic[]): CodeAction[] {
    const entry = this.entries.get(uri);
    if (entry?.status.tracking !== 'unignored') return [];
    const diagnostics = context.filter((d) => d.code === Codes.cardDataInGit);
    if (diagnostics.length === 0) return [];
    const title = `Add ${path.basename(fileURLToPath(uri))} to .gitignore`;
    return [{ title, kind: CodeActionKind.QuickFix, diagnostics, isPreferred: true, command: { title, command: ADD_TO_GITIGNORE, arguments: [uri] } }];
  }

  /** Appends the file to its work tree's .gitignore (one anchored line), then asks git again. */
  async addToGitignore(uri: string): Promise<string> {
    const entry = this.entries.get(uri);
    const root = entry?.status.root;
    if (!root || entry.status.tracking !== 'unignored') throw new Error('the file is not an untracked, unignored file of a git work tree');
    // git names the root with links resolved, so the file is too, or the entry could start with `..`.
    const file = await realpath(fileURLToPath(uri));
    const gitignore = path.join(root, '.gitignore');
    let text = '';
    try {
      text = await readFile(gitignore, 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    }
    await writeFile(gitignore, withGitignoreEntry(text, path.relative(root, file).split(path.sep).join('/')));
    await this.refresh(uri);
    return gitignore;
  }

  forget(uri: string): void {
    this.entries.delete(uri);
  }
}
