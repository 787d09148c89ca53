import { todayLocal, type CalendarDate } from '../dates';
import { parseCsv } from '../csv/parse';
import { batchFromCsv, hasCompleteAmountMode, type Batch } from './batch';
import { Codes, type Severity } from './codes';
import { AMOUNT_COLUMNS, COLUMNS } from './columns';
import { appendColumnFix, dropBomFix, lazyFix, replaceCellFix, rewriteDelimiterFix } from './fixes';
import { otherDelimiter } from './header';
import { payloadProblem } from './payloadCheck';
import { inMessage, quotedCell } from './quote';
import { ourWords, said, typed } from '../output';
import { checkRows, type SrcRows } from './rowChecks';
import { ProblemCollector } from './problems';
import type { SafeFixList } from './safeFixList';
import type { RowFactsListener } from './rowFacts';
import type { Fix, LintDiagnostic } from './types';
import { CardNumberFinder, firstFullCardNumber, type CardNumberCell } from './cardDataInGit';

// The linter: document text in, the rule book's diagnostics out. The same function serves the editor,
// `paygate lint` and `fix`, the pre-submit gate and the local gateway's validation.

export interface LintOptions {
  /** "Today" for card-expired and start-date-past; the local date by default. */
  today?: CalendarDate;
  /**
   * Keep only the first N problems by position; the rest are counted in `omitted`. All by default. For
   * faces that show a list (the CLI): a file broken on every line would otherwise hold millions.
   */
  maxDiagnostics?: number;
  /**
   * Fix-all: keep no diagnostic, only every safe fix in `safeFixes` (numbers and text, no object per
   * fix); every problem is counted in `omitted`. A file broken or fixed on every line stays cheap.
   */
  safeFixesOnly?: boolean;
  /**
   * The active environment's maximum payload (Base64 characters): a longer batch gets batch-too-large.
   * Absent: not checked (the local gateway weighs the payload itself).
   */
  maxPayloadBytes?: number;
  /** Told every data row's facts (SRC, the duplicate check's key): what an incremental lint keeps per row. */
  onRow?: RowFactsListener;
  /**
   * Also find the first full card number (card-data-in-git), in the same pass over the rows: `cardNumber`
   * in the result. For `paygate lint`, which asks git about a file only when it holds one.
   */
  findCardNumber?: boolean;
}

export interface LintResult {
  diagnostics: LintDiagnostic[];
  batch: Batch;
  /** Set when maxDiagnostics left problems out: how many, by severity. */
  omitted?: Record<Severity, number>;
  /** With safeFixesOnly: the safe fixes, compactly (diagnostics then stays empty). */
  safeFixes?: SafeFixList;
  /** With findCardNumber: the first full card number, or null when the batch holds none. */
  cardNumber?: CardNumberCell | null;
}

const REQUIRED_ALWAYS = COLUMNS.filter((c) => c.necessity === 'required').map((c) => c.name);
const REQUIRED_SRC = COLUMNS.filter((c) => c.necessity === 'required-src').map((c) => c.name);

export function lint(text: string, options: LintOptions = {}): LintResult {
  const csv = parseCsv(text);
  const batch = batchFromCsv(csv);
  const problems = new ProblemCollector(batch, options.maxDiagnostics, options.safeFixesOnly);
  // Before the rows pass (a file cut short by a header problem), the card number is looked for alone.
  const cardsAlone = () => (options.findCardNumber ? (firstFullCardNumber(batch) ?? null) : undefined);
  const header = batch.header;
  const bomLength = csv.bom ? 1 : 0;
  const headerStart = header ? header.start : bomLength;
  const headerEnd = header ? header.end : headerStart;

  // A file written with another delimiter: one diagnostic, the rewrite fix, nothing else.
  let other = header ? otherDelimiter(header.values) : undefined;
  // A comma file with quoted names ("a","b") is broken CSV on `;` but a clean header on its own delimiter.
  if (other && header!.syntaxProblem && parseCsv(text, other).syntaxProblemAt(0)) other = undefined;
  if (other) {
    problems.add(
      Codes.delimiter,
      headerStart,
      headerEnd,
      said`the file uses ${ourWords(other === ',' ? 'commas' : 'tabs')} as delimiter; the gateway reads ";"`,
      null,
      [rewriteDelimiterFix(batch, other)],
    );
    return result(problems, false, cardsAlone());
  }

  if (options.maxPayloadBytes !== undefined) {
    const tooLarge = payloadProblem(text, options.maxPayloadBytes);
    if (tooLarge !== undefined) problems.add(Codes.batchTooLarge, headerStart, headerEnd, tooLarge, null);
  }
  if (csv.bom) problems.add(Codes.bom, 0, 1, said`the file starts with a UTF-8 byte order mark; it is ignored`, null, [dropBomFix(batch)]);

  // Structure: syntax problems, and blank lines between records (one diagnostic per run of them). Read
  // from the parse's compact record list: a file of blank lines makes no object per line.
  let lastContent = csv.recordCount - 1;
  while (lastContent > 0 && csv.isBlankAt(lastContent)) lastContent--;
  for (const r of csv.problemRecords) {
    if (r > lastContent) break;
    const p = csv.syntaxProblemAt(r)!;
    problems.add(Codes.csvSyntax, p.start, p.end, ourWords(p.message), null);
  }
  if (header && !header.isBlank && csv.blankCount > 0) {
    for (let r = 0; r <= lastContent; r++) {
      if (r === batch.headerIndex || !csv.isBlankAt(r)) continue;
      let last = r;
      while (last + 1 <= lastContent && last + 1 !== batch.headerIndex && csv.isBlankAt(last + 1)) last++;
      const lines = last - r + 1;
      const message =
        lines === 1 ? said`blank line between records: remove it` : said`${typed.count(lines)} blank lines between records: remove them`;
      problems.add(Codes.blankLine, csv.recordStart(r), csv.recordStart(last), message, null);
      r = last;
    }
  }
  if (header?.syntaxProblem) return result(problems, false, cardsAlone());

  // Rows first: each row is tokenized once (field counts included), and checkRows learns on the way
  // which rows are SRC (and, when asked, where the first full card number is).
  const cards = options.findCardNumber ? new CardNumberFinder() : undefined;
  const src = checkRows(problems, options.today ?? todayLocal(), options.onRow, cards);
  checkHeader(problems, headerStart, headerEnd, src);
  return result(problems, true, cards && (cards.found ?? null));
}

