import type { CalendarDate } from '../dates';
import { maskCardValue, ourWords, said, typed, type Said } from '../output';
import { Codes } from './codes';
import { COLUMNS, type ColumnSpec } from './columns';
import { FirstSeen } from './firstSeen';
import { gatewayOrderId, hasIdNoise, idNoiseWords, plainIdHashIn, withoutIdNoise } from '../orderId';
import { cellPart } from './quote';
import { duplicateOrderIdMessage, UNTRUSTED_ROW, type RowFactsListener, type TrustedRow } from './rowFacts';
import { addEmptyFieldsFix, changeToFix, replaceCellFix } from './fixes';
import { hasCompleteAmountMode } from './batch';
import type { ProblemCollector } from './problems';
import { EXPECTED, isValidIn, suggestValue, tooLong } from './values';
import { cell, checkCrossFields, GOOD, isStateCountry, NAMES, ORDINAL, type Positions } from './crossFields';
import { RowCells } from '../csv/rowCells';
import { cardColumnOf, type CardNumberFinder } from './cardDataInGit';

// Row checks. Per cell, in the rule book's precedence: required-value, then dst-unsupported, then
// max-length alone, then invalid-value; cross-field checks only look at cells that passed. Rows with
// csv-syntax or field-count are skipped (their cells cannot be trusted). This loop runs for every cell of
// every row, so it allocates nothing per cell and creates no closures: header positions are looked up once,
// per-row state lives in reused typed arrays, and cells are read in place (RowCells): a string is cut only
// for a message, a key or a rare kind.

/**
 * invalid-value's message: the value as it may appear in a message, card numbers masked, hidden columns not
 * at all. A card number typed into another column (two header names swapped) is masked there too: messages
 * reach CI logs. Made for every such cell, so its parts are listed as they are (no template to splice).
 */
function invalidMessage(spec: ColumnSpec, v: string): Said {
  const must = [spec.name, ' must be ', EXPECTED[spec.kind]];
  if (spec.sensitive === 'hidden') return { said: must };
  if (spec.sensitive !== 'card') return { said: [...must, ' (got "', cellPart(v), '")'] };
  const masked = maskCardValue(v);
  return { said: [...must, ' (got "', typed.text(masked.length > 40 ? `${masked.slice(0, 37)}...` : masked), '")'] };
}

/** What the header check needs to know of the rows: any SRC row, and any SRC row in a country with states. */
export interface SrcRows {
  anySrc: boolean;
  srcNeedsState: boolean;
}

/**
 * Checks every data row. `cards`, when given, is shown each data row until it finds a full card number
 * (card-data-in-git): in this pass, so the rows are not read a second time for it.
 */
export function checkRows(problems: ProblemCollector, today: CalendarDate, onRow?: RowFactsListener, cards?: CardNumberFinder): SrcRows {
  const checker = new RowChecker(problems, today, onRow, cards);
  const csv = problems.batch.csv;
  // The data rows straight from the parse (no BatchRow per row; a CsvRecord only for a fix or onRow).
  let rowNumber = 0;
  for (let r = problems.batch.headerIndex + 1; r < csv.recordCount; r++) if (!csv.isBlankAt(r)) checker.check(r, ++rowNumber);
  return checker.src;
}

/**
 * One row at a time, in small methods: each is called for every row and so is optimised by the engine
 * after the first few hundred rows, whole and with the types it has seen (one function holding the loop
 * was compiled late, while the rows ran unoptimised, and again after each of its exits).
 */
class RowChecker {
  // The header's columns as parallel arrays of small numbers: the cell loop reads no objects.
  private readonly planIndex: number[];
  private readonly planOrdinal: number[];
  private readonly planSpec: ColumnSpec[];
  private readonly planNeed: Uint8Array;
  private readonly planNoDst: Uint8Array;
  private readonly planMax: Int32Array;
  private readonly planText: Uint8Array;
  private readonly pos = {} as Positions;
  private readonly amountModes: boolean;
  private readonly seenOrderIds: FirstSeen;
  /** Which columns' cells of the current row passed their own checks, by column ordinal. */
  private readonly good = new Uint8Array(COLUMNS.length);
  private readonly width: number;
  private readonly row = new RowCells();
  /** What the listener is given of each trusted row: the same object, its cells read anew for each row. */
  private readonly trusted: TrustedRow;
  private readonly cardColumn: number;
  private seekCard: boolean;
  private idHash = NaN; // the plain client-orderid's hash (orderIdOf), for the duplicate-id table
  readonly src: SrcRows = { anySrc: false, srcNeedsState: false };

