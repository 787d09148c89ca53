import { DiagnosticSeverity, type Connection, type Diagnostic } from 'vscode-languageserver';
import { todayLocal } from '../core/dates';
import { fileNameOf, fileOfUri } from '../core/git';
import { said, saidText, typed } from '../core/output';
import { thousands } from '../core/thousands';
import { textPieces } from '../core/textFile';
import { PayloadCounter } from '../core/payload';
import { firstLineRange, payloadLengthDiagnostic } from '../core/rules/payloadCheck';
import type { LintDiagnostic } from '../core/rules/types';
import { BATCH_ON_DISK_CHECKED_NOTIFICATION, DIAGNOSTIC_SOURCE, type BatchOnDisk, type BatchOnDiskChecked } from '../shared/lintProtocol';
import { MAX_PUBLISHED, publishedDiagnostics } from './diagnostics';
import type { GitGuard } from './gitGuard';
import type { ServerLog } from './serverLog';
import { MAX_PENDING_CHARS, StreamLint, type StreamProblems } from './streamLint';
import { errorMessage } from '../core/errorMessage';

// Batches the editor shows but does not pass to the server: VS Code passes no file over 50 MB to an
// extension, so such a batch is never opened with didOpen and would look clean. The client names them
// (BATCH_ON_DISK_NOTIFICATION) and the server checks the file on disk, as a stream (streamLint.ts): when
// it is opened, and again each time it changes on disk (a save). Its problems are published for its URI
// like any document's, first the first chunk's then the whole file's, and the client is told when a
// check has ended. A later didOpen of the same URI (the editor passed it after all) takes over.
// The file's payload is weighed as it is read (batch-too-large against the active environment's maximum,
// as the CLI and a document's lint say it), and weighed again when the maximum changes.

/** A file being written sends many changes: one check once they have stopped for this long. */
const SETTLE_MS = 300;

interface Entry {
  /** Counts the checks started: a check that is no longer the latest stops at its next piece. */
  generation: number;
  timer?: ReturnType<typeof setTimeout>;
}

export class DiskBatches {
  private readonly entries = new Map<string, Entry>();

  constructor(
    private readonly connection: Connection,
    private readonly log: ServerLog,
    private readonly guard: GitGuard,
    /** Whether the editor has passed the document itself (then its own lint publishes). */
    private readonly synced: (uri: string) => boolean,
    /** The active environment's maximum payload (batch-too-large). */
    private readonly maxPayload: () => number,
  ) {}

  /** Another maximum payload: every batch on disk is checked again. */
  limitChanged(): void {
    for (const [uri, entry] of this.entries) this.schedule(uri, entry, 0);
  }

  notified({ uri, event }: BatchOnDisk): void {
    if (typeof uri !== 'string' || fileOfUri(uri) === undefined) return;
    if (event === 'closed') return this.closed(uri);
    if (this.synced(uri)) return;
    const entry = this.entries.get(uri);
    if (event === 'opened' && !entry) this.schedule(uri, { generation: 0 }, 0);
    else if (entry) this.schedule(uri, entry, event === 'changed' ? SETTLE_MS : 0);
  }

  /** The editor passed the document after all: its own lint publishes from now on. */
  takenOver(uri: string): void {
    const entry = this.entries.get(uri);
    if (!entry) return;
    this.stop(entry);
    this.entries.delete(uri);
  }

  private closed(uri: string): void {
    const entry = this.entries.get(uri);
    if (!entry) return;
    this.stop(entry);
    this.entries.delete(uri);
    if (!this.synced(uri)) void this.connection.sendDiagnostics({ uri, diagnostics: [] });
  }

  private stop(entry: Entry): void {
    if (entry.timer !== undefined) clearTimeout(entry.timer);
    entry.timer = undefined;
    entry.generation++;
  }

  private schedule(uri: string, entry: Entry, delayMs: number): void {
    this.stop(entry);
    this.entries.set(uri, entry);
    const generation = entry.generation;
    entry.timer = setTimeout(() => {
      entry.timer = undefined;
      void this.check(uri, () => this.entries.get(uri) === entry && entry.generation === generation);
    }, delayMs);
  }

