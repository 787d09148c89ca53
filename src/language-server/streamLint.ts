import type { CalendarDate } from '../core/dates';
import { cardDataInGit, type GitTracking } from '../core/rules/cardDataInGit';
import { Codes } from '../core/rules/codes';
import { lint, type LintResult } from '../core/rules/lint';
import { duplicateOrderId } from '../core/rules/rowFacts';
import type { LintDiagnostic } from '../core/rules/types';
import { IdTable } from './idTable';
import { RANK } from './rowList';
import { shiftRange } from './rows';
import { countRows, detached, keepable, lineEndAt, linesBefore, RowsTold, startsBefore } from './streamRows';

// The lint of a file read as a stream, for batches too large for the editor to pass to the server (over
// 50 MB in VS Code): the text arrives in pieces and is never held whole. The core lints a file's rows
// one by one, so each run of whole records is linted as a small file of its own — the file's start up to
// its header, then those records — as the incremental lint re-checks edited rows (rows.ts). What looks
// beyond one row is put together here from what the core tells of each row (LintOptions.onRow): the
// duplicate check across the whole file (its row numbers counted in the whole file), and the header's
// problems that depend on the rows (the SRC columns), from the header and the first row that needs them.
// A record is cut from the stream only once the record after it has started, and never before a blank
// line, so the small files' syntax and blank-line problems are the whole file's. The property test
// (test/unit/language-server-stream-lint.test.ts) holds the result to a whole-file lint of the same text.
//
// Memory: the text not yet linted (a chunk, plus the record it cuts through), the first `keep` problems
// of each severity, and the client-orderids seen (the duplicate check needs every one of them: their
// characters and about 20 bytes a row, idTable.ts).

export interface StreamLintOptions {
  today: CalendarDate;
  /** Problems kept of each severity, in file order: the editor is shown the first so many. */
  keep: number;
  /** How much text is linted at once (characters). */
  chunkChars?: number;
  /** The longest text without a record boundary (an unterminated quote, a header that never ends) read before the lint gives up on the rest. */
  maxPendingChars?: number;
  /** Where git stands with the file: card-data-in-git is looked for when git keeps or would keep it. */
  git?: { tracking: GitTracking; fileName: string };
}

export interface StreamProblems {
  /** The first `keep` problems of each severity, in file order (the core's order). */
  diagnostics: LintDiagnostic[];
  /** How many problems there are in all (of the text read so far, before `end`). */
  total: number;
  /** Data rows read. */
  rows: number;
  /** card-data-in-git, when git keeps the file and it holds a full card number. */
  cardsInGit?: LintDiagnostic;
  /** Set when the lint gave up: the line it stopped at (the rest of the file is not checked). */
  stoppedAt?: number;
}

const DEFAULT_CHUNK = 4 * 1024 * 1024;
/** The longest text without a record boundary held by default: 64 Mi characters. */
export const MAX_PENDING_CHARS = 64 * 1024 * 1024;

/** A problem with its place in the whole file's order, so the severities' lists merge back into it. */
interface Kept {
  d: LintDiagnostic;
  seq: number;
}

export class StreamLint {
  private pending = '';
  /** The file from its start to the end of its header (blank lines and byte order mark included): every small file starts with it. */
  private prefix: string | undefined;
  /** The line break after the header. */
  private eol = '\n';
  /** The header's last line: what is on it or above is the header's, what is below, the rows'. */
  private headerLine = 0;
  /** The file's line where `pending` starts. */
  private lineBase = 0;
  private rows = 0;
  private seq = 0;
  private readonly kept: Kept[][] = [[], [], []];
  private readonly totals = [0, 0, 0];
  /** The header's problems with no SRC row: what is shown before the end, and at the end when no row is SRC. */
  private firstHead: LintDiagnostic[] = [];
  private readonly firstRow = new IdTable();
  /** The first SRC row, and the first SRC row that needs a state: the header's problems depend on them. */
  private srcRow: string | undefined;
  private stateRow: string | undefined;
  private cardsInGit: LintDiagnostic | undefined;
  private stoppedAt: number | undefined;
  /** Set when the whole file was linted as one text (it ended before its header did, or within one chunk). */
  private whole: LintDiagnostic[] | undefined;
  private readonly chunkChars: number;
  private readonly maxPendingChars: number;