  constructor(
    private readonly problems: ProblemCollector,
    private readonly today: CalendarDate,
    private readonly onRow: RowFactsListener | undefined,
    private readonly cards: CardNumberFinder | undefined,
  ) {
    const { batch } = problems;
    const entries = [...batch.columnIndex.entries()].sort((a, b) => a[1] - b[1]);
    this.planIndex = entries.map(([, index]) => index);
    this.planOrdinal = entries.map(([name]) => ORDINAL.get(name)!);
    const planSpec = (this.planSpec = this.planOrdinal.map((o) => COLUMNS[o]));
    const NEED = { required: 1, 'required-src': 2 } as Partial<Record<string, number>>;
    this.planNeed = Uint8Array.from(planSpec, (c) => NEED[c.necessity] ?? 0);
    this.planNoDst = Uint8Array.from(planSpec, (c) => (c.dst ? 0 : 1));
    this.planMax = Int32Array.from(planSpec, (c) => c.maxLength ?? -1);
    this.planText = Uint8Array.from(planSpec, (c) => (c.kind === 'text' ? 1 : 0));
    for (const k of Object.keys(NAMES) as (keyof Positions)[]) this.pos[k] = batch.columnIndex.get(NAMES[k]) ?? -1;
    this.amountModes = hasCompleteAmountMode(batch);
    // Sized for a usual batch and grown as ids arrive: a file of a million copies of one id needs one slot.
    this.seenOrderIds = new FirstSeen(Math.min(batch.csv.recordCount, 1 << 17), undefined, batch.csv.text);
    this.width = batch.header ? batch.header.values.length : 0;
    this.cardColumn = cards ? (cardColumnOf(batch) ?? -1) : -1;
    this.seekCard = this.cardColumn >= 0;
    this.trusted = { cells: this.row, columnIndex: batch.columnIndex };
  }

  /** Record r, data row number `rowNumber`. A row with csv-syntax or field-count gets no other check. */
  check(r: number, rowNumber: number): void {
    const { problems, row, pos } = this;
    const csv = problems.batch.csv;
    if (csv.syntaxProblemAt(r)) {
      if (this.seekCard) {
        csv.readRow(r, row);
        this.lookForCard();
      }
      this.onRow?.(csv.record(r), rowNumber, UNTRUSTED_ROW);
      return;
    }
    csv.readRow(r, row);
    if (row.count !== this.width) {
      if (this.seekCard) this.lookForCard();
      this.fieldCount();
      this.onRow?.(csv.record(r), rowNumber, UNTRUSTED_ROW);
      return;
    }
    const isSrc = pos.cardType >= 0 && row.is(pos.cardType, 'SRC');
    const isDst = pos.cardType >= 0 && row.is(pos.cardType, 'DST');
    const srcNeedsState = isSrc && pos.country >= 0 && isStateCountry(row, pos.country);
    if (isSrc) this.src.anySrc = true;
    if (srcNeedsState) this.src.srcNeedsState = true;
    this.checkCells(r, isSrc, isDst);
    const card = checkCrossFields(problems, row, pos, this.good, isSrc, isDst, srcNeedsState, this.amountModes, this.today);
    if (this.seekCard) this.lookForCard(card);
    const read = pos.orderId >= 0 && this.good[GOOD.orderId] === 1 ? this.orderIdOf(pos.orderId, r) : undefined;
    const hasId = read !== undefined;
    if (hasId) this.duplicateOrderId(rowNumber, read);
    this.onRow?.(
      csv.record(r),
      rowNumber,
      {
        src: isSrc,
        srcNeedsState,
        orderId: hasId ? (read ?? row.value(pos.orderId)) : undefined,
        orderIdStart: hasId ? row.bounds[2 * pos.orderId] : -1,
        orderIdEnd: hasId ? row.bounds[2 * pos.orderId + 1] : -1,
      },
      this.trusted,
    );
  }

  /** `card`: card-luhn's reading of the card cell, when it passed its own checks (checkCrossFields). */
  private lookForCard(card?: number): void {
    if (card === undefined) this.cards!.look(this.row, this.cardColumn);
    else if (!Number.isNaN(card)) this.cards!.lookChecked(this.row, this.cardColumn, card);
    this.seekCard = !this.cards!.found;
  }

  private fieldCount(): void {
    const { row, width } = this;
    const n = row.count;
    // A row short by trailing fields is what adding a column to the header leaves: offered (not safe: the
    // missing field may be in the middle) to add the empty ones at the end.
    const start = row.bounds[0]; // the row's own bounds: the record is not tokenized again
    const end = row.bounds[2 * n - 1];
    const fixes = n < width ? [addEmptyFieldsFix(this.problems.batch, end, width - n)] : [];
    const message = said`row has ${typed.count(n)} ${ourWords(n === 1 ? 'field' : 'fields')}; the header has ${typed.count(width)}`;
    this.problems.add(Codes.fieldCount, start, end, message, null, fixes);
  }

