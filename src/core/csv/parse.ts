import { afterBreak, LineBreaks, LineIndex } from '../text';
import { ChunkedInt32 } from '../chunked';
import { NextChar, type RowCells } from './rowCells';
import { quotedRecordNext, scanRecord, splitRecord, type Cells, type CsvSyntaxProblem } from './tokenize';

// CSV reading with the exact offset of every field, in one pass over the text.
//
// Parsing keeps only where each record starts and whether it needs the full tokenizer (4 bytes a
// record, the flag in the sign); values and field offsets are cut from the text again when someone asks for a
// record, and only the last few are kept. So a 300 MB batch is not held twice (once as text, once as
// millions of small strings), a file of blank lines costs four bytes a line, and any record, however
// broken, is read once by the scan and once when it is looked at. papaparse is not used here: it gives
// no positions, and recovering them (and resuming after its quote errors) read the rest of the file
// again for every broken row.

export interface CsvField {
  value: string;
  start: number; // offset of the first character (the opening quote when quoted)
  end: number; // offset after the last character
  quoted: boolean;
}

export type { CsvSyntaxProblem } from './tokenize';

const QUOTE = 34; // "
const CR = 13;
const LF = 10;

/** How many tokenized records a ParsedCsv keeps: the linter looks at one row at a time. */
const KEEP = 4;

/** One record of a ParsedCsv: a view that reads its values and offsets from the text when asked. */
export class CsvRecord {
  private cachedFields?: CsvField[];

  constructor(
    private readonly csv: ParsedCsv,
    /** Index of the record in the file. */
    readonly index: number,
  ) {}

  get start(): number {
    return this.csv.recordStart(this.index);
  }

  get end(): number {
    return this.csv.cells(this.index).end;
  }

  /** Field values after unquoting. */
  get values(): string[] {
    return this.csv.cells(this.index).values;
  }

  /** Set when the record is not well-formed CSV: its cells cannot be trusted. */
  get syntaxProblem(): CsvSyntaxProblem | undefined {
    return this.csv.syntaxProblemAt(this.index);
  }

  /** An empty record: nothing between two record separators. */
  get isBlank(): boolean {
    return this.csv.isBlankAt(this.index);
  }

  fieldStart(i: number): number {
    return this.csv.cells(this.index).bounds[2 * i];
  }

  fieldEnd(i: number): number {
    return this.csv.cells(this.index).bounds[2 * i + 1];
  }

  field(i: number): CsvField | undefined {
    return this.fields[i];
  }

  /** Field objects are built on demand: the linter works on values and bounds, hovers want objects. */
  get fields(): CsvField[] {
    if (!this.cachedFields) {
      const { values, bounds } = this.csv.cells(this.index);
      const text = this.csv.text;
      this.cachedFields = values.map((value, i) => ({
        value,
        start: bounds[2 * i],
        end: bounds[2 * i + 1],
        quoted: text.charCodeAt(bounds[2 * i]) === QUOTE,
      }));
    }
    return this.cachedFields;
  }
}

export class ParsedCsv {
  private cachedIndex?: LineIndex;
  private cachedRecords?: CsvRecord[];
  /** The last few tokenized records, newest last. */
  private readonly recent: Cells[] = [];
  private delimiters?: NextChar;

  constructor(
    readonly text: string,
    readonly bom: boolean,
    readonly delimiter: string,
    /**
     * Start offset of every record; stored as ~start (negative) when the record holds a quote and is read
     * by the tokenizer, as is when its fields are the text split at delimiters.
     */
    private readonly starts: ChunkedInt32,
    readonly recordCount: number,
    private readonly problems: ReadonlyMap<number, CsvSyntaxProblem>,
    /** How many records are blank: when none, nobody needs to look for them. */
    readonly blankCount: number,
  ) {}

  /** Built on first use: only diagnostics and hovers need line/character positions. */
  get index(): LineIndex {
    return (this.cachedIndex ??= new LineIndex(this.text));
  }

  /**
   * Every record as an object. Convenient for small texts and tests; code that may see large files walks
   * `recordCount` with `record(i)`, `isBlankAt(i)` and `recordStart(i)` instead.
   */
  get records(): CsvRecord[] {
    if (!this.cachedRecords) {
      const all: CsvRecord[] = new Array(this.recordCount);
      for (let i = 0; i < this.recordCount; i++) all[i] = new CsvRecord(this, i);
      this.cachedRecords = all;
    }
    return this.cachedRecords;
  }

