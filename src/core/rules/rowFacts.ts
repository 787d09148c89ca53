import type { CsvRecord } from '../csv/parse';
import type { RowCells } from '../csv/rowCells';
import type { Range } from '../text';
import { CodeInfo, Codes } from './codes';
import { cellPart } from './quote';
import { typed, type Said } from '../output';
import type { LintDiagnostic } from './types';

// What one data row tells the checks that look beyond it: the header's SRC columns (missing-column) and
// the duplicate check across rows. The whole-file lint computes them as it checks each row; a face that
// re-checks rows one by one (the language server) takes them from the core through `LintOptions.onRow`
// and builds the cross-row diagnostics with `duplicateOrderId`, so no face keeps its own copy of a rule.

export interface RowFacts {
  /** rp_card_type is SRC: the header then needs the SRC columns. */
  src: boolean;
  /** An SRC row whose country has states: the header then needs state. */
  srcNeedsState: boolean;
  /**
   * The client-orderid as the gateway reads it (core/orderId.ts), when its cell passed its own checks and
   * reads as something: the key of the duplicate check and of the ledger's row key.
   */
  orderId: string | undefined;
  /**
   * Where the client-orderid field is in the linted text (its quotes included), -1 and -1 without an id:
   * the language server puts a later duplicate-order-id there without reading the row again.
   */
  orderIdStart: number;
  orderIdEnd: number;
}

/**
 * A trusted row's cells as the lint read them (no CSV syntax problem, as many fields as the header), valid
 * only during the call: a face that needs more of the row than its facts (the ledger's checks: the
 * fingerprint's cells) reads them here rather than split the row a second time.
 */
export interface TrustedRow {
  cells: RowCells;
  /** The header's columns: resolved name → cell index. */
  columnIndex: ReadonlyMap<string, number>;
}

/**
 * Called by the lint with every data row in file order (`rowNumber` counts data rows from 1); `trusted`
 * for a row that can be trusted, and only then.
 */
export type RowFactsListener = (record: CsvRecord, rowNumber: number, facts: RowFacts, trusted?: TrustedRow) => void;

/** A row with csv-syntax or field-count: its cells are not read, so it tells nothing. */
export const UNTRUSTED_ROW: RowFacts = Object.freeze({
  src: false,
  srcNeedsState: false,
  orderId: undefined,
  orderIdStart: -1,
  orderIdEnd: -1,
});

/** The message of duplicate-order-id: the id masked and cut like every value in a message. */
export function duplicateOrderIdMessage(orderId: string, firstRow: number): Said {
  // Listed as they are (no template to splice): made for every row of a batch whose ids repeat.
  return { said: ['client-orderid "', cellPart(orderId), '" is already used on row ', typed.count(firstRow)] };
}

/** duplicate-order-id on the client-orderid cell at `range`, whose id was first used on row `firstRow`. */
export function duplicateOrderId(range: Range, orderId: string, firstRow: number): LintDiagnostic {
  return {
    code: Codes.duplicateOrderId,
    severity: CodeInfo[Codes.duplicateOrderId].severity,
    message: duplicateOrderIdMessage(orderId, firstRow),
    range,
    columnName: 'client-orderid',
    fixes: [],
  };
}
