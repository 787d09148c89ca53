// How `paygate report` prints a report of any size. The answer is first streamed to a private temporary
// file (runCustomReportToFile recognises and parses it on the way there), and what is printed is made from
// that one parse as it arrives (reportSpool.ts: ReportPrint), kept in a file of its own until the answer is
// known to be a report, then written out in one read of it, in pieces, so memory stays flat however many
// rows come and the report is parsed once: csv and json as they were made, the text table padded to the
// widths measured meanwhile (cells are cut to 40 characters, so this keeps one number per column).
//
// Everything printed passes the output boundary: card numbers masked in every column (a Transaction_id or
// a description too), a column named like a CVV left out, text cells escaped, JSON through safeJson, CSV
// cells neutralised unless --raw. The answer's raw bytes go only to the file named by --out.

import * as fs from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import type { SavedReport } from '../core/gateway';
import type { CliContext } from './context';
import { keptColumns, laid, safeJson, said, typed, type Vetted, words } from '../core/output';
import { EXIT, jsonOut, LINE_BREAK_NOTE, saidOut, tableLine } from './output';
import { batched } from './pieces';
import { CELL, type Format, type ReportPrint } from './reportSpool';

type SavedCsv = Extract<SavedReport, { saved: true }>;

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
  /** --out: the JSON goes there (a CSV with --out never comes here; it is saved straight to the file). */
  out: string | undefined;
  what: string;
  templateName: string;
  /** What is printed, made as the report arrived (its widths, for the text table). */
  print: ReportPrint;
}

/** Prints (or, for a PDF and for JSON with --out, writes) a report saved in a temporary file. */
export async function printSavedReport(ctx: CliContext, saved: SavedCsv, p: Printing): Promise<number> {
  if (saved.format === 'pdf') {
    const file = p.out ?? `${basename(p.templateName).replace(/(\.report)?\.json$/i, '') || 'report'}.pdf`;
    fs.copyFileSync(saved.file, resolve(ctx.cwd, file));
    if (p.format === 'json') {
      const json = { outcome: 'report', contentType: saved.contentType, format: 'pdf', bytes: saved.bytes, file };
      ctx.stdout(jsonOut(json));
    } else
      ctx.stdout(saidOut(said`PDF report (${typed.count(saved.bytes)} bytes) from ${typed.text(p.what)} written to ${typed.text(file)}\n`));
    return EXIT.ok;
  }
  if (p.format === 'csv') {
    for await (const piece of p.print.pieces()) ctx.stdout(piece);
    return EXIT.ok;
  }
  if (p.format === 'text') {
    const rows = await writeTable(p.print, (t) => ctx.stdout(t));
    ctx.stdout(saidOut(said`${typed.count(rows)} row(s) — report from ${typed.text(p.what)}\n`));
    return EXIT.ok;
  }
  const stdout = (t: string) => ctx.stdout(t);
  if (p.out === undefined) {
    await writeJson(saved, p.print, [{ write: stdout }]);
    return EXIT.ok;
  }
  // JSON with --out: the same document to the file and, naming the file, to standard output, in one read.
  const fd = fs.openSync(resolve(ctx.cwd, p.out), 'w');
  try {
    await writeJson(saved, p.print, [{ write: (t) => void fs.writeSync(fd, t) }, { write: stdout, file: p.out }]);
  } finally {
    fs.closeSync(fd);
  }
  return EXIT.ok;
}

/**
 * The text table in one read of what was made as the report arrived: each line a record's shown cells
 * (written vetted by this process, in its private folder), padded to the widths measured meanwhile; returns
 * the number of rows.
 */
async function writeTable(print: ReportPrint, write: (text: string) => void): Promise<number> {
  const w = print.widths ?? [];
  const out = batched(write);
  let lines = 0;
  const line = (text: string) => {
    out.addLaid(laid`${tableLine(text.split(CELL) as Vetted[], w)}\n`);
    if (lines++ === 0) out.addLaid(words(`${w.map((n) => '-'.repeat(n)).join('  ')}\n`));
  };
  let carry = '';
  for await (const piece of print.pieces()) {
    const text = carry + piece;
    let from = 0;
    for (let at = text.indexOf('\n'); at !== -1; at = text.indexOf('\n', from)) {
      line(text.slice(from, at));
      from = at + 1;
    }
    carry = text.slice(from);
  }
  if (print.breaks) out.addLaid(laid`${LINE_BREAK_NOTE}\n`);
  out.flush();
  return Math.max(lines - 1, 0);
}

/**
 * `{"outcome":"report","contentType","columns","rows"}` (plus `file` for a target that names it), the rows as
 * they were made on arrival, to every target in one read of them.
 */
async function writeJson(saved: SavedCsv, print: ReportPrint, targets: { write: (text: string) => void; file?: string }[]): Promise<void> {
  const outs = targets.map((t) => batched(t.write));
  const add = (text: string) => outs.forEach((o) => o.add(text));
  const columns = saved.columns ?? [];
  const keep = keptColumns(columns);
  add(
    `{"outcome":"report","contentType":${safeJson(saved.contentType)},"columns":${safeJson(keep ? keep.map((i) => columns[i]) : columns)},"rows":[`,
  );
  for await (const piece of print.pieces()) add(piece);
  targets.forEach((t, i) => {
    outs[i].add(`]${t.file === undefined ? '' : `,"file":${safeJson(t.file)}`}}\n`);
    outs[i].flush();
  });
}
