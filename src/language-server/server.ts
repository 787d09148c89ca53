import {
  CodeActionKind,
  MessageType,
  ShowMessageNotification,
  TextDocumentSyncKind,
  type Connection,
  type InitializeResult,
} from 'vscode-languageserver';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { FIX_ALL_KIND, LANGUAGE_ID, PREVIEW_TODAY_NOTIFICATION, type PreviewToday } from '../shared/lintProtocol';
import { actionData, codeActions, resolveCodeAction } from './codeActions';
import { atHeaderEnd, completionsAt, emptyFieldEdits, type CompletionSupport } from './completion';
import { Documents } from './documents';
import { publishedDiagnostics } from './diagnostics';
import { ADD_TO_GITIGNORE, GitGuard } from './gitGuard';
import { hoverAt } from './hover';
import { completionsInDocument, hoverInDocument, viewAt } from './local';
import { LintSettingsSource } from './settings';
import { LintStore } from './store';
import type { LintDiagnostic } from '../core/rules/types';

/** Files named like a batch are linted even when an editor opens them under another language id. */
const BATCH_NAME = /\.(rpcsv|recurring\.csv)$/i;

function lintable(document: TextDocument): boolean {
  return document.languageId === LANGUAGE_ID || BATCH_NAME.test(document.uri.replace(/[?#].*$/, ''));
}

/**
 * The PayGate linter over LSP, on any connection (node IPC from VS Code, stdio from `paygate lsp`).
 * Documents are synced incrementally; every open document of the language is linted on open, on save,
 * and on change (after `debounceMs`) unless `paygate.lint.run` is onSave, and cleared when it closes.
 */
export function startServer(connection: Connection): void {
  const documents = new Documents();
  const store = new LintStore();
  const guard = new GitGuard();
  const timers = new Map<string, ReturnType<typeof setTimeout>>();
  /** Open documents of the language. */
  const seen = new Set<string>();
  let settings: LintSettingsSource | undefined;
  let resolves = false;
  let completion: CompletionSupport = { insertReplace: false, labelDetails: false };

  const fail = (what: string, uri: string, err: unknown): void => {
    // The core should never throw; if it does, the editor keeps working and the client's log says why.
    connection.console.error(`${what} failed for ${uri}: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
  };

  const cancel = (uri: string): void => {
    const timer = timers.get(uri);
    if (timer !== undefined) clearTimeout(timer);
    timers.delete(uri);
  };

  /** What was last linted and published per document, so git's later answer adds to it without a new lint. */
  const shown = new Map<string, { version: number; diagnostics: readonly LintDiagnostic[] }>();
  const send = (uri: string): void => {
    const last = shown.get(uri);
    if (!last) return;
    const found = guard.diagnostic(uri);
    const all = found ? [...last.diagnostics, found] : last.diagnostics;
    void connection.sendDiagnostics({ uri, version: last.version, diagnostics: publishedDiagnostics(all, uri) });
  };

  const publish = (uri: string): void => {
    cancel(uri);
    const document = documents.get(uri);
    if (!document || !lintable(document)) return;
    try {
      const result = store.get(document);
      shown.set(uri, { version: document.version, diagnostics: result.diagnostics });
      send(uri);
    } catch (err) {
      fail('Lint', uri, err);
    }
  };

  // Even with no wait, the lint runs from a timer, so a burst of changes already received is linted once.
  const schedule = (uri: string, delayMs: number): void => {
    cancel(uri);
    timers.set(
      uri,
      setTimeout(() => publish(uri), delayMs),
    );
  };

  const relintIfOnType = (uri: string): void => {
    void settings?.for(uri).then((s) => {
      if (s.run === 'onType' && documents.get(uri)) schedule(uri, s.debounceMs);
    });
  };

  connection.onInitialize((params): InitializeResult => {
    const caps = params.capabilities;
    resolves = caps.textDocument?.codeAction?.resolveSupport?.properties.includes('edit') === true;
    completion = {
      insertReplace: caps.textDocument?.completion?.completionItem?.insertReplaceSupport === true,
      labelDetails: caps.textDocument?.completion?.completionItem?.labelDetailsSupport === true,
    };
    settings = new LintSettingsSource(connection, caps.workspace?.configuration === true, params.initializationOptions);
    return {
      capabilities: {
        textDocumentSync: { openClose: true, change: TextDocumentSyncKind.Incremental, save: { includeText: false } },
        hoverProvider: true,
        completionProvider: { triggerCharacters: [';'] },
        codeActionProvider: { codeActionKinds: [CodeActionKind.QuickFix, FIX_ALL_KIND], resolveProvider: true },
        executeCommandProvider: { commands: [ADD_TO_GITIGNORE] },
      },
      serverInfo: { name: 'paygate' },
    };
  });

  const forget = (uri: string): void => {
    cancel(uri);
    store.delete(uri);
    guard.forget(uri);
    shown.delete(uri);
    settings?.forget(uri);
    if (seen.delete(uri)) {
      // A closed document (or one that left the language) keeps no problems.
      void connection.sendDiagnostics({ uri, diagnostics: [] });
    }
  };

  // Asks git where the file stands; when git keeps the file, looks for card numbers and shows the warning
  // beside the problems already shown (no new lint: with onSave, unsaved edits stay unchecked).
  const checkGit = (uri: string): void => {
    guard.refresh(uri).then(
      (relevant) => {
        const document = documents.get(uri);
        if (!relevant || !document || !seen.has(uri)) return;
        guard.check(uri, store.get(document));
        send(uri);
      },
      (err: unknown) => fail('Git status', uri, err),
    );
  };

  documents.listen(connection, {
    opened(document) {
      forget(document.uri);
      if (!lintable(document)) return;
      // Opened: checked at once whatever paygate.lint.run says.
      seen.add(document.uri);
      schedule(document.uri, 0);
      checkGit(document.uri);
    },
    changed(document, changes) {
      if (!seen.has(document.uri)) return;
      store.changed(document.uri, changes);
      guard.changed(document.uri, changes);
      relintIfOnType(document.uri);
    },
    saved(document) {
      if (!seen.has(document.uri)) return;
      schedule(document.uri, 0);
      checkGit(document.uri);
    },
    closed: forget,
  });

  connection.onDidChangeConfiguration(({ settings: pushed }) => {
    settings?.changed(pushed);
    // Switching to onType shows the current text's problems; switching to onSave keeps what is shown.
    for (const uri of seen) {
      void settings?.for(uri).then((s) => {
        if (s.run === 'onType' && documents.get(uri)) schedule(uri, 0);
      });
    }
  });

  let previewToday: PreviewToday = {};
  connection.onNotification(PREVIEW_TODAY_NOTIFICATION, (p: PreviewToday | null) => void (previewToday = p ?? {}));
  connection.onHover(({ textDocument, position }) => {
    const document = documents.get(textDocument.uri);
    if (!document || !lintable(document)) return null;
    try {
      const view = viewAt(store, document, position);
      return hoverInDocument(hoverAt(view.document, view.result, view.position, view.rowNumber, previewToday), view.lineShift);
    } catch (err) {
      fail('Hover', document.uri, err);
      return null;
    }
  });

  connection.onCompletion(({ textDocument, position }) => {
    const document = documents.get(textDocument.uri);
    if (!document || !lintable(document)) return null;
    try {
      const view = viewAt(store, document, position);
      const items = completionsInDocument(completionsAt(view.document, view.result, view.position, completion), view.lineShift);
      if (items && items.length > 0 && atHeaderEnd(view.document, view.result, view.position)) {
        const edits = emptyFieldEdits(document);
        if (edits.length > 0) for (const item of items) item.additionalTextEdits = edits;
      }
      return items;
    } catch (err) {
      fail('Completion', document.uri, err);
      return null;
    }
  });

  connection.onCodeAction((params) => {
    const document = documents.get(params.textDocument.uri);
    if (!document || !lintable(document)) return null;
    try {
      return [
        ...codeActions({ uri: document.uri, version: document.version, result: store.get(document), resolves }, params),
        ...guard.actions(document.uri, params.context.diagnostics),
      ];
    } catch (err) {
      fail('Code actions', document.uri, err);
      return null;
    }
  });

  connection.onCodeActionResolve((action) => {
    const data = actionData(action.data);
    const document = data && documents.get(data.uri);
    // Changed since the action was offered: its edit would land on the wrong text, so none is given.
    if (!data || !document || document.version !== data.version) return action;
    try {
      return resolveCodeAction(action, data, store.get(document));
    } catch (err) {
      fail('Code action', document.uri, err);
      return action;
    }
  });

  connection.onExecuteCommand(async ({ command, arguments: args }) => {
    const uri = args?.[0];
    if (command !== ADD_TO_GITIGNORE || typeof uri !== 'string') return;
    try {
      const gitignore = await guard.addToGitignore(uri);
      // Ignored now: the warning goes with the next publish.
      guard.forget(uri);
      // A notification, not window/showMessageRequest: a client that cannot answer requests must not fail us.
      void connection.sendNotification(ShowMessageNotification.type, {
        type: MessageType.Info,
        message: `PayGate: added the file to ${gitignore}.`,
      });
      if (seen.has(uri)) schedule(uri, 0);
    } catch (err) {
      fail('Add to .gitignore', uri, err);
      const message = `PayGate: could not add the file to .gitignore: ${err instanceof Error ? err.message : String(err)}`;
      void connection.sendNotification(ShowMessageNotification.type, { type: MessageType.Error, message });
    }
  });

  connection.listen();
}
