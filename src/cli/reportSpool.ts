import * as fs from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { keptColumns, safeJson, type Vetted } from '../core/output';
import { amountColumns } from '../shared/amounts';
import { csvRecordText, tableCell } from './output';
import { batched, type Pieces } from './pieces';

// What `paygate report` prints, made from the answer's one parse as it arrives (runCustomReportToFile's
// onRecord: core/gateway/reportArrival.ts), so the report is never parsed a second time (issue 42). It is
// held in a private temporary file until the whole answer is known to be a report: printed as it came, a
// report later found ragged would already be on the screen; held in memory, it would grow with the report.
// Each record's output is made once, through the output boundary (masked, CVV columns left out, escaped,
// neutralised unless --raw): CSV and JSON as they are printed; for the text table, the shown cells (vetted:
// no control characters, so U+001F parts them and a line ends each record), padded to the widths measured
// meanwhile when the table is printed (reportOut.ts), in one read of this file.

export type Format = 'text' | 'json' | 'csv';

/** Parts the text table's shown cells on a line of the file (a vetted cell holds no control character). */
export const CELL = '\u001f';

export class ReportPrint {
  /** The report's delimiter, for CSV output (the template's reportCsvDelimiter, known before the request). */
  delimiter = ',';
  /** The text table's widths, measured as the report arrives. */
  widths: number[] | undefined;
  /** A shown cell holds a line break (the table then ends with the note on them). */
  breaks = false;
  /** Data records made. */
  rows = 0;
  private keep: number[] | undefined;
  private shown: ReturnType<typeof amountColumns>;
  private dir: string | undefined;
  private fd: number | undefined;
  private out: Pieces | undefined;

  constructor(
    private readonly format: Format,
    private readonly raw: boolean,
  ) {}

  /** The record's cells as the table shows them: the header as it is, a row's amounts through `shown`. */
  private cells(record: string[], header: boolean, count: number): Vetted[] {
    const out: Vetted[] = [];
    for (let i = 0; i < count; i++) {
      const value = !header && this.shown ? this.shown(record, i) : (record[i] ?? '');
      if (!this.breaks && /[\r\n]/.test(value)) this.breaks = true;
      out.push(tableCell(value));
    }
    return out;
  }

  /** Each record as parsed on arrival, the header first: its output made and kept. */
  readonly record = (arrived: string[], header: boolean): void => {
    if (header) this.keep = keptColumns(arrived);
    const record = this.keep ? this.keep.map((i) => arrived[i] ?? '') : arrived;
    const out = this.spool();
    if (this.format === 'csv') out.add(csvRecordText(record, { delimiter: this.delimiter, quoteAll: true, raw: this.raw }));
    else if (this.format === 'json') {
      if (!header) out.add(`${this.rows === 0 ? '' : ','}${safeJson(record)}`);
    } else {
      if (header) {
        this.widths = record.map(() => 0);
        this.shown = amountColumns(record);
      }
      const widths = this.widths ?? [];
      const cells = this.cells(record, header, widths.length);
      for (let i = 0; i < widths.length; i++) widths[i] = Math.max(widths[i], [...cells[i]].length);
      out.add(`${cells.join(CELL)}\n`);
    }
    if (!header) this.rows++;
  };

  private spool(): Pieces {
    if (this.out) return this.out;
    this.dir = fs.mkdtempSync(join(tmpdir(), 'paygate-print-'));
    const fd = fs.openSync(join(this.dir, 'printed'), 'w', 0o600);
    this.fd = fd;
    return (this.out = batched((text) => void fs.writeSync(fd, text)));
  }

  /** What was made, in pieces of about 1 MiB, in order (nothing when no record came). */
  async *pieces(): AsyncGenerator<string> {
    if (!this.out || !this.dir || this.fd === undefined) return;
    this.out.flush();
    fs.closeSync(this.fd);
    this.fd = undefined;
    const stream = fs.createReadStream(join(this.dir, 'printed'), { encoding: 'utf8', highWaterMark: 1 << 20 });
    for await (const piece of stream) yield piece as string;
  }

  /** Removes the file (whatever happened). */
  close(): void {
    if (this.fd !== undefined) fs.closeSync(this.fd);
    this.fd = undefined;
    if (this.dir) fs.rmSync(this.dir, { recursive: true, force: true });
    this.dir = undefined;
  }
}
