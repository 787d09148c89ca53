// How `paygate report` prints a report of any size. The answer is first streamed to a private temporary
// file (runCustomReportToFile recognises and parses it on the way there), then written out from that file
// in one read, in pieces, so memory stays flat however many rows come: csv and json write one record at a
// time, and the text table takes its columns' widths from the arrival's parse (TableMeasure: cells are cut
// to 40 characters, so this keeps one number per column).
//
// Everything printed passes the output boundary: card numbers masked in every column (a Transaction_id or
// a description too), a column named like a CVV left out, text cells escaped, JSON through safeJson, CSV
// cells neutralised unless --raw. The answer's raw bytes go only to the file named by --out.

import * as fs from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { eachSavedReportRecord, type SavedReport } from '../core/gateway';
import { charsetOf } from '../core/gateway/answerText';
import type { CliContext } from './context';
import { amountColumns } from '../shared/amounts';
import { keptColumns, laid, safeJson, words, type Vetted } from '../core/output';
import { csvRecordText, EXIT, field, jsonOut, LINE_BREAK_NOTE, tableCell, tableLine } from './output';
import { batched } from './pieces';

type SavedCsv = Extract<SavedReport, { saved: true }>;
type Format = 'text' | 'json' | 'csv';

/**
 * The file a report is streamed into: `out` itself when the answer goes there as received, else a private
 * temporary file, valid only inside `use` and removed afterwards whatever happens.
 */
