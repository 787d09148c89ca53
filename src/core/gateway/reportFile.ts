import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { DEFAULT_REPORT_ANSWER_LIMIT, DEFAULT_TIMEOUT_MS, prepareReportRequest } from './client';
import { charsetOf, decode, mediaType } from './answerText';
import type { Environment, PathTemplates } from './environments';
import type { GatewayOutcome } from './outcome';
import { interpretReportAnswer } from './reportAnswer';
import { ReportRecordReader } from '../csv/reportRecords';
import type { ReportTemplate } from './reportTemplate';
import type { SigningCredentials } from '../oauth';
import { postOnce } from './transport';
import { hasPdfSignature } from '../pdfSignature';
import { textPieces } from '../textFile';

// A report written to a file as it arrives, so a large report costs disk, not memory. The answer goes to
// a temporary file next to the target (created exclusively, 0600); only its first bytes stay in memory to
// tell what it is. A real report (a PDF, or CSV whose every row parses to the header's width, checked by
// streaming the file through the one report reader) is renamed onto the target; anything else is told from its head
// and the temporary file removed.

const HEAD_BYTES = 64 * 1024;

export type SavedReport =
  | {
      saved: true;
      format: 'pdf' | 'csv';
      file: string;
      bytes: number;
      contentType: string;
      status: number;
      rows?: number;
      columns?: string[];
    }
  | { saved: false; outcome: GatewayOutcome };

/** Streams the file through the report reader: its header and row count when every row is as wide as the header. */
async function csvShape(
  file: string,
  delimiter: string,
  encoding: string | undefined,
): Promise<{ columns: string[]; rows: number } | undefined> {
  let rows = 0;
  const reader = new ReportRecordReader({ delimiter, onRecord: () => rows++ });
  try {
    for await (const text of textPieces(file, undefined, encoding)) {
      reader.push(text);
      if (reader.errors > 0 || reader.ragged > 0) return undefined;
    }
    reader.end();
  } catch {
    return undefined;
  }
  const columns = reader.columns;
  return reader.errors === 0 && reader.ragged === 0 && columns && columns.length > 0 ? { columns, rows } : undefined;
}

function isPdfHead(contentType: string, head: Uint8Array): boolean {
  return mediaType(contentType) === 'application/pdf' || hasPdfSignature(head);
}

/** Runs a report into `file`; nothing is written there unless it is a report. */
export async function runCustomReportToFile(o: {
  environment: Environment;
  paths?: PathTemplates;
  credentials: SigningCredentials;
  template: ReportTemplate;
  file: string;
  timeoutMs?: number;
  maxAnswerBytes?: number;
  signal?: AbortSignal;
  /** Sees each chunk of the answer as it arrives, after it is written (a query run over the report as it comes). */
  tap?: (chunk: Uint8Array) => void;
}): Promise<SavedReport> {
  const request = prepareReportRequest(o);
  const target = path.resolve(o.file);
  const temp = path.join(path.dirname(target), `.${path.basename(target)}.${randomBytes(6).toString('hex')}.part`);
  const fd = fs.openSync(temp, fs.constants.O_WRONLY | fs.constants.O_CREAT | fs.constants.O_EXCL, 0o600);
  let keep = false;
  let open = true;
  try {
    let written = 0;
    const sent = await postOnce(request, {
      timeoutMs: o.timeoutMs ?? DEFAULT_TIMEOUT_MS,
      signal: o.signal,
      maxAnswerBytes: o.maxAnswerBytes ?? DEFAULT_REPORT_ANSWER_LIMIT,
      keepBytes: HEAD_BYTES,
      onChunk: (chunk) => {
        for (let at = 0; at < chunk.length;) at += fs.writeSync(fd, chunk, at, chunk.length - at, written + at);
        written += chunk.length;
        o.tap?.(chunk);
      },
    });
    fs.fsyncSync(fd);
    fs.closeSync(fd);
    open = false;
    if (!sent.ok) {
      return {
        saved: false,
        outcome: sent.sent
          ? { outcome: 'transport-error', kind: sent.kind === 'timeout' ? 'timeout' : 'other', message: sent.message }
          : sent.error,
      };
    }
    const a = sent.answer;
    const options = { delimiter: o.template.reportCsvDelimiter, encoding: o.template.reportEncode };
    const success = a.status >= 200 && a.status < 300;
    let saved: SavedReport | undefined;
    // What every saved report says of itself; the format and, for CSV, its shape are added below.
    const saving = { saved: true, file: target, bytes: a.length, contentType: a.contentType, status: a.status } as const;
    if (a.length <= HEAD_BYTES) {
      // Small enough to tell in memory exactly as runCustomReport does.
      const outcome = interpretReportAnswer(a, options);
      if (outcome.outcome !== 'report') return { saved: false, outcome };
      saved =
        outcome.format === 'pdf'
          ? { ...saving, format: 'pdf' }
          : { ...saving, format: 'csv', rows: outcome.rows.length, columns: outcome.columns };
    } else if (success && isPdfHead(a.contentType, a.body)) {
      saved = { ...saving, format: 'pdf' };
    } else if (success && a.body[0] !== 0x3c /* '<': markup, not CSV */) {
      const shape = await csvShape(temp, options.delimiter || ',', options.encoding ?? charsetOf(a.contentType));
      if (shape && (shape.columns.length >= 2 || mediaType(a.contentType) === 'text/csv'))
        saved = { ...saving, format: 'csv', rows: shape.rows, columns: shape.columns };
    }
    if (!saved) {
      // Told from its head: a large answer that is no report is shown as its first bytes.
      const told = interpretReportAnswer({ status: a.status, contentType: a.contentType, headers: a.headers, body: a.body }, options);
      if (told.outcome !== 'report') return { saved: false, outcome: told };
      const raw = `${decode(a.body, options.encoding ?? charsetOf(a.contentType))}\n… (${a.length} bytes in all; only the first ${HEAD_BYTES} are shown)`;
      return { saved: false, outcome: { outcome: 'unrecognised', status: a.status, contentType: a.contentType, raw } };
    }
    fs.renameSync(temp, target);
    keep = true;
    return saved;
  } finally {
    // Closed once only: a descriptor number closed twice may by then belong to another file.
    if (open) fs.closeSync(fd);
    if (!keep) fs.rmSync(temp, { force: true });
  }
}

/**
 * A saved CSV report's records in order, header first, parsed as it was checked and never held together
 * (the file ends with a line break, whose empty last record is not one).
 */
export async function eachSavedReportRecord(
  file: string,
  delimiter: string,
  encoding: string | undefined,
  onRecord: (record: string[]) => void,
): Promise<void> {
  // The one report reader, as the report was checked when it was saved: the header, then each record.
  const reader = new ReportRecordReader({ delimiter, onHeader: (columns) => onRecord(columns), onRecord: (values) => onRecord(values) });
  for await (const text of textPieces(file, undefined, encoding)) reader.push(text);
  reader.end();
}
