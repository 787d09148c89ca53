import type { CalendarDate } from '../dates';
import { maskCardNumber } from '../output';
import { Codes } from './codes';
import { COLUMNS, STATE_COUNTRIES, type ColumnSpec } from './columns';
import { FirstSeen } from './firstSeen';
import { quoteInMessage } from './quote';
import { duplicateOrderIdMessage, UNTRUSTED_ROW, type RowFactsListener } from './rowFacts';
import { addEmptyFieldsFix, replaceCellFix } from './fixes';
import { hasCompleteAmountMode } from './batch';
import type { ProblemCollector } from './problems';
import { EXPECTED, exceedsLength, isValidIn, suggestValue } from './values';
import { cell, checkCrossFields, GOOD, NAMES, ORDINAL, type Positions } from './crossFields';
import { RowCells } from '../csv/rowCells';

// Row checks. Per cell, in the rule book's precedence: required-value, then dst-unsupported, then
// max-length alone, then invalid-value; cross-field checks only look at cells that passed. Rows with
// csv-syntax or field-count are skipped (their cells cannot be trusted).
//
// This loop runs for every cell of every row, so it allocates nothing per cell and creates no closures:
// header positions are looked up once, per-row state lives in reused typed arrays, and cells are read
// in place (RowCells): a string is cut only for a message, a key or a rare kind.

/**
 * A value as it may appear in a message: card numbers masked, hidden columns not at all. A card number
 * typed into another column (two header names swapped) is masked there too: messages reach CI logs.
 */
function shown(spec: ColumnSpec, v: string): string {
  if (spec.sensitive === 'hidden') return '';
  if (spec.sensitive !== 'card') return ` (got ${quoteInMessage(v)})`;
  const masked = maskCardNumber(v);
  return ` (got "${masked.length > 40 ? `${masked.slice(0, 37)}...` : masked}")`;
}

/** What the header check needs to know of the rows: any SRC row, and any SRC row in a country with states. */
export interface SrcRows {
  anySrc: boolean;
  srcNeedsState: boolean;
}