  constructor(private readonly options: StreamLintOptions) {
    this.chunkChars = options.chunkChars ?? DEFAULT_CHUNK;
    this.maxPendingChars = options.maxPendingChars ?? MAX_PENDING_CHARS;
  }

  /** Data rows linted so far. */
  get rowsRead(): number {
    return this.rows;
  }

  /** The next piece of the text. */
  push(text: string): void {
    if (this.stoppedAt !== undefined) return;
    this.pending += text;
    if (this.pending.length >= this.chunkChars) this.lintPending(false);
  }

  /** The text has ended: the rest is linted and the file's problems are complete. */
  end(): StreamProblems {
    if (this.stoppedAt === undefined) this.lintPending(true);
    return this.problems(true);
  }

  /** The problems so far, the header's as far as the rows read tell them: every one is also the whole file's. */
  soFar(): StreamProblems {
    return this.problems(false);
  }

  private lintPending(final: boolean): void {
    const first = this.prefix === undefined;
    const text = first ? this.pending : `${this.prefix}${this.eol}${this.pending}`;
    const told = new RowsTold();
    const result = lint(text, { today: this.options.today, onRow: (record, _n, facts) => told.row(record, facts) });
    const { csv, header } = result.batch;
    if (first) {
      // The header is known once a record follows it (or the text has ended: then this is the whole file).
      const headerIndex = result.batch.headerIndex;
      if (final) return this.wholeFile(result);
      if (!header || header.isBlank || headerIndex + 1 >= csv.recordCount) return this.wait(0);
      this.prefix = text.slice(0, header.end);
      this.eol = lineEndAt(text, header.end);
      this.headerLine = csv.index.positionAt(header.end).line;
      this.lineBase = this.headerLine + 1;
      // The header's problems before any row is known to be SRC (this text's last row may not be whole).
      this.firstHead = this.headerLinted(undefined);
    }
    const cut = final ? csv.recordCount : this.cutAt(result);
    if (cut === undefined) {
      // From now on the small files start with the prefix: what is held is the rows after it.
      if (first) this.pending = text.slice(this.prefix!.length + this.eol.length);
      return this.wait(this.lineBase);
    }
    const cutOffset = cut < csv.recordCount ? csv.recordStart(cut) : text.length;
    // The core's line table when it built one (for its problems); else the breaks counted, cheaper.
    let cutLine = Infinity;
    if (cut < csv.recordCount)
      cutLine = result.diagnostics.length > 0 ? csv.index.positionAt(cutOffset).line : linesBefore(text, cutOffset);
    // Small-file lines below the header → the file's lines.
    const shift = this.lineBase - (this.headerLine + 1);
    const rows = told.before(cutOffset);
    this.noteSrc(text, told, rows);
    const duplicates = this.duplicates(result, told, rows, shift);
    const own = result.diagnostics.filter(
      (d) => d.range.start.line > this.headerLine && d.range.start.line < cutLine && d.code !== Codes.duplicateOrderId,
    );
    this.keepInOrder(own, duplicates, shift);
    this.lookForCards(result, cutLine, shift);
    this.rows += rows;
    this.lineBase += (cutLine === Infinity ? 0 : cutLine) - (this.headerLine + 1);
    this.pending = text.slice(cutOffset);
  }

  /**
   * The record to cut before: the one after the last non-blank record that is followed by another (the
   * last record may go on in the next piece; a blank line may start a run the next piece continues).
   */
  private cutAt(result: LintResult): number | undefined {
    const { csv, headerIndex } = result.batch;
    let k = csv.recordCount - 2;
    while (k > headerIndex && csv.isBlankAt(k)) k--;
    return k > headerIndex ? k + 1 : undefined;
  }

  /** No record can be cut yet: keep reading, unless the text held has grown past the limit. */
  private wait(line: number): void {
    if (this.pending.length > this.maxPendingChars) {
      this.stoppedAt = line;
      this.pending = '';
    }
  }

