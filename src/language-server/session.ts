import type { Connection } from 'vscode-languageserver';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import type { LintResult } from '../core/rules/lint';
import { LANGUAGE_ID, type PreviewToday } from '../shared/lintProtocol';
import type { CompletionSupport } from './completion';
import { firstProblems, MAX_PUBLISHED, publishedDiagnostics } from './diagnostics';
import { DiskBatches } from './diskBatches';
import { Documents } from './documents';
import { firstScreen } from './firstScreen';
import { GitGuard } from './gitGuard';
import { joinSaid, ourWords, said, saidText, typed } from '../core/output';
import { ServerLog } from './serverLog';
import { GuardUnchecked, LEDGER_RECHECK_MAX_LINES, LedgerGuard } from './ledgerGuard';
import type { LintSettingsSource } from './settings';
import { PayloadGuard } from './payloadGuard';
import { LintStore } from './store';

// What the server holds for its open documents, and how their problems reach the client: linted from a
// timer (a burst of changes is linted once), published with git's card-data warning beside them, cleared
// when a document closes. The request handlers (handlers.ts) and the wiring (server.ts) share one Session.

export interface Session {
  readonly connection: Connection;
  /** The lines written to the client's log (./serverLog.ts). */
  readonly log: ServerLog;
  readonly documents: Documents;
  readonly store: LintStore;
  readonly guard: GitGuard;
  /** already-sent and cvv-after-send, from the submission ledger. */
  readonly ledger: LedgerGuard;
  /** Batches too large for the editor to pass, checked from disk. */
  readonly disk: DiskBatches;
  /** batch-too-large: the document's payload against the active environment's maximum. */
  readonly payload: PayloadGuard;
  /** Each document's lint to come: how to call it off. */
  readonly timers: Map<string, () => void>;
  /** The last "the resend guard could not be checked" shown (shown again only when the reason changes). */
  ledgerProblem?: string;
  /** Per document: the ledger's check a moment after an edit. */
  readonly ledgerTimers: Map<string, ReturnType<typeof setTimeout>>;
  /** The client applies workspace edits that create files (the already-sent rows' new file). */
  createsFiles: boolean;
  /** Open documents of the language. */
  readonly seen: Set<string>;
  /** What was last linted and published per document, so git's later answer adds to it without a new lint. */
  readonly shown: Map<string, { version: number; result: LintResult }>;
  settings: LintSettingsSource | undefined;
  /** The client resolves a code action's edit when it is chosen (codeAction/resolve). */
  resolves: boolean;
  completion: CompletionSupport;
  /** "Today" for the hover's schedule preview, when the client names one (a local gateway's simulated date). */
  previewToday: PreviewToday;
}

export function newSession(connection: Connection): Session {
  const log = new ServerLog(connection);
  const documents = new Documents();
  const guard = new GitGuard();
  const payload = new PayloadGuard();
  return {
    connection,
    log,
    documents,
    store: new LintStore(),
    guard,
    ledger: new LedgerGuard(),
    disk: new DiskBatches(
      connection,
      log,
      guard,
      (uri) => documents.get(uri) !== undefined,
      () => payload.maximum,
    ),
    payload,
    timers: new Map(),
    ledgerTimers: new Map(),
    createsFiles: false,
    seen: new Set(),
    shown: new Map(),
    settings: undefined,
    resolves: false,
    completion: { insertReplace: false, labelDetails: false },
    previewToday: {},
  };
}

/** Files named like a batch are linted even when an editor opens them under another language id. */
const BATCH_NAME = /\.(rpcsv|recurring\.csv)$/i;