export function checkRows(problems: ProblemCollector, today: CalendarDate, onRow?: RowFactsListener): SrcRows {
  const { batch } = problems;
  // The header's columns as parallel arrays of small numbers: the cell loop reads no objects.
  const entries = [...batch.columnIndex.entries()].sort((a, b) => a[1] - b[1]);
  const planIndex = entries.map(([, index]) => index);
  const planOrdinal = entries.map(([name]) => ORDINAL.get(name)!);
  const planSpec = planOrdinal.map((o) => COLUMNS[o]);
  const NEED = { required: 1, 'required-src': 2 } as Partial<Record<string, number>>;
  const planNeed = Uint8Array.from(planSpec, (c) => NEED[c.necessity] ?? 0);
  const planNoDst = Uint8Array.from(planSpec, (c) => (c.dst ? 0 : 1));
  const planMax = Int32Array.from(planSpec, (c) => c.maxLength ?? -1);
  const planText = Uint8Array.from(planSpec, (c) => (c.kind === 'text' ? 1 : 0));
  const pos = {} as Positions;
  for (const k of Object.keys(NAMES) as (keyof Positions)[]) pos[k] = batch.columnIndex.get(NAMES[k]) ?? -1;
  const amountModes = hasCompleteAmountMode(batch);
  const csv = batch.csv;
  // Sized for a usual batch and grown as ids arrive: a file of a million copies of one id needs one slot.
  const seenOrderIds = new FirstSeen(Math.min(csv.recordCount, 1 << 17));
  const good = new Uint8Array(COLUMNS.length);
  const src: SrcRows = { anySrc: false, srcNeedsState: false };
  const width = batch.header ? batch.header.values.length : 0;
  const row = new RowCells();

  // The data rows straight from the parse (no BatchRow objects: a file of millions of tiny rows would
  // hold one per row; a CsvRecord is made only for a fix or the onRow listener). A row with csv-syntax or
  // field-count gets no other check.
  let rowNumber = 0;
  for (let r = batch.headerIndex + 1; r < csv.recordCount; r++) {
    if (csv.isBlankAt(r)) continue;
    rowNumber++;
    if (csv.syntaxProblemAt(r)) {
      onRow?.(csv.record(r), rowNumber, UNTRUSTED_ROW);
      continue;
    }
    csv.readRow(r, row);
    if (row.count !== width) {
      const n = row.count;
      // A row short by trailing fields is what adding a column to the header leaves: offered (not safe: the
      // missing field may be in the middle) to add the empty ones at the end.
      const start = row.bounds[0]; // the row's own bounds: the record is not tokenized again
      const end = row.bounds[2 * n - 1];
      const fixes = n < width ? [addEmptyFieldsFix(batch, end, width - n)] : [];
      problems.add(Codes.fieldCount, start, end, `row has ${n} field${n === 1 ? '' : 's'}; the header has ${width}`, null, fixes);
      onRow?.(csv.record(r), rowNumber, UNTRUSTED_ROW);
      continue;
    }
    const isSrc = pos.cardType >= 0 && row.is(pos.cardType, 'SRC');
    const isDst = pos.cardType >= 0 && row.is(pos.cardType, 'DST');
    const srcNeedsState = isSrc && pos.country >= 0 && isStateCountry(row, pos.country);
    if (isSrc) src.anySrc = true;
    if (srcNeedsState) src.srcNeedsState = true;
    good.fill(0);

    for (let k = 0; k < planIndex.length; k++) {
      const index = planIndex[k];
      const from = row.from(index);
      const to = row.to(index);
      if (from === to) {
        const need = planNeed[k];
        if (need === 1) cell(problems, row, index, Codes.requiredValue, `${planSpec[k].name} is required`, planSpec[k].name);
        else if (need === 2 && isSrc)
          cell(problems, row, index, Codes.requiredValue, `${planSpec[k].name} is required for SRC rows`, planSpec[k].name);
        continue;
      }
      if (isDst && planNoDst[k] === 1) {
        const spec = planSpec[k];
        if (!problems.keeps(row.bounds[2 * index])) {
          problems.skip(Codes.dstUnsupported);
          continue;
        }
        const fix = replaceCellFix(batch, csv.record(r), index, '', `Clear ${spec.name}`, false);
        cell(problems, row, index, Codes.dstUnsupported, `${spec.name} is not supported for DST rows: leave it empty`, spec.name, [fix]);
        continue;
      }
      if (planMax[k] >= 0 && to - from > planMax[k] && tooLong(planSpec[k], row.value(index))) {
        const spec = planSpec[k];
        const what = spec.kind === 'decimal-list' ? 'an element longer than' : 'longer than';
        cell(problems, row, index, Codes.maxLength, `${spec.name} is ${what} ${spec.maxLength} characters`, spec.name);
        continue;
      }
      if (planText[k] === 0 && !isValidIn(planSpec[k].kind, row.source, from, to)) {
        const spec = planSpec[k];
        // Past the problems a limited collector keeps, only count: no message, mask or fix is built.
        if (!problems.keeps(row.bounds[2 * index])) {
          problems.skip(Codes.invalidValue);
          continue;
        }
        const v = row.value(index);
        const better = spec.sensitive ? undefined : suggestValue(spec.kind, v);
        const fixes = better === undefined ? [] : [replaceCellFix(batch, csv.record(r), index, better, `Change to ${better}`, true, true)];
        cell(problems, row, index, Codes.invalidValue, `${spec.name} must be ${EXPECTED[spec.kind]}${shown(spec, v)}`, spec.name, fixes);
        continue;
      }
      good[planOrdinal[k]] = 1;
    }

    checkCrossFields(problems, row, pos, good, isSrc, isDst, srcNeedsState, amountModes, today);

    const hasId = pos.orderId >= 0 && good[GOOD.orderId] === 1;
    if (hasId) {
      const first = seenOrderIds.firstRowIn(row.source, row.from(pos.orderId), row.to(pos.orderId), rowNumber);
      if (first !== 0 && !problems.keeps(row.bounds[2 * pos.orderId])) problems.skip(Codes.duplicateOrderId);
      else if (first !== 0) {
        const message = duplicateOrderIdMessage(row.value(pos.orderId), first);
        cell(problems, row, pos.orderId, Codes.duplicateOrderId, message, 'client-orderid');
      }
    }
    onRow?.(csv.record(r), rowNumber, {
      src: isSrc,
      srcNeedsState,
      orderId: hasId ? row.value(pos.orderId) : undefined,
      orderIdStart: hasId ? row.bounds[2 * pos.orderId] : -1,
      orderIdEnd: hasId ? row.bounds[2 * pos.orderId + 1] : -1,
    });
  }
  return src;
}

const STATE_COUNTRY_LIST = [...STATE_COUNTRIES];

/** Is cell i a country whose SRC rows need a state? Read in place: this runs for every SRC row. */
function isStateCountry(row: RowCells, i: number): boolean {
  for (const country of STATE_COUNTRY_LIST) if (row.is(i, country)) return true;
  return false;
}

function tooLong(spec: ColumnSpec, v: string): boolean {
  const max = spec.maxLength!;
  if (spec.kind !== 'decimal-list') return exceedsLength(v, max);
  // Per element, without splitting: this runs for every amount-sequence cell.
  for (let from = 0; from <= v.length;) {
    let to = v.indexOf(',', from);
    if (to === -1) to = v.length;
    if (to - from > max && exceedsLength(v.slice(from, to), max)) return true;
    from = to + 1;
  }
  return false;
}
