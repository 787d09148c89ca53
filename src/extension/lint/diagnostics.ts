import * as vscode from 'vscode';
import { log } from '../log';
import { DIAGNOSTIC_SOURCE, isRecurringCsv } from './constants';
import { toDiagnostic } from './convert';
import type { LintStore } from './store';

type RunMode = 'onType' | 'onSave';

function settings(document: vscode.TextDocument): { run: RunMode; debounceMs: number } {
  const config = vscode.workspace.getConfiguration('paygate.lint', document.uri);
  const run = config.get<string>('run') === 'onSave' ? 'onSave' : 'onType';
  const raw = config.get<number>('debounceMs', 250);
  const debounceMs = Number.isFinite(raw) ? Math.min(Math.max(0, raw), 10_000) : 250;
  return { run, debounceMs };
}

/**
 * Keeps the Problems panel in step with every open recurring-payment CSV: checked on open, on change
 * (debounced) or only on save as `paygate.lint.run` says, and cleared when the file closes or leaves the
 * language mode (VS Code reports a language change as a close and a re-open).
 */
export function registerDiagnostics(context: vscode.ExtensionContext, store: LintStore): void {
  const collection = vscode.languages.createDiagnosticCollection(DIAGNOSTIC_SOURCE);
  const timers = new Map<string, ReturnType<typeof setTimeout>>();

  const cancel = (uri: vscode.Uri): void => {
    const key = uri.toString();
    const timer = timers.get(key);
    if (timer !== undefined) clearTimeout(timer);
    timers.delete(key);
  };

  const refresh = (document: vscode.TextDocument): void => {
    cancel(document.uri);
    if (document.isClosed || !isRecurringCsv(document)) return;
    try {
      const result = store.get(document);
      collection.set(document.uri, result.diagnostics.map(toDiagnostic));
    } catch (err) {
      // The core should never throw; if it does, the editor keeps working and the log says why.
      log().error(`Lint failed for ${document.uri.toString(true)}: ${err instanceof Error ? err.stack ?? err.message : String(err)}`);
    }
  };

  const schedule = (document: vscode.TextDocument, delayMs: number): void => {
    cancel(document.uri);
    const key = document.uri.toString();
    timers.set(
      key,
      setTimeout(() => {
        timers.delete(key);
        refresh(document);
      }, delayMs),
    );
  };

  const forget = (document: vscode.TextDocument): void => {
    cancel(document.uri);
    collection.delete(document.uri);
    store.delete(document.uri);
  };

  context.subscriptions.push(
    collection,
    { dispose: () => timers.forEach((t) => clearTimeout(t)) },
    vscode.workspace.onDidOpenTextDocument((document) => refresh(document)),
    vscode.workspace.onDidChangeTextDocument((event) => {
      const document = event.document;
      if (!isRecurringCsv(document) || event.contentChanges.length === 0) return;
      const { run, debounceMs } = settings(document);
      if (run === 'onType') schedule(document, debounceMs);
    }),
    vscode.workspace.onDidSaveTextDocument((document) => refresh(document)),
    vscode.workspace.onDidCloseTextDocument((document) => forget(document)),
    vscode.workspace.onDidChangeConfiguration((event) => {
      if (!event.affectsConfiguration('paygate.lint')) return;
      // Switching to onType shows the current text's problems at once; switching to onSave keeps what is shown.
      for (const document of vscode.workspace.textDocuments) {
        if (isRecurringCsv(document) && event.affectsConfiguration('paygate.lint', document.uri) && settings(document).run === 'onType') {
          refresh(document);
        }
      }
    }),
  );

  for (const document of vscode.workspace.textDocuments) refresh(document);
}
