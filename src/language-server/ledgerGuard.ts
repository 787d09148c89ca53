import { CodeActionKind, type Diagnostic, type TextDocumentContentChangeEvent, type WorkspaceEdit } from 'vscode-languageserver';
import { fileOfUri } from '../core/git';
import { freeTagNumber, taggedName } from '../core/freeName';
import { Ledger, type LedgerStore } from '../core/ledger';
import { errorMessage } from '../core/errorMessage';
import { readBatch, type Batch } from '../core/rules/batch';
import { moveRowsOut, stripCvvEdits } from '../core/rules/batchEdits';
import { Codes } from '../core/rules/codes';
import { sameMessage } from '../core/rules/message';
import { ledgerDiagnostics } from '../core/ledgerLint/ledgerChecks';
import type { LintDiagnostic } from '../core/rules/types';
import type { LedgerTarget } from '../shared/lintProtocol';
import { ourWords, said, typed } from '../core/output';
import type { OurAction } from './codeActions';
import { toWorkspaceEdit } from './convert';
import { openTeamStore, sameTeam } from './teamStore';

// already-sent and cvv-after-send in the editor: what the submission ledger says of the document, beside
// the lint's problems. The ledger is read when a document is opened or saved, when the client names
// another target or says the ledger changed, and a moment after an edit of a document small enough to
// read again whole (LEDGER_RECHECK_MAX_LINES); never per keystroke of a million-row batch, whose
// findings below an edit are dropped until the next save (rows may have moved).
// With a team ledger (the target's `team`) the store is the team's, as submit's is: when it cannot be read,
// check() rejects with a GuardUnchecked that says so (the session shows it), never "nothing sent".

/** The resend guard could not be checked: the team ledger (or the file ledger) could not be read. */
export class GuardUnchecked extends Error {}

/** Documents up to this many lines are checked again a moment after an edit; longer ones on save. */
export const LEDGER_RECHECK_MAX_LINES = 50_000;

interface Entry {
  /** The document version the findings are of. */
  version: number;
  found: LintDiagnostic[];
}

export class LedgerGuard {
  private target?: LedgerTarget;
  private ledger?: LedgerStore | Error;
  private readonly entries = new Map<string, Entry>();

  /**
   * A new target (or none): every document's findings are dropped until checked again; true then. The
   * same target again (the ledger changed) keeps them until the check replaces them.
   */
  setTarget(target: LedgerTarget | undefined): boolean {
    const t = this.target;
    const same =
      t?.directory === target?.directory &&
      t?.environment === target?.environment &&
      t?.endpointId === target?.endpointId &&
      t?.localStateDir === target?.localStateDir &&
      t?.url === target?.url &&
      sameTeam(t?.team, target?.team);
    if (same) return false;
    this.target = target;
    const old = this.ledger;
    if (old && !(old instanceof Error) && old.kind === 'team') void old.close().catch(() => undefined);
    this.ledger = target && openStore(target);
    this.entries.clear();
    return true;
  }

  get active(): boolean {
    return this.target !== undefined;
  }

  /**
   * Reads the ledger for the document as it is; true when its findings changed. Nothing (and no file
   * written) when no ledger is there yet. Findings of a version edited meanwhile are not kept.
   */
  async check(uri: string, document: { version: number; getText(): string }): Promise<boolean> {
    const ledger = this.ledger;
    const target = this.target;
    if (ledger instanceof Error) throw new GuardUnchecked(ledger.message);
    if (!ledger || !target || (ledger.kind === 'file' && !(await ledger.exists()))) return this.set(uri, document.version, []);
    const version = document.version;
    const batch = readBatch(document.getText());
    let diagnostics: LintDiagnostic[];
    try {
      ({ diagnostics } = await ledgerDiagnostics(ledger, batch, {
        target: {
          environment: target.environment,
          endpointId: target.endpointId,
          ...(target.localStateDir !== undefined && { localStateDir: target.localStateDir }),
          ...(target.url !== undefined && { url: target.url }),
        },
      }));
    } catch (err) {
      if (ledger.kind === 'team') throw new GuardUnchecked(errorMessage(err));
      throw err;
    }
    if (document.version !== version || this.ledger !== ledger) return false;
    return this.set(uri, version, diagnostics);
  }

