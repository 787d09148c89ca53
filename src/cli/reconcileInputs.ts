import { createReadStream } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { TextDecoder } from 'node:util';
import { todayLocal, type CalendarDate } from '../core/dates';
import { acceptedSubmissions, batchRows, stillAsSent, type BatchRowInput, type ReportReconciliation } from '../core/reconcile';
import type { CliContext } from './context';
import { readInput } from './io';
import { openLedger } from './ledger';
import { field } from './output';

// What `paygate reconcile` reads: batch files (named, or the ledger's accepted submissions for an
// environment, each still holding the content that was sent) and the report, streamed into the core.

export interface BatchSource {
  /** As shown (the path given, or the ledger's path). */
  name: string;
  rows: BatchRowInput[];
  /** The day a row without start-date was first charged: the send's date when the ledger knows it. */
  sentOn?: CalendarDate;
}

export async function namedBatches(files: string[], ctx: CliContext): Promise<BatchSource[] | { error: string }> {
  const out: BatchSource[] = [];
  for (const f of files) {
    const input = await readInput(f, ctx);
    if (!input.ok) return { error: input.message };
    out.push({ name: input.name, rows: batchRows(input.name, input.text) });
  }
  return out;
}

/** The ledger's accepted submissions to `environment`, one per file and content; changed files are skipped. */
export async function ledgerBatches(
  environment: string,
  state: string | undefined,
  ctx: CliContext,
): Promise<{ batches: BatchSource[]; changed: string[]; ledger: string } | { error: string }> {
  const ledger = openLedger(ctx, state);
  let records;
  try {
    records = (await ledger.read()).records;
  } catch (err) {
    return { error: `cannot read the submission ledger ${ledger.filePath}: ${(err as Error).message}` };
  }
  const batches: BatchSource[] = [];
  const changed: string[] = [];
  for (const r of acceptedSubmissions(records, environment)) {
    let text: string;
    try {
      text = await readFile(r.file, 'utf8');
    } catch {
      changed.push(`${field(r.file)} (sent ${r.time}): cannot be read any more; skipped`);
      continue;
    }
    if (!stillAsSent(text, r)) {
      changed.push(`${field(r.file)} (sent ${r.time}): changed since it was sent; skipped`);
      continue;
    }
    batches.push({ name: r.file, rows: batchRows(r.file, text), sentOn: todayLocal(new Date(r.time)) });
  }
  return { batches, changed, ledger: ledger.filePath };
}

/** Streams a report file (or standard input) into the reconciliation, piece by piece. */
export async function feedReport(report: string, into: ReportReconciliation, ctx: CliContext): Promise<{ error: string } | undefined> {
  if (report === '-') {
    const input = await readInput('-', ctx);
    if (!input.ok) return { error: input.message };
    into.push(input.text);
    return undefined;
  }
  const decoder = new TextDecoder('utf-8');
  try {
    for await (const chunk of createReadStream(resolve(ctx.cwd, report))) into.push(decoder.decode(chunk as Buffer, { stream: true }));
    into.push(decoder.decode());
  } catch (err) {
    return { error: `${field(report)}: cannot read the report: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}` };
  }
  return undefined;
}
