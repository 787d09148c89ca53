import { CsvReader, unescape, type Piece } from './reportReader';

// Records of a report as string arrays with the line each starts on, read by the one report reader
// (reportReader.ts). The host checks a report answer, shapes a saved report and reconciles with this;
// text is pushed in pieces, so a report of any size is never held whole.

export interface ReportRecordOptions {
  /** The template's reportCsvDelimiter; guessed from the header line when absent. */
  delimiter?: string;
  onHeader?(columns: string[]): void;
  /** One data record: its values (as wide as the header) and the 1-based line it starts on. */
  onRecord(values: string[], line: number): void;
}

const LF = 10;
const CR = 13;

/** Line breaks (CRLF, LF or CR) in text[from..to). */
function breaks(text: string, from: number, to: number): number {
  let n = 0;
  for (let i = from; i < to; i++) {
    const c = text.charCodeAt(i);
    if (c === LF) n++;
    else if (c === CR && text.charCodeAt(i + 1) !== LF) n++;
  }
  return n;
}

export class ReportRecordReader {
  private readonly reader: CsvReader;
  private line = 1;
  columns: string[] | undefined;

  constructor(options: ReportRecordOptions) {
    this.reader = new CsvReader({
      delimiter: options.delimiter,
      onHeader: (columns) => {
        this.columns = columns;
        // The header's own line break, and any inside its quoted names.
        this.line = 2 + columns.reduce((n, c) => n + breaks(c, 0, c.length), 0);
        options.onHeader?.(columns);
      },
      onPiece: (piece) => this.piece(piece, options.onRecord),
      onSkipped: (text, from, to) => (this.line += breaks(text, from, to)),
    });
  }

  private piece(p: Piece, onRecord: ReportRecordOptions['onRecord']): void {
    const width = p.rows === 0 ? 0 : p.start.length / p.rows;
    let at = p.begin;
    for (let r = 0; r < p.rows; r++) {
      const base = r * width;
      // A quoted first field starts one past its quote, which is no line break, so counting to it is exact.
      this.line += breaks(p.text, at, p.start[base]);
      at = p.start[base];
      const values = new Array<string>(width);
      for (let c = 0; c < width; c++) values[c] = unescape(p.text, p.start[base + c], p.end[base + c], p.escaped?.[base + c] === 1);
      onRecord(values, this.line);
    }
    this.line += breaks(p.text, at, p.consumed);
  }

  push(text: string): void {
    this.reader.push(text);
  }

  end(): void {
    this.reader.end();
  }

  /** Malformed quoting seen (an unclosed quote, text after a closing quote). */
  get errors(): number {
    return this.reader.errors;
  }

  /** Records not as wide as the header. */
  get ragged(): number {
    return this.reader.ragged;
  }
}

/** A whole text at once: the header and rows, or undefined when quoting is malformed or a row is ragged. */
export function readReportText(text: string, delimiter?: string): { columns: string[]; rows: string[][] } | undefined {
  const rows: string[][] = [];
  const reader = new ReportRecordReader({ delimiter, onRecord: (values) => rows.push(values) });
  reader.push(text);
  reader.end();
  if (reader.errors > 0 || reader.ragged > 0 || !reader.columns || reader.columns.length === 0) return undefined;
  return { columns: reader.columns, rows };
}