  /** Each cell on its own, in the rule book's precedence; `good` says which passed. */
  private checkCells(r: number, isSrc: boolean, isDst: boolean): void {
    const { problems, row, planIndex, planNeed, planSpec, planNoDst, planMax, planText, good } = this;
    good.fill(0);
    for (let k = 0; k < planIndex.length; k++) {
      const index = planIndex[k];
      const from = row.from(index);
      const to = row.to(index);
      if (from === to) {
        const need = planNeed[k];
        if (need === 1) cell(problems, row, index, Codes.requiredValue, { said: [planSpec[k].name, ' is required'] }, planSpec[k].name);
        else if (need === 2 && isSrc)
          cell(problems, row, index, Codes.requiredValue, { said: [planSpec[k].name, ' is required for SRC rows'] }, planSpec[k].name);
        continue;
      }
      if (isDst && planNoDst[k] === 1) {
        this.dstUnsupported(r, k);
        continue;
      }
      if (planMax[k] >= 0 && to - from > planMax[k] && tooLong(planSpec[k], row.value(index))) {
        const spec = planSpec[k];
        const what = spec.kind === 'decimal-list' ? 'an element longer than' : 'longer than';
        const message = said`${ourWords(spec.name)} is ${ourWords(what)} ${typed.count(spec.maxLength!)} characters`;
        cell(problems, row, index, Codes.maxLength, message, spec.name);
        continue;
      }
      if (planText[k] === 0 && !isValidIn(planSpec[k].kind, row.source, from, to)) {
        this.invalidValue(r, k);
        continue;
      }
      good[this.planOrdinal[k]] = 1;
    }
  }

  private dstUnsupported(r: number, k: number): void {
    const { problems, row } = this;
    const index = this.planIndex[k];
    const spec = this.planSpec[k];
    if (!problems.keeps(row.bounds[2 * index])) return problems.skip(Codes.dstUnsupported);
    const fix = replaceCellFix(problems.batch, problems.batch.csv.record(r), index, '', said`Clear ${ourWords(spec.name)}`, false);
    cell(
      problems,
      row,
      index,
      Codes.dstUnsupported,
      said`${ourWords(spec.name)} is not supported for DST rows: leave it empty`,
      spec.name,
      [fix],
    );
  }

  private invalidValue(r: number, k: number): void {
    const { problems, row } = this;
    const index = this.planIndex[k];
    const spec = this.planSpec[k];
    // Past the problems a limited collector keeps, only count: no message, mask or fix is built.
    if (!problems.keeps(row.bounds[2 * index])) return problems.skip(Codes.invalidValue);
    const v = row.value(index);
    const better = spec.sensitive ? undefined : suggestValue(spec.kind, v);
    const record = problems.batch.csv.record(r);
    const fixes = better === undefined ? [] : [changeToFix(problems.batch, record, index, spec.kind, better)];
    cell(problems, row, index, Codes.invalidValue, invalidMessage(spec, v), spec.name, fixes);
  }

  /**
   * Cell `at`'s client-orderid as the gateway reads it (orderId.ts): null when that is the cell itself (nearly
   * always: read in place, no string cut; hashed in `idHash`), undefined when it reads as nothing (only whitespace).
   */
  private orderIdOf(at: number, r: number): string | null | undefined {
    const { row } = this;
    this.idHash = plainIdHashIn(row.source, row.from(at), row.to(at));
    if (!Number.isNaN(this.idHash)) return null;
    const cellValue = row.value(at);
    if (hasIdNoise(cellValue)) this.idWhitespace(r, at, cellValue);
    const read = gatewayOrderId(cellValue);
    return read === '' ? undefined : read;
  }

  /** id-whitespace: whitespace around the id or an invisible character in it; the safe fix removes them. */
  private idWhitespace(r: number, at: number, cellValue: string): void {
    const { problems, row } = this;
    if (!problems.keeps(row.bounds[2 * at])) return problems.skip(Codes.idWhitespace);
    const clean = withoutIdNoise(cellValue);
    const fixes =
      clean === ''
        ? []
        : [
            replaceCellFix(
              problems.batch,
              problems.batch.csv.record(r),
              at,
              clean,
              ourWords('Remove the whitespace and invisible characters'),
              true,
              true,
            ),
          ];
    const what = clean === '' ? 'holds only whitespace or invisible characters' : `has ${idNoiseWords(cellValue)}`;
    cell(
      problems,
      row,
      at,
      Codes.idWhitespace,
      said`client-orderid ${ourWords(what)}: the gateway reads it as "${cellPart(gatewayOrderId(cellValue))}"`,
      'client-orderid',
      fixes,
    );
  }

  /** duplicate-order-id: the id (as the gateway reads it; `read` null: the cell itself) seen on an earlier row. */
  private duplicateOrderId(rowNumber: number, read: string | null): void {
    const { problems, row } = this;
    const at = this.pos.orderId;
    const first =
      read === null
        ? this.seenOrderIds.firstRowHashed(this.idHash, row.source, row.from(at), row.to(at), rowNumber)
        : this.seenOrderIds.firstRow(read, rowNumber);
    if (first === 0) return;
    if (!problems.keeps(row.bounds[2 * at])) return problems.skip(Codes.duplicateOrderId);
    cell(problems, row, at, Codes.duplicateOrderId, duplicateOrderIdMessage(read ?? row.value(at), first), 'client-orderid');
  }
}
