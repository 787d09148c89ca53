import { CodeActionKind, type Diagnostic, type TextDocumentContentChangeEvent } from 'vscode-languageserver';
import { addToGitignore, fileNameOf, fileOfUri, gitFileStatus, type GitFileStatus } from '../core/git';
import { cardDataInGit } from '../core/rules/cardDataInGit';
import { Codes } from '../core/rules/codes';
import type { LintResult } from '../core/rules/lint';
import type { LintDiagnostic } from '../core/rules/types';
import { said, typed } from '../core/output';
import type { OurAction } from './codeActions';

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
    const file = fileOfUri(uri);
    if (file === undefined) return false;
    const status = await gitFileStatus(file);
    this.entries.set(uri, { status });
    return status.tracking === 'tracked' || status.tracking === 'unignored';
  }

  /** Looks for the first full card number in the document as it is; the warning, if any. */
  check(uri: string, result: LintResult): LintDiagnostic | undefined {
    const entry = this.entries.get(uri);
    if (!entry) return undefined;
    entry.found = cardDataInGit(result.batch, entry.status.tracking, fileNameOf(fileOfUri(uri) ?? uri));
    return entry.found;
  }

  changed(uri: string, changes: readonly TextDocumentContentChangeEvent[]): void {
    const entry = this.entries.get(uri);
    const at = entry?.found?.range.start.line;
    if (at === undefined) return;
    if (changes.some((c) => !('range' in c) || c.range.start.line <= at)) entry!.found = undefined;
  }

  /** Where git stood with the file at the last refresh. */
  tracking(uri: string): GitFileStatus['tracking'] | undefined {
    return this.entries.get(uri)?.status.tracking;
  }

  diagnostic(uri: string): LintDiagnostic | undefined {
    return this.entries.get(uri)?.found;
  }

  /** "Add to .gitignore" for our warning on a file git does not track yet. */
  actions(uri: string, context: readonly Diagnostic[]): OurAction[] {
    const entry = this.entries.get(uri);
    if (entry?.status.tracking !== 'unignored') return [];
    const diagnostics = context.filter((d) => d.code === Codes.cardDataInGit);
    if (diagnostics.length === 0) return [];
    return [
      {
        // The file's name is free text: a card number in it is masked where the title is laid out.
        title: said`Add ${typed.text(fileNameOf(fileOfUri(uri) ?? uri))} to .gitignore`,
        kind: CodeActionKind.QuickFix,
        diagnostics,
        isPreferred: true,
        command: { command: ADD_TO_GITIGNORE, arguments: [uri] },
      },
    ];
  }

  /** Appends the file to its work tree's .gitignore (one anchored line), then asks git again. */
  async addToGitignore(uri: string): Promise<string> {
    const entry = this.entries.get(uri);
    const root = entry?.status.root;
    if (!root || entry.status.tracking !== 'unignored') throw new Error('the file is not an untracked, unignored file of a git work tree');
    const file = fileOfUri(uri);
    if (file === undefined) throw new Error('the document is no file on disk');
    const gitignore = await addToGitignore(root, file);
    await this.refresh(uri);
    return gitignore;
  }

  forget(uri: string): void {
    this.entries.delete(uri);
  }
}