/** The early returns keep the order the problems were found in, as before; a limited list is in heap order and always sorted. */
function result(problems: ProblemCollector, sort: boolean, cardNumber: CardNumberCell | null | undefined): LintResult {
  if (sort || problems.limited)
    problems.diagnostics.sort((a, b) => a.range.start.line - b.range.start.line || a.range.start.character - b.range.start.character);
  const out: LintResult = { diagnostics: problems.diagnostics, batch: problems.batch };
  if (problems.omittedCount > 0) out.omitted = { ...problems.omitted };
  if (problems.safeFixes) out.safeFixes = problems.safeFixes;
  if (cardNumber !== undefined) out.cardNumber = cardNumber;
  return out;
}

function checkHeader(problems: ProblemCollector, headerStart: number, headerEnd: number, src: SrcRows): void {
  const { batch } = problems;
  const header = batch.header;
  for (const cell of batch.headerCells) {
    const start = header!.fieldStart(cell.index);
    const end = header!.fieldEnd(cell.index);
    if (cell.duplicate) {
      // Only a resolved column is ever a duplicate: the name is the table's, never the raw cell.
      const name = cell.match.kind === 'unknown' ? `"${inMessage(cell.raw)}"` : cell.match.column;
      const shown = cell.match.kind === 'unknown' ? quotedCell(cell.raw) : ourWords(name);
      problems.add(Codes.duplicateColumn, start, end, said`column ${shown} appears more than once`, name);
    } else if (cell.match.kind === 'alias') {
      const to = cell.match.column;
      problems.add(Codes.columnAlias, start, end, said`${quotedCell(cell.raw)} is not the gateway's name: use ${ourWords(to)}`, to, [
        replaceCellFix(batch, header!, cell.index, to, said`Rename column to ${ourWords(to)}`, true, true),
      ]);
    } else if (cell.match.kind === 'unknown') {
      const suggestion = cell.match.suggestion;
      const message =
        cell.raw.trim() === ''
          ? said`empty column name`
          : said`unknown column ${quotedCell(cell.raw)}${suggestion ? said`: did you mean ${ourWords(suggestion)}?` : ourWords('')}`;
      const fixes = suggestion
        ? [replaceCellFix(batch, header!, cell.index, suggestion, said`Rename column to ${ourWords(suggestion)}`, false, true)]
        : [];
      problems.add(Codes.unknownColumn, start, end, message, null, fixes);
    }
  }

  const has = (name: string) => batch.columnIndex.has(name);
  const missing = (name: string, why: string, fixes: Fix[] = [appendColumnFix(batch, name)]) =>
    problems.add(Codes.missingColumn, headerStart, headerEnd, said`missing column ${ourWords(name)}${ourWords(why)}`, name, fixes);

  for (const name of REQUIRED_ALWAYS) if (!has(name)) missing(name, '');

  const { anySrc, srcNeedsState } = src;
  if (anySrc) {
    for (const name of REQUIRED_SRC) if (!has(name)) missing(name, ' (required for SRC rows)');
    if (!has('state') && srcNeedsState) {
      missing('state', ' (required for SRC rows whose country is US, CA or AU)');
    }
  }

  if (!hasCompleteAmountMode(batch)) {
    const [amount, from, to, sequence] = AMOUNT_COLUMNS;
    const add = (names: string[]): Fix => {
      const fixes = names.filter((n) => !has(n)).map((n) => appendColumnFix(batch, n));
      const title = ourWords(`Add column${fixes.length > 1 ? 's' : ''} ${names.filter((n) => !has(n)).join(' and ')}`);
      return lazyFix(title, false, () => fixes.flatMap((f) => f.edits));
    };
    const fixes = [add([amount]), add([from, to]), add([sequence])];
    const partial = has(from) !== has(to) ? ` (${has(from) ? from : to} needs its pair ${has(from) ? to : from})` : '';
    // The column to name: the missing half of a pair, else amount.
    let column: string = amount;
    if (has(from)) column = to;
    else if (has(to)) column = from;
    problems.add(
      Codes.missingColumn,
      headerStart,
      headerEnd,
      said`missing amount column: add amount, amount-from with amount-to, or amount-sequence${ourWords(partial)}`,
      column,
      fixes,
    );
  }
}
