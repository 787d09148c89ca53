import { parseCsv, type CsvField, type CsvRecord, type ParsedCsv } from '../csv/parse';
import { matchHeaderName, type HeaderMatch } from './header';

// A recurring-payment batch: the parsed CSV seen through its header. Columns are resolved once (aliases
// count as their column; a duplicate is ignored after its first appearance), rows read values by name.

export interface BatchRow {
  record: CsvRecord;
  /** Index of the record in the file (0 = header). */
  recordIndex: number;
  /** 1-based number among the data rows (blank lines not counted). */
  rowNumber: number;
  /** False when the row has a CSV syntax problem or the wrong number of fields. */
  trusted: boolean;
  value(column: string): string | undefined;
  field(column: string): CsvField | undefined;
  values(): Record<string, string>;
}

export interface HeaderCell {
  index: number;
  raw: string;
  match: HeaderMatch;
  /** The column this cell stands for, or null (unknown, or a duplicate of an earlier cell). */
  column: string | null;
  duplicate: boolean;
}

export interface Batch {
  csv: ParsedCsv;
  header: CsvRecord | undefined;
  /** Index of the header among the records (0 unless blank lines come first). */
  headerIndex: number;
  headerCells: HeaderCell[];
  /** Resolved column per header index (null: unknown or duplicate). */
  columns: (string | null)[];
  /** Header index of each resolved column. */
  columnIndex: Map<string, number>;
  rows: BatchRow[];
}

class Row implements BatchRow {
  private knownTrusted?: boolean;

  constructor(
    readonly record: CsvRecord,
    readonly recordIndex: number,
    readonly rowNumber: number,
    /** The header's number of fields. */
    private readonly width: number,
    private readonly columnIndex: Map<string, number>,
  ) {}

  /** Decided when first asked: building the batch reads no row, so the linter tokenizes each row once. */
  get trusted(): boolean {
    return (this.knownTrusted ??= !this.record.syntaxProblem && this.record.values.length === this.width);
  }

  value(column: string): string | undefined {
    const i = this.columnIndex.get(column);
    return i === undefined ? undefined : this.record.values[i];
  }

  field(column: string): CsvField | undefined {
    const i = this.columnIndex.get(column);
    return i === undefined ? undefined : this.record.field(i);
  }

  values(): Record<string, string> {
    const out: Record<string, string> = {};
    for (const [name, i] of this.columnIndex) {
      const v = this.record.values[i];
      if (v !== undefined) out[name] = v;
    }
    return out;
  }
}

export function resolveHeader(header: CsvRecord | undefined): {
  headerCells: HeaderCell[];
  columns: (string | null)[];
  columnIndex: Map<string, number>;
} {
  const headerCells: HeaderCell[] = [];
  const columnIndex = new Map<string, number>();
  const values = header && !header.isBlank ? header.values : [];
  // Names that resolve to a column are known first, so an unknown name is never told to become one.
  const present = new Set<string>();
  for (const raw of values) {
    const m = matchHeaderName(raw);
    if (m.kind !== 'unknown') present.add(m.column);
  }
  values.forEach((raw, index) => {
    const match = matchHeaderName(raw, present);
    const name = match.kind === 'unknown' ? null : match.column;
    const duplicate = name !== null && columnIndex.has(name);
    if (name !== null && !duplicate) columnIndex.set(name, index);
    headerCells.push({ index, raw, match, column: duplicate ? null : name, duplicate });
  });
  return { headerCells, columns: headerCells.map((h) => h.column), columnIndex };
}

export function batchFromCsv(csv: ParsedCsv): Batch {
  // Blank lines before the header are reported (blank-line) but do not make an empty header. Blank
  // records are recognised from the text alone: a file of blank lines makes no object per line.
  let headerIndex = 0;
  while (headerIndex < csv.recordCount && csv.isBlankAt(headerIndex)) headerIndex++;
  if (headerIndex === csv.recordCount) headerIndex = 0;
  const header = headerIndex < csv.recordCount ? csv.record(headerIndex) : undefined;
  const { headerCells, columns, columnIndex } = resolveHeader(header);
  const width = header ? header.values.length : 0;
  // The row objects are made when `rows` is first read (a hover, the local gateway's create, submit):
  // the linter walks the records itself, so `paygate lint` makes no object per row.
  let rows: BatchRow[] | undefined;
  return {
    csv,
    header,
    headerIndex,
    headerCells,
    columns,
    columnIndex,
    get rows(): BatchRow[] {
      if (!rows) {
        rows = [];
        for (let r = headerIndex + 1; r < csv.recordCount; r++) {
          if (!csv.isBlankAt(r)) rows.push(new Row(csv.record(r), r, rows.length + 1, width, columnIndex));
        }
      }
      return rows;
    },
  };
}

export function readBatch(text: string): Batch {
  return batchFromCsv(parseCsv(text));
}

/** Whether the header has one complete amount mode: amount, amount-from with amount-to, or amount-sequence. */
export function hasCompleteAmountMode(batch: Batch): boolean {
  const has = (name: string) => batch.columnIndex.has(name);
  return has('amount') || (has('amount-from') && has('amount-to')) || has('amount-sequence');
}