  private wholeFile(result: LintResult): void {
    this.whole = result.diagnostics.map(keepable);
    this.rows = countRows(result);
    if (this.options.git) this.cardsInGit = cardsIn(result, this.options.git);
    this.pending = '';
  }

  /** duplicate-order-id of the first `rows` rows told, counted in the whole file, on the small file's lines. */
  private duplicates(result: LintResult, told: RowsTold, rows: number, shift: number): LintDiagnostic[] {
    const out: LintDiagnostic[] = [];
    for (let i = 0; i < rows; i++) {
      const id = told.ids[i];
      if (id === undefined) continue;
      const first = this.firstRow.firstRow(id, this.rows + i + 1);
      if (first === 0) continue;
      const index = result.batch.csv.index;
      const range = { start: index.positionAt(told.idFrom[i]), end: index.positionAt(told.idTo[i]) };
      out.push({ ...duplicateOrderId(range, id, first), range: shiftRange(range, shift) });
    }
    return out;
  }

  /** The first SRC row (and the first needing a state) among the first `rows` rows told, for the header's problems at the end. */
  private noteSrc(text: string, told: RowsTold, rows: number): void {
    const kept = (at: { i: number; start: number; end: number } | undefined) =>
      at && at.i < rows ? detached(text.slice(at.start, at.end)) : undefined;
    this.stateRow ??= kept(told.needsState);
    this.srcRow ??= kept(told.src);
  }

  /**
   * Keeps the first `keep` of each severity in the core's order: by position, and at one position the
   * core's checks' order — a row's duplicate-order-id comes after its other problems at the same place.
   */
  private keepInOrder(own: LintDiagnostic[], duplicates: LintDiagnostic[], shift: number): void {
    let j = 0;
    for (const d of own) {
      const moved = { ...d, range: shiftRange(d.range, shift) };
      while (j < duplicates.length && startsBefore(duplicates[j], moved)) this.keep(duplicates[j++]);
      this.keep(moved);
    }
    while (j < duplicates.length) this.keep(duplicates[j++]);
  }

  private keep(d: LintDiagnostic): void {
    const rank = RANK[d.severity];
    this.totals[rank]++;
    this.seq++;
    if (this.kept[rank].length < this.options.keep) this.kept[rank].push({ d: keepable(d), seq: this.seq });
  }

  private lookForCards(result: LintResult, cutLine: number, shift: number): void {
    if (!this.options.git || this.cardsInGit) return;
    const found = cardsIn(result, this.options.git);
    if (found && found.range.start.line > this.headerLine && found.range.start.line < cutLine)
      this.cardsInGit = keepable({ ...found, range: shiftRange(found.range, shift) });
  }

  /** The header's problems as the whole file has them: the header linted with the first row that needs the most of it. */
  private headerProblems(): LintDiagnostic[] {
    const row = this.stateRow ?? this.srcRow;
    return row === undefined ? this.firstHead : this.headerLinted(row);
  }

  /** The problems on the header's lines of the file's start up to its header, with `row` after it. */
  private headerLinted(row: string | undefined): LintDiagnostic[] {
    const text = row === undefined ? this.prefix! : `${this.prefix}${this.eol}${row}`;
    const { diagnostics } = lint(text, { today: this.options.today });
    return diagnostics.filter((d) => d.range.start.line <= this.headerLine).map(keepable);
  }

  private problems(complete: boolean): StreamProblems {
    const base = { rows: this.rows, cardsInGit: this.cardsInGit, stoppedAt: this.stoppedAt };
    if (this.whole) return { ...base, diagnostics: this.whole, total: this.whole.length };
    const head = complete ? this.headerProblems() : this.firstHead;
    const rows = [...this.kept[0], ...this.kept[1], ...this.kept[2]].sort((a, b) => a.seq - b.seq).map((k) => k.d);
    const total = head.length + this.totals[0] + this.totals[1] + this.totals[2];
    return { ...base, diagnostics: [...head, ...rows], total };
  }
}

function cardsIn(result: LintResult, git: { tracking: GitTracking; fileName: string }): LintDiagnostic | undefined {
  return cardDataInGit(result.batch, git.tracking, git.fileName);
}