export async function withReportFile<T>(out: string | undefined, use: (file: string) => Promise<T>): Promise<T> {
  if (out !== undefined) return use(out);
  const dir = fs.mkdtempSync(join(tmpdir(), 'paygate-report-'));
  try {
    return await use(join(dir, 'report'));
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

interface Printing {
  format: Format;
  /** --raw: CSV cells that start like a formula are written as they came. */
  raw?: boolean;
  /** --out: the JSON goes there (a CSV with --out never comes here; it is saved straight to the file). */
  out: string | undefined;
  what: string;
  templateName: string;
  delimiter: string | undefined;
  encoding: string | undefined;
  /** The text table's widths, measured as the report arrived. */
  measure: TableMeasure;
}

/** Prints (or, for a PDF and for JSON with --out, writes) a report saved in a temporary file. */
export async function printSavedReport(ctx: CliContext, saved: SavedCsv, p: Printing): Promise<number> {
  if (saved.format === 'pdf') {
    const file = p.out ?? `${basename(p.templateName).replace(/(\.report)?\.json$/i, '') || 'report'}.pdf`;
    fs.copyFileSync(saved.file, resolve(ctx.cwd, file));
    if (p.format === 'json') {
      const json = { outcome: 'report', contentType: saved.contentType, format: 'pdf', bytes: saved.bytes, file };
      ctx.stdout(jsonOut(json));
    } else ctx.stdout(`PDF report (${saved.bytes} bytes) from ${p.what} written to ${field(file)}\n`);
    return EXIT.ok;
  }
  const delimiter = p.delimiter || ',';
  const encoding = p.encoding ?? charsetOf(saved.contentType);
  if (p.format === 'csv') {
    await writeCsv(saved.file, delimiter, encoding, p.raw === true, (t) => ctx.stdout(t));
    return EXIT.ok;
  }
  if (p.format === 'text') {
    const rows = await writeTable(saved.file, delimiter, encoding, p.measure, (t) => ctx.stdout(t));
    ctx.stdout(`${rows} row(s) — report from ${p.what}\n`);
    return EXIT.ok;
  }
  const stdout = (t: string) => ctx.stdout(t);
  if (p.out === undefined) {
    await writeJson(saved, delimiter, encoding, [{ write: stdout }]);
    return EXIT.ok;
  }
  // JSON with --out: the same document to the file and, naming the file, to standard output, in one read.
  const fd = fs.openSync(resolve(ctx.cwd, p.out), 'w');
  try {
    await writeJson(saved, delimiter, encoding, [{ write: (t) => void fs.writeSync(fd, t) }, { write: stdout, file: p.out }]);
  } finally {
    fs.closeSync(fd);
  }
  return EXIT.ok;
}

/** Each record of a saved report with the columns named like a CVV left out (the header first). */
async function eachShownRecord(
  file: string,
  delimiter: string,
  encoding: string | undefined,
  onRecord: (record: string[], header: boolean) => void,
): Promise<void> {
  let keep: number[] | undefined;
  let header = true;
  await eachSavedReportRecord(file, delimiter, encoding, (record) => {
    if (header) keep = keptColumns(record);
    onRecord(keep ? keep.map((i) => record[i] ?? '') : record, header);
    header = false;
  });
}

/**
 * The report's records as CSV in its own delimiter, every field quoted as the gateway writes them, each
 * cell masked, its control characters escaped and (unless `raw`) neutralised; records end with CRLF.
 */
async function writeCsv(file: string, delimiter: string, encoding: string | undefined, raw: boolean, write: (text: string) => void) {
  const out = batched(write);
  await eachShownRecord(file, delimiter, encoding, (record) => {
    out.add(csvRecordText(record, { delimiter, quoteAll: true, raw }));
  });
  out.flush();
}

/**
 * The text table's column widths, measured from the report's records as they arrive (the one parse of its
 * answer: runCustomReportToFile's onRecord), so the table is printed in one read of the file. Cells are
 * measured as formatTable shows them (amounts in their currency's digits), CVV columns left out.
 */
export class TableMeasure {
  widths: number[] | undefined;
  /** A shown cell holds a line break (the table then ends with the note on them). */
  breaks = false;
  private keep: number[] | undefined;
  private shown: ReturnType<typeof amountColumns>;

  /** The record's cells as shown: the header as it is, a row's amounts through `shown`. */
  cells(record: string[], header: boolean, count: number): Vetted[] {
    const out: Vetted[] = [];
    for (let i = 0; i < count; i++) {
      const value = !header && this.shown ? this.shown(record, i) : (record[i] ?? '');
      if (!this.breaks && /[\r\n]/.test(value)) this.breaks = true;
      out.push(tableCell(value));
    }
    return out;
  }

  readonly record = (arrived: string[], header: boolean): void => {
    if (header) this.keep = keptColumns(arrived);
    const record = this.keep ? this.keep.map((i) => arrived[i] ?? '') : arrived;
    if (header) {
      this.widths = record.map(() => 0);
      this.shown = amountColumns(record);
    }
    const widths = this.widths ?? [];
    const shownCells = this.cells(record, header, widths.length);
    for (let i = 0; i < widths.length; i++) widths[i] = Math.max(widths[i], [...shownCells[i]].length);
  };
}

/** The text table in one pass over the file, with the widths measured as it arrived; returns the number of rows. */
async function writeTable(
  file: string,
  delimiter: string,
  encoding: string | undefined,
  measure: TableMeasure,
  write: (text: string) => void,
): Promise<number> {
  const w = measure.widths ?? [];
  const out = batched(write);
  let rows = -1;
  await eachShownRecord(file, delimiter, encoding, (record) => {
    out.addLaid(laid`${tableLine(measure.cells(record, rows === -1, w.length), w)}\n`);
    if (rows === -1) out.addLaid(words(`${w.map((n) => '-'.repeat(n)).join('  ')}\n`));
    rows++;
  });
  if (measure.breaks) out.addLaid(laid`${LINE_BREAK_NOTE}\n`);
  out.flush();
  return Math.max(rows, 0);
}

/**
 * `{"outcome":"report","contentType","columns","rows"}` (plus `file` for a target that names it), one row at a
 * time, to every target in one read of the file.
 */
async function writeJson(
  saved: SavedCsv,
  delimiter: string,
  encoding: string | undefined,
  targets: { write: (text: string) => void; file?: string }[],
): Promise<void> {
  const outs = targets.map((t) => batched(t.write));
  const add = (text: string) => outs.forEach((o) => o.add(text));
  const columns = saved.columns ?? [];
  const keep = keptColumns(columns);
  add(
    `{"outcome":"report","contentType":${safeJson(saved.contentType)},"columns":${safeJson(keep ? keep.map((i) => columns[i]) : columns)},"rows":[`,
  );
  let rows = -1; // the header comes first and is not a row
  await eachShownRecord(saved.file, delimiter, encoding, (record) => {
    if (rows >= 0) add(`${rows === 0 ? '' : ','}${safeJson(record)}`);
    rows++;
  });
  targets.forEach((t, i) => {
    outs[i].add(`]${t.file === undefined ? '' : `,"file":${safeJson(t.file)}`}}\n`);
    outs[i].flush();
  });
}
