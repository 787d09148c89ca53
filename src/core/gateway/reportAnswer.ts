import {
  charsetOf,
  decode,
  isDenialSentence,
  isShortProse,
  mediaType,
  parseAnswerFields,
  parseFormFields,
  speaksOfAccess,
} from './answerText';
import { readReportText } from '../csv/reportRecords';
import { isPdfAnswer, type ArrivedReport } from './reportArrival';
import { serverErrorOutcome, tooLargeOutcome, typedErrorOutcome, type GatewayOutcome, type HttpAnswer } from './outcome';

// The custom report's answer. A report is a report only when it really is one: a PDF (by type or magic),
// or CSV that parses with the template's delimiter into a header and rows of the same width (a header
// alone only when the answer is labelled CSV). Short prose is never a one-column table: it is the
// denial when it speaks of access, else shown as it came.

export interface ReportFormatOptions {
  /** The template's reportCsvDelimiter (default ','). */
  delimiter?: string;
  /** The template's reportEncode (default the Content-Type charset, else UTF-8). */
  encoding?: string;
  /**
   * What the answer's arrival told with the same rule, delimiter and encoding (reportArrival.ts): used
   * instead of telling a PDF and parsing the body again.
   */
  arrived?: ArrivedReport;
}

const CSV_MEDIA = new Set(['text/csv', 'application/csv', 'text/comma-separated-values', 'text/x-csv', 'application/vnd.ms-excel']);

/** The arrival's parse as the reader's answer (undefined: parse the text; null: no well-formed CSV). */
function arrivedCsv(arrived: ArrivedReport | undefined): { columns: string[]; rows: string[][] } | null | undefined {
  if (!arrived || !arrived.rows) return undefined;
  return arrived.wellFormed && arrived.columns ? { columns: arrived.columns, rows: arrived.rows } : null;
}

/**
 * RFC 4180 by the one report reader (the page shows the report with the same reader); undefined unless it
 * is well-formed with every row as wide as the header. `headerAlone` allows a header without rows.
 */
export function parseReportCsv(text: string, delimiter = ',', headerAlone = true): { columns: string[]; rows: string[][] } | undefined {
  const csv = readReportText(text, delimiter);
  if (!csv || (csv.rows.length === 0 && !headerAlone)) return undefined;
  return csv;
}

/** A header cell names a column: short, not a sentence. */
function namesColumn(cell: string): boolean {
  const t = cell.trim();
  return t !== '' && t.length <= 100 && !/[.!?。]$/.test(t) && t.split(/\s+/).length <= 5;
}

/** CSV in the report's shape: a header naming columns and, unless labelled CSV, more than one column. */
function reportCsv(
  raw: string,
  delimiter: string,
  labelledCsv: boolean,
  parsed: { columns: string[]; rows: string[][] } | null | undefined,
): { columns: string[]; rows: string[][] } | undefined {
  const csv = parsed === undefined ? parseReportCsv(raw, delimiter, true) : (parsed ?? undefined);
  if (!csv) return undefined;
  if (labelledCsv) return csv.columns.some((c) => c.trim() !== '') ? csv : undefined;
  if (csv.columns.length < 2 || !csv.columns.every(namesColumn)) return undefined;
  if (csv.rows.length > 0) return csv;
  // A header alone says it is one by its form: every name quoted (as the report sample writes them) or
  // written as an identifier. "Report not found, try later" is neither.
  const firstLine = raw.replace(/^\uFEFF/, '').split(/\r\n|\r|\n/)[0];
  const quoted = firstLine.split(delimiter).every((c) => /^\s*".*"\s*$/.test(c));
  const identifiers = csv.columns.every((c) => /^[\p{L}\p{N}_.\-/#%()]+$/u.test(c.trim()));
  return quoted || identifiers ? csv : undefined;
}

/** Interprets the custom-report answer: CSV or PDF report, the 200 text/plain denial, or an error. */
export function interpretReportAnswer(answer: HttpAnswer, options: ReportFormatOptions = {}): GatewayOutcome {
  const { status, contentType } = answer;
  const delimiter = options.delimiter || ',';
  const success = status >= 200 && status < 300;
  if (success && (options.arrived ? options.arrived.pdf : isPdfAnswer(contentType, answer.body)))
    return { outcome: 'report', status, contentType, format: 'pdf', bytes: answer.body };
  const raw = decode(answer.body, options.encoding ?? charsetOf(contentType));
  const trimmed = raw.trim();
  const media = mediaType(contentType);
  // HTTP 413: the request was refused before it was processed, by the gateway or a proxy; never a report,
  // whatever came with it (the local gateway answers a report body over its 16 MiB so).
  if (status === 413) return tooLargeOutcome('report', status, parseAnswerFields(raw, contentType), raw, contentType);
  if (status >= 500) return serverErrorOutcome(status, parseAnswerFields(raw, contentType), raw);
  if ((status === 401 || status === 403) && trimmed === '') {
    return {
      outcome: 'auth-failed',
      status,
      operation: 'report',
      message: `HTTP ${status} with an empty body: the gateway did not accept the signature or the consumer key`,
      raw,
    };
  }
  const labelledCsv = CSV_MEDIA.has(media);
  // The denial comes first unless the answer says it is CSV: "Access denied, check your key" has a comma.
  if (!labelledCsv && isDenialSentence(raw, contentType))
    return { outcome: 'auth-failed', status, operation: 'report', message: trimmed, raw };
  if (media.endsWith('json') || media === 'text/html' || trimmed === '' || trimmed.startsWith('{') || trimmed.startsWith('<')) {
    const fields = parseAnswerFields(raw, contentType);
    return (fields && typedErrorOutcome(status, fields, raw)) ?? { outcome: 'unrecognised', status, contentType, raw };
  }
  const form = parseFormFields(trimmed);
  const typed = form ? typedErrorOutcome(status, form, raw) : undefined;
  if (typed) return typed;
  if (success) {
    const csv = reportCsv(raw, delimiter, labelledCsv, arrivedCsv(options.arrived));
    if (csv) return { outcome: 'report', status, contentType, format: 'csv', columns: csv.columns, rows: csv.rows, text: raw };
  }
  // Prose that speaks of access under another label (or a longer denial) is still a denial, never a table.
  if (isShortProse(raw) && speaksOfAccess(raw)) return { outcome: 'auth-failed', status, operation: 'report', message: trimmed, raw };
  return { outcome: 'unrecognised', status, contentType, raw };
}
