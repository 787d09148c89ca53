// The custom transactions report, built from the simulated charges. Columns and value shapes follow the
// gateway's sample report exactly: every value double-quoted, Created_date `YYYY-MM-DD hh:mm:ss`, Amount with three
// decimals, Date_of_report `DD.MM.YYYY`.

import { writeRecords } from '../core/csv/write';
import { compareDates, formatIsoDate, parseGatewayDate, type CalendarDate } from '../core/dates';
import { reportTemplateProblems } from '../core/gateway/reportTemplate';
import { maskCardNumbers } from '../core/output';
import { DEMO_MERCHANT_NAME } from './merchant';
import { renderPdf } from './pdf';
import type { GatewayState } from './types';

export const REPORT_COLUMNS = [
  'Merchant_Name',
  'Transaction_id',
  'Merchant_OID',
  'Created_date',
  'Amount',
  'Currency',
  'Transaction_type',
  'Order_description',
  'Date_of_report',
] as const;

const PDF_WIDTHS = [80, 60, 90, 85, 55, 40, 80, 200, 60];

export interface ReportRequest {
  reportName: string;
  format: 'CSV' | 'PDF';
  encoding: { name: string; encode: (s: string) => Buffer };
  delimiter: string;
  dateFrom?: CalendarDate;
  dateTo?: CalendarDate;
  status?: 'approved' | 'declined';
  clientOrderId?: string;
  currencies: string[];
}

export type ReportParse = { ok: true; request: ReportRequest } | { ok: false; message: string };

// Anything the charset cannot carry becomes '?': outside ASCII, or outside ASCII and the Latin-1 supplement.
const latin1 = (s: string) => Buffer.from(s.replace(/[^\p{ASCII}\u0080-\u00ff]/gu, '?'), 'latin1');
const ascii = (s: string) => Buffer.from(s.replace(/[^\p{ASCII}]/gu, '?'), 'latin1');
const ENCODINGS: Record<string, { name: string; encode: (s: string) => Buffer }> = {
  'utf-8': { name: 'UTF-8', encode: (s) => Buffer.from(s, 'utf8') },
  utf8: { name: 'UTF-8', encode: (s) => Buffer.from(s, 'utf8') },
  'utf-16le': { name: 'UTF-16LE', encode: (s) => Buffer.from(s, 'utf16le') },
  'iso-8859-1': { name: 'ISO-8859-1', encode: latin1 },
  latin1: { name: 'ISO-8859-1', encode: latin1 },
  'us-ascii': { name: 'US-ASCII', encode: ascii },
  ascii: { name: 'US-ASCII', encode: ascii },
};

function str(v: unknown): string | undefined {
  return typeof v === 'string' ? v : undefined;
}

/**
 * Reads the report template with the one check the editor and the CLI use (every problem, in one answer),
 * then what this local gateway can serve of it (its few encodings, the input parameters it filters by).
 */
export function parseReportRequest(body: unknown): ReportParse {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return { ok: false, message: 'the body is not a JSON object' };
  const problems = reportTemplateProblems(body);
  if (problems.length > 0) return { ok: false, message: `invalid report template: ${problems.map((p) => p.message).join('; ')}` };
  const b = body as Record<string, unknown>;
  const format = b.reportFormat as 'CSV' | 'PDF';
  const encName = (str(b.reportEncode) ?? 'UTF-8').toLowerCase();
  const encoding = ENCODINGS[encName];
  if (!encoding)
    return { ok: false, message: `reportEncode ${str(b.reportEncode)} is not supported (UTF-8, UTF-16LE, ISO-8859-1, US-ASCII)` };
  const delimiter = str(b.reportCsvDelimiter) ?? ',';
  if ([...delimiter].length !== 1 || /["\r\n]/.test(delimiter))
    return { ok: false, message: 'reportCsvDelimiter must be one character other than a quote or a line break' };
  const request: ReportRequest = { reportName: str(b.reportName) ?? 'report', format, encoding, delimiter, currencies: [] };

  const inputs = Array.isArray(b.inputReportParameters) ? b.inputReportParameters : [];
  for (const item of inputs) {
    const name = str((item as Record<string, unknown>)?.name);
    const value = str((item as Record<string, unknown>)?.value)?.trim() ?? '';
    if (!name || value === '') continue;
    if (name === 'dateFrom' || name === 'dateTo') {
      const d = parseGatewayDate(value);
      if (!d) return { ok: false, message: `input parameter ${name} must be a DD.MM.YYYY date` };
      request[name] = d;
    } else if (name === 'status') {
      if (value !== 'approved' && value !== 'declined')
        return { ok: false, message: 'input parameter status must be approved or declined' };
      request.status = value;
    } else if (name === 'client-orderid') request.clientOrderId = maskCardNumbers(value); // as stored (payments.ts)
  }
  const filters = b.filters as Record<string, unknown> | undefined;
  if (filters && Array.isArray(filters.currencies))
    request.currencies = filters.currencies.filter((c): c is string => typeof c === 'string');
  return { ok: true, request };
}

export function reportRows(state: GatewayState, r: ReportRequest, merchantName = DEMO_MERCHANT_NAME): string[][] {
  const found: { date: CalendarDate; tx: number; row: string[] }[] = [];
  for (const p of state.payments) {
    if (r.clientOrderId !== undefined && p['client-orderid'] !== r.clientOrderId) continue;
    if (r.currencies.length > 0 && !r.currencies.includes(p.currency)) continue;
    for (const c of p.charges) {
      const date = parseGatewayDate(c.date)!;
      if (r.dateFrom && compareDates(date, r.dateFrom) < 0) continue;
      if (r.dateTo && compareDates(date, r.dateTo) > 0) continue;
      if (r.status && c.status !== r.status) continue;
      const kind = p.rp_card_type === 'DST' ? 'Payout' : 'Sale';
      found.push({
        date,
        tx: Number(c.transactionId),
        row: [
          merchantName,
          c.transactionId,
          p['client-orderid'],
          `${formatIsoDate(date)} ${c.time}`,
          c.amount,
          p.currency,
          `${kind} ${c.status}`,
          p.order_desc,
          state.today,
        ],
      });
    }
  }
  found.sort((a, b) => compareDates(a.date, b.date) || a.tx - b.tx);
  return found.map((f) => f.row);
}

/** RFC 4180 with every value quoted, as in the gateway's sample report; records end with CRLF. */
export function reportCsv(rows: string[][], delimiter: string): string {
  return writeRecords([REPORT_COLUMNS, ...rows], delimiter, '\r\n', true) + '\r\n';
}

export interface RenderedReport {
  contentType: string;
  body: Buffer;
  fileName: string;
}

export function renderReport(state: GatewayState, r: ReportRequest): RenderedReport {
  const rows = reportRows(state, r);
  const safeName = r.reportName.replace(/[^A-Za-z0-9._-]+/g, '_') || 'report';
  if (r.format === 'PDF') {
    const body = renderPdf({
      title: r.reportName,
      subtitle: `${DEMO_MERCHANT_NAME} - ${rows.length} transaction(s) - report of ${state.today}`,
      columns: [...REPORT_COLUMNS],
      widths: PDF_WIDTHS,
      rows,
    });
    return { contentType: 'application/pdf', body, fileName: `${safeName}.pdf` };
  }
  return {
    contentType: `text/csv; charset=${r.encoding.name}`,
    body: r.encoding.encode(reportCsv(rows, r.delimiter)),
    fileName: `${safeName}.csv`,
  };
}
