import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { DEFAULT_REPORT_ANSWER_LIMIT, DEFAULT_TIMEOUT_MS, prepareReportRequest } from './client';
import { charsetOf, decode, mediaType } from './answerText';
import type { Environment, PathTemplates } from './environments';
import type { GatewayOutcome } from './outcome';
import { interpretReportAnswer } from './reportAnswer';
import { ArrivingReport } from './reportArrival';
import type { ReportTemplate } from './reportTemplate';
import type { SigningCredentials } from '../oauth';
import { postOnce } from './transport';

// A report written to a file as it arrives, so a large report costs disk, not memory. The answer goes to
// a temporary file next to the target (created exclusively, 0600); only its first bytes stay in memory to
// tell what it is. It is recognised and parsed once, on its way to the file (reportArrival.ts: the one PDF
// rule, the one report reader), never read back: a real report (a PDF, or CSV whose every row parses to the
// header's width) is renamed onto the target; anything else is told from its head and the temporary file
// removed.

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
  /** Each record of a successful answer as it is parsed, the header first: whatever the face makes of the rows as they come. */
  onRecord?: (record: string[], header: boolean) => void;
}): Promise<SavedReport> {
  const request = prepareReportRequest(o);
  const target = path.resolve(o.file);
  const temp = path.join(path.dirname(target), `.${path.basename(target)}.${randomBytes(6).toString('hex')}.part`);
  const fd = fs.openSync(temp, fs.constants.O_WRONLY | fs.constants.O_CREAT | fs.constants.O_EXCL, 0o600);
  let keep = false;
  let open = true;
  const options = { delimiter: o.template.reportCsvDelimiter, encoding: o.template.reportEncode };
  const arriving = new ArrivingReport({ ...options, keepBytes: HEAD_BYTES, onRecord: o.onRecord });
  try {
    let written = 0;
    const sent = await postOnce(request, {
      timeoutMs: o.timeoutMs ?? DEFAULT_TIMEOUT_MS,
      signal: o.signal,
      maxAnswerBytes: o.maxAnswerBytes ?? DEFAULT_REPORT_ANSWER_LIMIT,
      keepBytes: HEAD_BYTES,
      onAnswer: (status, contentType) => arriving.answer(status, contentType),
      onChunk: (chunk) => {
        for (let at = 0; at < chunk.length;) at += fs.writeSync(fd, chunk, at, chunk.length - at, written + at);
        written += chunk.length;
        arriving.push(chunk);
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
    const arrived = arriving.end();
    let saved: SavedReport | undefined;
    // What every saved report says of itself; the format and, for CSV, its shape are added below.
    const saving = { saved: true, file: target, bytes: a.length, contentType: a.contentType, status: a.status } as const;
    if (a.length <= HEAD_BYTES) {
      // Small enough to tell in memory exactly as runCustomReport does.
      const outcome = interpretReportAnswer(a, { ...options, arrived });
      if (outcome.outcome !== 'report') return { saved: false, outcome };
      saved =
        outcome.format === 'pdf'
          ? { ...saving, format: 'pdf' }
          : { ...saving, format: 'csv', rows: outcome.rows.length, columns: outcome.columns };
    } else if (arrived?.pdf) {
      saved = { ...saving, format: 'pdf' };
    } else if (arrived?.wellFormed && arrived.columns && a.body[0] !== 0x3c /* '<': markup, not CSV */) {
      if (arrived.columns.length >= 2 || mediaType(a.contentType) === 'text/csv')
        saved = { ...saving, format: 'csv', rows: arrived.count, columns: arrived.columns };
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