export function lintable(document: TextDocument): boolean {
  return document.languageId === LANGUAGE_ID || BATCH_NAME.test(document.uri.replace(/[?#].*$/, ''));
}

/** The core should never throw; if it does, the editor keeps working and the client's log says why. */
export function fail(s: Session, what: string, uri: string, err: unknown): void {
  const why = err instanceof Error ? (err.stack ?? err.message) : String(err);
  // A stack keeps its lines: each line free text, the line breaks ours.
  s.log.error(said`${ourWords(what)} failed for ${typed.text(uri)}: ${joinSaid(why.split(/\r?\n/).map(typed.text), '\n')}`);
}

function cancel(s: Session, uri: string): void {
  s.timers.get(uri)?.();
  s.timers.delete(uri);
}

/** Sends the last lint's problems, and git's warning when there is one. */
export function send(s: Session, uri: string): void {
  const last = s.shown.get(uri);
  if (!last) return;
  const found = s.guard.diagnostic(uri);
  const tooLarge = s.payload.diagnostic(uri);
  const ledger = tooLarge ? [tooLarge, ...s.ledger.diagnostics(uri)] : s.ledger.diagnostics(uri);
  // The first problems (of a million-row file's, without listing them all), then git's warning and the
  // ledger's findings after them.
  const { diagnostics, total } = firstProblems(last.result);
  const all = found || ledger.length > 0 ? [...diagnostics, ...(found ? [found] : [])] : diagnostics;
  for (const d of ledger) all.push(d);
  void s.connection.sendDiagnostics({
    uri,
    version: last.version,
    diagnostics: publishedDiagnostics(all, uri, MAX_PUBLISHED, total + (found ? 1 : 0) + ledger.length),
  });
}

/**
 * A large file's first screen of problems, before the whole file's lint (see firstScreen.ts). Resolves
 * once it is written: the whole file's lint, started after, would otherwise hold it back.
 */
export async function sendFirstScreen(s: Session, document: TextDocument): Promise<void> {
  try {
    const diagnostics = publishedDiagnostics(firstScreen(document), document.uri);
    await s.connection.sendDiagnostics({ uri: document.uri, version: document.version, diagnostics });
  } catch (err) {
    fail(s, 'Lint', document.uri, err);
  }
}

function publish(s: Session, uri: string): void {
  cancel(s, uri);
  const document = s.documents.get(uri);
  if (!document || !lintable(document)) return;
  try {
    const result = s.store.get(document);
    s.payload.weigh(uri, document);
    s.shown.set(uri, { version: document.version, result });
    send(s, uri);
    // Once the problems are on their way: what the first edit of a large file would wait for.
    setImmediate(() => s.store.prepare(uri));
  } catch (err) {
    fail(s, 'Lint', uri, err);
  }
}

/**
 * Even with no wait, the lint runs later, so a burst of changes already received is linted once. With no
 * wait: two turns of the event loop later (setImmediate twice), not on a zero timeout, which waits a
 * millisecond. The connection handles one queued message per turn (vscode-jsonrpc's message queue, on
 * setImmediate), each rescheduling this: the lint runs once the messages read so far are handled.
 */
export function schedule(s: Session, uri: string, delayMs: number): void {
  cancel(s, uri);
  if (delayMs > 0) {
    const timer = setTimeout(() => publish(s, uri), delayMs);
    s.timers.set(uri, () => clearTimeout(timer));
    return;
  }
  const first = setImmediate(() => {
    const second = setImmediate(() => publish(s, uri));
    s.timers.set(uri, () => clearImmediate(second));
  });
  s.timers.set(uri, () => clearImmediate(first));
}

export function relintIfOnType(s: Session, uri: string): void {
  void s.settings?.for(uri).then((settings) => {
    if (settings.run === 'onType' && s.documents.get(uri)) schedule(s, uri, settings.debounceMs);
  });
}

/** A closed document (or one that left the language) keeps no problems. */
export function forget(s: Session, uri: string): void {
  cancel(s, uri);
  s.store.delete(uri);
  s.guard.forget(uri);
  s.ledger.forget(uri);
  s.payload.forget(uri);
  const timer = s.ledgerTimers.get(uri);
  if (timer !== undefined) clearTimeout(timer);
  s.ledgerTimers.delete(uri);
  s.shown.delete(uri);
  s.settings?.forget(uri);
  if (s.seen.delete(uri)) void s.connection.sendDiagnostics({ uri, diagnostics: [] });
}

/**
 * Asks git where the file stands; when git keeps the file, looks for card numbers and shows the warning
 * beside the problems already shown (no new lint: with onSave, unsaved edits stay unchecked).
 */
export function checkGit(s: Session, uri: string): void {
  s.guard.refresh(uri).then(
    (relevant) => {
      const document = s.documents.get(uri);
      if (!relevant || !document || !s.seen.has(uri)) return;
      s.guard.check(uri, s.store.get(document));
      send(s, uri);
    },
    (err: unknown) => fail(s, 'Git status', uri, err),
  );
}

/** Reads the ledger for the document and shows its findings beside the problems when they changed. */
export function checkLedger(s: Session, uri: string): void {
  const document = s.documents.get(uri);
  if (!document || !s.ledger.active) return;
  s.ledger.check(uri, document).then(
    (changed) => {
      s.ledgerProblem = undefined;
      if (changed && s.seen.has(uri)) send(s, uri);
    },
    (err: unknown) => {
      if (!(err instanceof GuardUnchecked)) return fail(s, 'Submission ledger', uri, err);
      // Said, never silent: as `paygate lint` says it. Once per reason, not per document or edit.
      // VS Code shows the server's messages as they come: this one passes the floor here, value by value (issue 38).
      const line = said`PayGate: ${typed.text(err.message)}; the resend guard could not be checked (already-sent and cvv-after-send are not checked)`;
      s.log.warn(line);
      const message = saidText(line);
      if (s.ledgerProblem === message) return;
      s.ledgerProblem = message;
      void s.connection.window.showWarningMessage(message);
    },
  );
}

/** After an edit: the ledger's findings below it are dropped now, and read again a moment later (small documents). */
export function ledgerEdited(s: Session, uri: string, lineCount: number): void {
  if (!s.ledger.active) return;
  const timer = s.ledgerTimers.get(uri);
  if (timer !== undefined) clearTimeout(timer);
  if (lineCount > LEDGER_RECHECK_MAX_LINES) return;
  s.ledgerTimers.set(
    uri,
    setTimeout(() => {
      s.ledgerTimers.delete(uri);
      checkLedger(s, uri);
    }, 400),
  );
}
