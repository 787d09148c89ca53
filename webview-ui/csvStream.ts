// Incremental RFC 4180 parsing on papaparse: text arrives in pieces (from the host, or sliced by the page
// so it can yield between them), and each piece's complete records are parsed at once.
//
// A line break ends a record only outside quotes. In RFC 4180 a quote inside a quoted field is doubled,
// so "outside quotes" is exactly "an even number of quote characters so far": counting them tells where
// the last complete record of the buffer ends without parsing it twice.
import Papa from 'papaparse';

export interface CsvStreamOptions {
  delimiter?: string;
  /** Called with the header record once, then with every batch of data records. */
  onHeader(columns: string[]): void;
  onRows(rows: string[][]): void;
}

export class CsvStream {
  private pending = '';
  private scanned = 0; // characters of `pending` already scanned for quotes and line breaks
  private quotes = 0; // quote characters seen in pending[0, scanned)
  private lastBoundary = -1; // index in pending just after the last record-ending line break outside quotes
  private delimiter: string | undefined;
  private linebreak: string | undefined;
  private breakChar: '\n' | '\r' | undefined;
  private headerDone = false;
  private first = true;
  errors = 0;
  records = 0;

  constructor(private readonly options: CsvStreamOptions) {
    this.delimiter = options.delimiter;
  }

  push(text: string): void {
    if (this.first) {
      this.first = false;
      if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    }
    this.pending += text;
    if (!this.breakChar) {
      // A CR at the very end may be the first half of CRLF: decide only once the next character is known.
      const cr = this.pending.indexOf('\r');
      if (this.pending.includes('\n')) this.breakChar = '\n';
      else if (cr !== -1 && cr < this.pending.length - 1) this.breakChar = '\r';
    }
    this.scan();
    if (this.lastBoundary > 0) {
      const complete = this.pending.slice(0, this.lastBoundary);
      this.pending = this.pending.slice(this.lastBoundary);
      this.scanned -= this.lastBoundary;
      // The cut is at a record boundary, where the quote count is even, so parity carries over.
      this.quotes = countQuotes(this.pending, 0, this.scanned);
      this.lastBoundary = -1;
      this.parse(complete);
    }
  }

  /** The text ended: whatever is left is the last record (possibly without a final line break). */
  end(): void {
    const rest = this.pending;
    this.pending = '';
    this.scanned = 0;
    this.quotes = 0;
    if (rest.length > 0) this.parse(rest);
    if (!this.headerDone) {
      this.headerDone = true;
      this.options.onHeader([]);
    }
  }

  private scan(): void {
    const s = this.pending;
    const br = this.breakChar;
    if (!br) {
      this.quotes += countQuotes(s, this.scanned, s.length);
      this.scanned = s.length;
      return;
    }
    let i = this.scanned;
    let quotes = this.quotes;
    while (i < s.length) {
      const q = s.indexOf('"', i);
      const b = s.indexOf(br, i);
      if (b === -1 && q === -1) break;
      if (q !== -1 && (b === -1 || q < b)) {
        quotes++;
        i = q + 1;
      } else {
        if ((quotes & 1) === 0) this.lastBoundary = b + 1;
        i = b + 1;
      }
    }
    this.quotes = quotes;
    this.scanned = s.length;
  }

  private parse(text: string): void {
    const config: Papa.ParseConfig<string[]> = { delimiter: this.delimiter ?? '', skipEmptyLines: true, header: false };
    if (this.linebreak) config.newline = this.linebreak as '\r' | '\n' | '\r\n';
    const result = Papa.parse<string[]>(text, config);
    this.delimiter ??= result.meta.delimiter;
    this.linebreak ??= result.meta.linebreak;
    this.errors += result.errors.length;
    let rows = result.data;
    if (!this.headerDone) {
      this.headerDone = true;
      this.options.onHeader(rows[0] ?? []);
      rows = rows.slice(1);
    }
    this.records += rows.length;
    if (rows.length > 0) this.options.onRows(rows);
  }
}

function countQuotes(s: string, from: number, to: number): number {
  let n = 0;
  for (let i = s.indexOf('"', from); i !== -1 && i < to; i = s.indexOf('"', i + 1)) n++;
  return n;
}