  record(i: number): CsvRecord {
    return this.cachedRecords?.[i] ?? new CsvRecord(this, i);
  }

  recordStart(i: number): number {
    const s = this.starts.get(i);
    return s < 0 ? ~s : s;
  }

  /** Nothing between two record separators. Read from the text: no record object needed. */
  isBlankAt(i: number): boolean {
    const c = this.text.charCodeAt(this.recordStart(i));
    return c === LF || c === CR;
  }

  syntaxProblemAt(i: number): CsvSyntaxProblem | undefined {
    return this.problems.size === 0 ? undefined : this.problems.get(i);
  }

  /** Indexes of the records with a syntax problem, ascending. */
  get problemRecords(): number[] {
    return [...this.problems.keys()].sort((a, b) => a - b);
  }

  /** Values and offsets of record `i`, tokenized again unless it is one of the last few asked for. */
  cells(i: number): Cells {
    const recent = this.recent;
    for (let k = recent.length - 1; k >= 0; k--) if (recent[k].index === i) return recent[k];
    const stored = this.starts.get(i);
    const cells =
      stored < 0
        ? scanRecord(this.text, ~stored, this.delimiter, i, true)
        : splitRecord(this.text, stored, this.recordEnd(i), this.delimiter, i);
    if (recent.length === KEEP) recent.shift();
    recent.push(cells);
    return cells;
  }

  /** Record i's cells into `row`, in place (see RowCells): the linter's way to read every row. */
  readRow(i: number, row: RowCells): void {
    const stored = this.starts.get(i);
    const delimiters = (this.delimiters ??= new NextChar(this.text, this.delimiter));
    if (stored >= 0) row.readSplit(this.text, stored, this.recordEnd(i), delimiters);
    else if (this.syntaxProblemAt(i)) row.readCells(this.cells(i));
    else row.readQuoted(this.text, ~stored, this.recordEnd(i), delimiters);
  }

  /** End of a record: before the separator that starts the next one (or the text's end). */
  private recordEnd(i: number): number {
    const text = this.text;
    const next = i + 1 < this.recordCount ? this.recordStart(i + 1) : text.length;
    if (next === 0) return 0;
    const last = text.charCodeAt(next - 1);
    if (last === LF) return text.charCodeAt(next - 2) === CR ? next - 2 : next - 1;
    return last === CR ? next - 1 : next;
  }
}

/**
 * Parses CSV text (`;` by default) into records with exact offsets into `text`. Records end at CRLF, LF
 * or a lone CR; `"` opens a quoted field only at a field's start and `""` inside one is a quote. A BOM
 * is skipped only at the very start; anywhere else it is a character of its field.
 */
export function parseCsv(text: string, delimiter = ';'): ParsedCsv {
  const n = text.length;
  const bom = text.charCodeAt(0) === 0xfeff;
  const starts = new ChunkedInt32();
  const problems = new Map<number, CsvSyntaxProblem>();
  let blankCount = 0;
  let breaks: LineBreaks | undefined;

  // The next quote, LF and CR at or after the scan position. Each is searched again only once the scan
  // has passed it, so every search starts where the last one ended: the text is read once per character.
  let nextQuote = -1;
  let nextLf = -1;
  let nextCr = -1;
  const after = (found: number) => (found === -1 ? n : found);

  let pos = bom ? 1 : 0;
  while (pos < n) {
    const r = starts.length;
    if (nextLf < pos) nextLf = after(text.indexOf('\n', pos));
    if (nextCr < pos) nextCr = after(text.indexOf('\r', pos));
    if (nextQuote < pos) nextQuote = after(text.indexOf('"', pos));
    const lineEnd = nextLf < nextCr ? nextLf : nextCr;
    if (nextQuote >= lineEnd) {
      // No quote before the line break: the record is the line, its fields are split at delimiters.
      starts.push(pos);
      if (lineEnd === pos) blankCount++;
      pos = afterBreak(text, lineEnd);
      continue;
    }
    starts.push(~pos);
    pos = quotedRecordNext(text, pos, delimiter, r, problems, (breaks ??= new LineBreaks(text)));
  }
  return new ParsedCsv(text, bom, delimiter, starts, starts.length, problems, blankCount);
}