  private async check(uri: string, current: () => boolean): Promise<void> {
    const file = fileOfUri(uri)!;
    const started = performance.now();
    const lint = new StreamLint({ today: todayLocal(), keep: MAX_PUBLISHED, git: await this.git(uri, file) });
    const payload = new PayloadCounter();
    let header: LintDiagnostic['range'] | undefined;
    let shownFirst = false;
    let result: StreamProblems & { tooLarge?: LintDiagnostic };
    try {
      // The text as VS Code shows it (textPieces: UTF-8, no byte order mark): the problems' lines and
      // characters are the editor's. Leaving the loop closes the file.
      for await (const piece of textPieces(file, 4 << 20)) {
        if (!current()) return;
        header ??= firstLineRange(piece);
        lint.push(piece);
        payload.push(piece);
        if (!shownFirst && lint.rowsRead > 0) shownFirst = this.publishFirst(uri, lint.soFar());
      }
      result = lint.end();
      const tooLarge = payloadLengthDiagnostic(payload.length(), this.maxPayload(), header ?? firstLineRange(''));
      if (tooLarge) result = { ...result, tooLarge };
    } catch (err) {
      if (!current()) return;
      const why = said`${typed.text(fileNameOf(file))} could not be read: ${typed.text(errorMessage(err))}`;
      this.log.error(said`PayGate: ${why}`);
      const problem = saidText(why);
      void this.connection.sendDiagnostics({ uri, diagnostics: [] });
      return this.told({ uri, rows: 0, problems: 0, ms: performance.now() - started, problem });
    }
    if (!current()) return;
    void this.connection.sendDiagnostics({ uri, diagnostics: diagnosticsOf(uri, file, result) });
    const stopped = result.stoppedAt === undefined ? undefined : stoppedMessage(file, result.stoppedAt);
    this.told({ uri, rows: result.rows, problems: result.total, ms: performance.now() - started, problem: stopped });
  }

  /** Where git stands with the file, when it keeps it or would: then card-data-in-git is looked for. */
  private async git(uri: string, file: string): Promise<{ tracking: 'tracked' | 'unignored'; fileName: string } | undefined> {
    try {
      if (!(await this.guard.refresh(uri))) return undefined;
      const tracking = this.guard.tracking(uri);
      return tracking === 'tracked' || tracking === 'unignored' ? { tracking, fileName: fileNameOf(file) } : undefined;
    } catch (err) {
      this.log.error(said`PayGate: git status failed for ${typed.text(file)}: ${typed.text(errorMessage(err))}`);
      return undefined;
    }
  }

  /** The first chunk's problems while the rest is read (only when they fit in one publish: a count of the rest is not known yet). */
  private publishFirst(uri: string, first: StreamProblems): boolean {
    if (first.diagnostics.length > MAX_PUBLISHED) return true;
    void this.connection.sendDiagnostics({ uri, diagnostics: publishedDiagnostics(first.diagnostics, uri) });
    return true;
  }

  private told(checked: BatchOnDiskChecked): void {
    void this.connection.sendNotification(BATCH_ON_DISK_CHECKED_NOTIFICATION, checked);
  }
}

/**
 * What the editor is shown: the first problems (errors first), git's warning and batch-too-large after them
 * (as a document's), and where a check stopped.
 */
function diagnosticsOf(uri: string, file: string, p: StreamProblems & { tooLarge?: LintDiagnostic }): Diagnostic[] {
  const after = [...(p.cardsInGit ? [p.cardsInGit] : []), ...(p.tooLarge ? [p.tooLarge] : [])];
  const all = after.length > 0 ? [...p.diagnostics, ...after] : p.diagnostics;
  const shown = publishedDiagnostics(all, uri, MAX_PUBLISHED, p.total + after.length);
  if (p.stoppedAt !== undefined) {
    const at = { line: p.stoppedAt, character: 0 };
    shown.push({
      range: { start: at, end: at },
      severity: DiagnosticSeverity.Error,
      source: DIAGNOSTIC_SOURCE,
      message: stoppedMessage(file, p.stoppedAt),
    });
  }
  return shown;
}

/** Laid out value by value (the line a count, the file's name free text), as a problem's message is. */
function stoppedMessage(file: string, line: number): string {
  const [at, mi] = [typed.count(thousands(line + 1)), typed.count((MAX_PENDING_CHARS / 1024 / 1024).toFixed(0))];
  return saidText(
    said`The check stopped at line ${at}: no record ends within ${mi} Mi characters from there (a quote left open?), so the rest of the file is not checked in the editor. Run \`paygate lint ${typed.text(fileNameOf(file))}\` to check all of it.`,
  );
}