  private set(uri: string, version: number, found: LintDiagnostic[]): boolean {
    const had = this.entries.get(uri)?.found ?? [];
    this.entries.set(uri, { version, found });
    return (
      had.length !== found.length ||
      had.some((d, i) => !sameMessage(d.message, found[i].message) || d.range.start.line !== found[i].range.start.line)
    );
  }

  /** An edit: findings at or below its first line are dropped (their rows may have moved) until the next check. */
  changed(uri: string, changes: readonly TextDocumentContentChangeEvent[]): void {
    const entry = this.entries.get(uri);
    if (!entry || entry.found.length === 0) return;
    const first = changes.reduce((at, c) => Math.min(at, 'range' in c ? c.range.start.line : 0), Infinity);
    entry.found = entry.found.filter((d) => d.range.start.line < first);
  }

  diagnostics(uri: string): readonly LintDiagnostic[] {
    return this.entries.get(uri)?.found ?? [];
  }

  forget(uri: string): void {
    this.entries.delete(uri);
  }

  /**
   * The quick fixes of our findings in `context`: move the already-sent rows to a new file beside the
   * document (when the client can create files), and empty every cvv2 value.
   */
  actions(uri: string, document: { getText(): string }, context: readonly Diagnostic[], createsFiles: boolean): OurAction[] {
    const found = this.diagnostics(uri);
    const sent = context.filter((d) => d.code === Codes.alreadySent);
    const cvv = context.filter((d) => d.code === Codes.cvvAfterSend);
    const actions: OurAction[] = [];
    if (sent.length === 0 && cvv.length === 0) return actions;
    const batch = readBatch(document.getText());
    const rows = found.filter((d) => d.code === Codes.alreadySent).map((d) => d.range.start.line + 1);
    if (sent.length > 0 && createsFiles && rows.length > 0) {
      const title = said`Move the ${typed.count(rows.length)} already-sent ${ourWords(rows.length === 1 ? 'row' : 'rows')} to a new file`;
      actions.push({ title, kind: CodeActionKind.QuickFix, diagnostics: sent, edit: moveEdit(uri, batch, new Set(rows)) });
    }
    if (cvv.length > 0) {
      const edits = stripCvvEdits(batch);
      if (edits.length > 0)
        actions.push({
          title: ourWords('Empty every cvv2 value (the column stays)'),
          kind: CodeActionKind.QuickFix,
          diagnostics: cvv,
          isPreferred: true,
          edit: toWorkspaceEdit(uri, edits),
        });
    }
    return actions;
  }
}

/** The target's store: its team ledger when it names one (or why it cannot be opened), else the directory's file ledger. */
function openStore(target: LedgerTarget): LedgerStore | Error {
  return target.team ? openTeamStore(target.team) : new Ledger(target.directory);
}

/** NAME.already-sent.rpcsv beside the document (numbered when taken, for a file on disk). */
function newFileUri(uri: string): string {
  const url = new URL(uri);
  const file = fileOfUri(uri);
  url.pathname = taggedName(url.pathname, 'already-sent', file === undefined ? 1 : freeTagNumber(file, 'already-sent'));
  return url.toString();
}

/** One edit: create the new file, write the header and the rows there, delete them here. */
function moveEdit(uri: string, batch: Batch, lines: ReadonlySet<number>): WorkspaceEdit {
  const { moved, edits } = moveRowsOut(batch, lines);
  const target = newFileUri(uri);
  const here = toWorkspaceEdit(uri, edits).changes![uri];
  return {
    documentChanges: [
      { kind: 'create', uri: target, options: { ignoreIfExists: false, overwrite: false } },
      {
        textDocument: { uri: target, version: null },
        edits: [{ range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }, newText: moved }],
      },
      { textDocument: { uri, version: null }, edits: here },
    ],
  };
}
