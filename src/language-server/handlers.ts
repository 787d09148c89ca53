import {
  MessageType,
  ShowMessageNotification,
  type CodeAction,
  type CodeActionParams,
  type CompletionParams,
  type ExecuteCommandParams,
  type HoverParams,
} from 'vscode-languageserver';
import { actionData, codeActions, offered, requestDiagnostics, resolveCodeAction, type OurAction } from './codeActions';
import { atHeaderEnd, completionsAt, emptyFieldEdits } from './completion';
import { ADD_TO_GITIGNORE } from './gitGuard';
import { hoverAt } from './hover';
import { completionsInDocument, hoverInDocument, viewAt } from './cursorView';
import { fail, lintable, schedule, type Session } from './session';
import { errorMessage } from '../core/errorMessage';
import type { LintDiagnostic } from '../core/rules/types';
import { said, saidText, typed } from '../core/output';

// The server's requests, one named handler each (server.ts wires them to the connection). Every handler
// answers null (or the action unchanged) when the document is not ours or the core throws.

export function hover(s: Session, { textDocument, position }: HoverParams) {
  const document = s.documents.get(textDocument.uri);
  if (!document || !lintable(document)) return null;
  try {
    const view = viewAt(s.store, document, position);
    return hoverInDocument(hoverAt(view.document, view.result, view.position, view.rowNumber, s.previewToday), view.lineShift);
  } catch (err) {
    fail(s, 'Hover', document.uri, err);
    return null;
  }
}

export function completion(s: Session, { textDocument, position }: CompletionParams) {
  const document = s.documents.get(textDocument.uri);
  if (!document || !lintable(document)) return null;
  try {
    const view = viewAt(s.store, document, position);
    const items = completionsInDocument(completionsAt(view.document, view.result, view.position, s.completion), view.lineShift);
    if (items && items.length > 0 && atHeaderEnd(view.document, view.result, view.position)) {
      const edits = emptyFieldEdits(document);
      if (edits.length > 0) for (const item of items) item.additionalTextEdits = edits;
    }
    return items;
  } catch (err) {
    fail(s, 'Completion', document.uri, err);
    return null;
  }
}

export function codeAction(s: Session, params: CodeActionParams) {
  const document = s.documents.get(params.textDocument.uri);
  if (!document || !lintable(document)) return null;
  // Our findings as published now (session.ts send): the lint's (the store's, for this version), git's
  // warning, the payload's and the ledger's. A lint that throws is logged by its own source below.
  const diagnostics = requestDiagnostics(params, () => {
    let lint: readonly LintDiagnostic[] = [];
    try {
      lint = s.store.get(document).diagnostics;
    } catch {
      // told by 'Code actions' below
    }
    const found = [s.guard.diagnostic(document.uri), s.payload.diagnostic(document.uri)].filter((d) => d !== undefined);
    return [...lint, ...found, ...s.ledger.diagnostics(document.uri)];
  });
  // Each source of actions answers on its own: one that throws (a ledger being rewritten, say) is logged
  // and leaves the others' fixes in the light bulb instead of emptying it.
  const from = (what: string, actions: () => OurAction[]): OurAction[] => {
    try {
      return actions();
    } catch (err) {
      fail(s, what, document.uri, err);
      return [];
    }
  };
  // Each title laid out here, once, as the editor gets it.
  return offered([
    ...from('Code actions', () =>
      codeActions(
        { uri: document.uri, version: document.version, result: s.store.get(document), resolves: s.resolves },
        params,
        diagnostics,
      ),
    ),
    ...from('Git guard actions', () => s.guard.actions(document.uri, diagnostics)),
    ...from('Ledger actions', () => s.ledger.actions(document.uri, document, diagnostics, s.createsFiles)),
  ]);
}

export function codeActionResolve(s: Session, action: CodeAction): CodeAction {
  const data = actionData(action.data);
  const document = data && s.documents.get(data.uri);
  // Changed since the action was offered: its edit would land on the wrong text, so none is given.
  if (!data || !document || document.version !== data.version) return action;
  try {
    return resolveCodeAction(action, data, s.store.get(document));
  } catch (err) {
    fail(s, 'Code action', document.uri, err);
    return action;
  }
}

export async function executeCommand(s: Session, { command, arguments: args }: ExecuteCommandParams): Promise<void> {
  const uri: unknown = args?.[0];
  if (command !== ADD_TO_GITIGNORE || typeof uri !== 'string') return;
  try {
    const gitignore = await s.guard.addToGitignore(uri);
    // Ignored now: the warning goes with the next publish.
    s.guard.forget(uri);
    // A notification, not window/showMessageRequest: a client that cannot answer requests must not fail us.
    void s.connection.sendNotification(ShowMessageNotification.type, {
      type: MessageType.Info,
      message: saidText(said`PayGate: added the file to ${typed.text(gitignore)}.`),
    });
    if (s.seen.has(uri)) schedule(s, uri, 0);
  } catch (err) {
    fail(s, 'Add to .gitignore', uri, err);
    // VS Code shows the server's messages as they come: they pass the floor here, value by value (issue 38).
    const message = saidText(said`PayGate: could not add the file to .gitignore: ${typed.text(errorMessage(err))}`);
    void s.connection.sendNotification(ShowMessageNotification.type, { type: MessageType.Error, message });
  }
}
