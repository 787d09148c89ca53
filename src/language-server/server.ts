import {
  CodeActionKind,
  TextDocumentSyncKind,
  type Connection,
  type DidChangeConfigurationParams,
  type TextDocumentContentChangeEvent,
  type InitializeParams,
  type InitializeResult,
} from 'vscode-languageserver';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import {
  BATCH_ON_DISK_NOTIFICATION,
  FIX_ALL_KIND,
  LEDGER_TARGET_NOTIFICATION,
  PAYLOAD_LIMIT_NOTIFICATION,
  readPayloadLimit,
  PREVIEW_TODAY_NOTIFICATION,
  readLedgerTarget,
  type BatchOnDisk,
  type LedgerTarget,
  type PreviewToday,
} from '../shared/lintProtocol';
import { CALLBACK_ADDRESS_NOTIFICATION } from '../shared/callbackProtocol';
import { setCallbackAddress } from './callbackAddress';
import { ADD_TO_GITIGNORE } from './gitGuard';
import { codeAction, codeActionResolve, completion, executeCommand, hover } from './handlers';
import { FIRST_SCREEN_FROM } from './firstScreen';
import {
  checkGit,
  checkLedger,
  forget,
  ledgerEdited,
  lintable,
  newSession,
  relintIfOnType,
  schedule,
  sendFirstScreen,
  send,
  type Session,
} from './session';
import { LintSettingsSource } from './settings';
import { readsSaidLog } from './serverLog';

export interface ServerOptions {
  /** The ledger and target `paygate lsp` found beside it (a client's notification replaces it). */
  ledger?: LedgerTarget;
  /** The active environment's maximum payload `paygate lsp` found (a client's notification replaces it). */
  maxPayloadBytes?: number;
}

/**
 * The PayGate linter over LSP, on any connection (node IPC from VS Code, stdio from `paygate lsp`).
 * Documents are synced incrementally; every open document of the language is linted on open, on save,
 * and on change (after `debounceMs`) unless `paygate.lint.run` is onSave, and cleared when it closes.
 */
export function startServer(connection: Connection, options: ServerOptions = {}): void {
  const s = newSession(connection);
  s.ledger.setTarget(options.ledger);
  s.payload.setMax(options.maxPayloadBytes, []);
  connection.onInitialize((params) => initialize(s, params));
  s.documents.listen(connection, {
    opened: (document) => opened(s, document),
    changed: (document, changes) => changed(s, document, changes),
    saved: (document) => saved(s, document),
    closed: (uri) => forget(s, uri),
  });
  connection.onDidChangeConfiguration((params) => configurationChanged(s, params));
  connection.onNotification(PREVIEW_TODAY_NOTIFICATION, (p: PreviewToday | null) => void (s.previewToday = p ?? {}));
  connection.onNotification(CALLBACK_ADDRESS_NOTIFICATION, setCallbackAddress);
  connection.onNotification(LEDGER_TARGET_NOTIFICATION, (p: unknown) => ledgerTargetChanged(s, readLedgerTarget(p)));
  connection.onNotification(BATCH_ON_DISK_NOTIFICATION, (p: BatchOnDisk) => s.disk.notified(p));
  connection.onNotification(PAYLOAD_LIMIT_NOTIFICATION, (p: unknown) => payloadLimitChanged(s, readPayloadLimit(p)));
  connection.onHover((params) => hover(s, params));
  connection.onCompletion((params) => completion(s, params));
  connection.onCodeAction((params) => codeAction(s, params));
  connection.onCodeActionResolve((action) => codeActionResolve(s, action));
  connection.onExecuteCommand((params) => executeCommand(s, params));
  connection.listen();
}

function initialize(s: Session, params: InitializeParams): InitializeResult {
  const caps = params.capabilities;
  s.resolves = caps.textDocument?.codeAction?.resolveSupport?.properties.includes('edit') === true;
  s.completion = {
    insertReplace: caps.textDocument?.completion?.completionItem?.insertReplaceSupport === true,
    labelDetails: caps.textDocument?.completion?.completionItem?.labelDetailsSupport === true,
  };
  s.settings = new LintSettingsSource(s.connection, caps.workspace?.configuration === true, params.initializationOptions);
  s.log.saids = readsSaidLog(params.initializationOptions);
  const edits = caps.workspace?.workspaceEdit;
  s.createsFiles = edits?.documentChanges === true && (edits.resourceOperations ?? []).includes('create');
  const given = readLedgerTarget((params.initializationOptions as { paygate?: { ledger?: unknown } } | null)?.paygate?.ledger);
  if (given) s.ledger.setTarget(given);
  const limit = readPayloadLimit((params.initializationOptions as { paygate?: unknown } | null)?.paygate);
  if (limit !== undefined) s.payload.setMax(limit, []);
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
}

/** Opened: checked at once whatever paygate.lint.run says. */
function opened(s: Session, document: TextDocument): void {
  s.disk.takenOver(document.uri);
  forget(s, document.uri);
  if (!lintable(document)) return;
  s.seen.add(document.uri);
  s.payload.markDue(document.uri);
  if (document.lineCount > FIRST_SCREEN_FROM) void sendFirstScreen(s, document).then(() => schedule(s, document.uri, 0));
  else schedule(s, document.uri, 0);
  checkGit(s, document.uri);
  checkLedger(s, document.uri);
}

function changed(s: Session, document: TextDocument, changes: readonly TextDocumentContentChangeEvent[]): void {
  if (!s.seen.has(document.uri)) return;
  s.store.changed(document.uri, changes);
  s.guard.changed(document.uri, changes);
  s.ledger.changed(document.uri, changes);
  ledgerEdited(s, document.uri, document.lineCount);
  relintIfOnType(s, document.uri);
}

function saved(s: Session, document: TextDocument): void {
  if (!s.seen.has(document.uri)) return;
  s.payload.markDue(document.uri);
  schedule(s, document.uri, 0);
  checkGit(s, document.uri);
  checkLedger(s, document.uri);
}

/** Another target or ledger (or the ledger changed): every open document is checked against it again. */
function ledgerTargetChanged(s: Session, target: LedgerTarget | undefined): void {
  const other = s.ledger.setTarget(target);
  for (const uri of s.seen) {
    // Another target's findings go at once; the new ones come when the ledger is read.
    if (other && s.shown.has(uri)) send(s, uri);
    checkLedger(s, uri);
  }
}

/** Another maximum payload: every open document is weighed again against it. */
function payloadLimitChanged(s: Session, max: number | undefined): void {
  if (!s.payload.setMax(max, s.seen)) return;
  for (const uri of s.seen) if (s.documents.get(uri)) schedule(s, uri, 0);
  s.disk.limitChanged();
}

/** Switching to onType shows the current text's problems; switching to onSave keeps what is shown. */
function configurationChanged(s: Session, { settings: pushed }: DidChangeConfigurationParams): void {
  s.settings?.changed(pushed);
  for (const uri of s.seen) {
    void s.settings?.for(uri).then((settings) => {
      if (settings.run === 'onType' && s.documents.get(uri)) schedule(s, uri, 0);
    });
  }
}
