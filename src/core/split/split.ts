import { parseCsv, type ParsedCsv } from '../csv/parse';
import { base64Length, canonicalByteLength } from '../payload';
import { otherDelimiter } from '../rules/header';
import type { Position } from '../text';

// Cutting a batch into parts, each a submission of its own: the header, then the rows in file order, each
// row's text exactly as the file holds it (quoted line breaks included, never cut inside a quoted field:
// the cut points are the CSV reader's record starts), within a number of rows or a payload size. The
// payload is weighed as the gateway receives it: Base64 of the part's canonical text (payload.ts).

export type SplitLimit = { maxRows: number } | { maxBytes: number };

export interface SplitPart {
  /** 1-based. */
  number: number;
  /** The part's text: the header's line, then its rows' lines, each ending in a line break. */
  text: string;
  rows: number;
  /** The file's line numbers (1-based) of the part's first and last row. */
  firstLine: number;
  lastLine: number;
  /** Base64 characters of the part's payload. */
  payloadBytes: number;
}

/** Why a batch cannot be split, at a 0-based position in its text (the BOM counted, as editors do not). */
export interface SplitProblem {
  message: string;
  position: Position;
}

export type SplitResult = { ok: true; parts: SplitPart[] } | { ok: false; problem: SplitProblem };

const LF = 10;
const CR = 13;

/** Where a record's text ends, its line break included (the next record's start, or the end of the text). */
function pieceEnd(csv: ParsedCsv, record: number): number {
  return record + 1 < csv.recordCount ? csv.recordStart(record + 1) : csv.text.length;
}

/** A record's text with its line break; the last record of a file without a final line break gets CRLF. */
function piece(csv: ParsedCsv, record: number): string {
  const text = csv.text.slice(csv.recordStart(record), pieceEnd(csv, record));
  const last = text.charCodeAt(text.length - 1);
  return last === LF || last === CR ? text : `${text}\r\n`;
}

/** The first reason the file's records cannot be cut safely, or undefined. */
function structureProblem(csv: ParsedCsv, headerIndex: number): SplitProblem | undefined {
  const at = (offset: number) => csv.index.positionAt(offset);
  if (headerIndex < 0) return { message: 'the file is empty: no header, no rows', position: at(csv.bom ? 1 : 0) };
  // An unterminated quote hides where the rows end: cutting there could split a value in two.
  const broken = csv.problemRecords[0];
  if (broken !== undefined) {
    const p = csv.syntaxProblemAt(broken)!;
    return { message: `${p.message}: the rows cannot be told apart safely (see 'paygate lint')`, position: at(p.start) };
  }
  const header = csv.record(headerIndex);
  const other = otherDelimiter(header.values);
  if (other)
    return {
      message: `the file uses ${other === ',' ? 'commas' : 'tabs'} as delimiter; the gateway reads ";" (run 'paygate fix' first)`,
      position: at(header.start),
    };
  return undefined;
}

/**
 * The parts of a batch within `limit`, or the problem that stops it (nothing to write then). Blank lines
 * are not rows and are left out; every other record after the header is a row of exactly one part.
 */
export function splitBatch(text: string, limit: SplitLimit): SplitResult {
  const csv = parseCsv(text);
  let headerIndex = 0;
  while (headerIndex < csv.recordCount && csv.isBlankAt(headerIndex)) headerIndex++;
  if (headerIndex === csv.recordCount) headerIndex = -1;
  const problem = structureProblem(csv, headerIndex);
  if (problem) return { ok: false, problem };

  const header = piece(csv, headerIndex);
  const headerBytes = canonicalByteLength(header);
  const parts: SplitPart[] = [];
  let rows: string[] = [];
  let bytes = headerBytes;
  let first = 0;
  let last = 0;
  const lineOf = (offset: number) => csv.index.positionAt(offset).line + 1;
  const close = () => {
    if (rows.length === 0) return;
    const number = parts.length + 1;
    parts.push({
      number,
      text: header + rows.join(''),
      rows: rows.length,
      firstLine: first,
      lastLine: last,
      payloadBytes: base64Length(bytes),
    });
    rows = [];
    bytes = headerBytes;
  };
  for (let r = headerIndex + 1; r < csv.recordCount; r++) {
    if (csv.isBlankAt(r)) continue;
    const row = piece(csv, r);
    const rowBytes = canonicalByteLength(row);
    if ('maxBytes' in limit) {
      const alone = base64Length(headerBytes + rowBytes);
      if (alone > limit.maxBytes)
        return {
          ok: false,
          problem: {
            message: `this row with the header makes a payload of ${alone} bytes, over the maximum of ${limit.maxBytes}: it cannot be sent in any part`,
            position: csv.index.positionAt(csv.recordStart(r)),
          },
        };
      if (base64Length(bytes + rowBytes) > limit.maxBytes) close();
    } else if (rows.length === limit.maxRows) close();
    if (rows.length === 0) first = lineOf(csv.recordStart(r));
    rows.push(row);
    bytes += rowBytes;
    last = lineOf(pieceEnd(csv, r) - 1);
  }
  close();
  if (parts.length === 0)
    return {
      ok: false,
      problem: {
        message: 'the file has a header but no payment rows: nothing to split',
        position: csv.index.positionAt(csv.recordStart(headerIndex)),
      },
    };
  return { ok: true, parts };
}

const BATCH_EXTENSION = /\.(rpcsv|recurring\.csv|csv)$/i;

/**
 * The name of part `number` of `count` for the batch file `name` (a base name): NAME.part-001.rpcsv. The
 * number has at least three digits, more when there are more parts, so the names sort in part order.
 */
export function partName(name: string, number: number, count: number): string {
  const stem = name.replace(BATCH_EXTENSION, '');
  const digits = Math.max(3, String(count).length);
  return `${stem}.part-${String(number).padStart(digits, '0')}.rpcsv`;
}

/** Whether `file` (a base name) is a part of the batch `name`, whatever the number of parts. */
export function isPartOf(file: string, name: string): boolean {
  const stem = name.replace(BATCH_EXTENSION, '');
  return file.startsWith(`${stem}.part-`) && /^\d{3,}\.rpcsv$/.test(file.slice(stem.length + 6));
}
