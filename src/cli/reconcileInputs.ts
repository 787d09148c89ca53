import { createReadStream } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { TextDecoder } from 'node:util';
import {
  acceptedSendOf,
  acceptedSubmissions,
  batchRows,
  readSentBatch,
  sentOnOf,
  stillAsSent,
  type BatchRowInput,
  type ReportReconciliation,
} from '../core/reconcile';
import type { CliContext } from './context';
import { readInput } from './io';
import { openLedger } from './ledger';
import { field } from './output';

// What `paygate reconcile` reads: batch files (named, or the ledger's accepted submissions for an
// environment, each still holding the content that was sent) and the report, streamed into the core.

export interface BatchSource {
  /** As shown (the path given, or the ledger's path). */
  name: string;
  /** Each with the gateway's date when its batch was sent, when the ledger knows it. */
  rows: BatchRowInput[];
}

/** Where the batches were sent: the environment, and for `local` the local gateway's state directory. */
export interface SentTo {
  environment: string;
  localStateDir?: string;
  state: string | undefined;
}

/**
 * Named batch files. A file whose content the ledger records as accepted by the environment (and its local
 * gateway) was sent on that gateway's date, so its rows without start-date start then.
 */
export async function namedBatches(files: string[], to: SentTo, ctx: CliContext): Promise<BatchSource[] | { error: string }> {
  const ledger = openLedger(ctx, to.state);
  const out: BatchSource[] = [];
  for (const f of files) {
    const input = await readInput(f, ctx);
    if (!input.ok) return { error: input.message };
    const read = readSentBatch(input.name, input.text);
    // The content's own index shard, not the whole history; a ledger that cannot be read says nothing.
    const records = await ledger
      .guardView({ contentHash: read.contentHash, environment: to.environment, endpointId: '' })
      .then((v) => v.records)
      .catch(() => []);
    const send = acceptedSendOf(records, read.contentHash, to.environment, to.localStateDir);
    const sentOn = send && sentOnOf(send);
    out.push({ name: input.name, rows: sentOn ? read.rows.map((r) => ({ ...r, sentOn })) : read.rows });
  }
  return out;
}

/**
 * The ledger's accepted submissions to the environment, one per file and content; changed files are
 * skipped, and so are submissions to another local gateway (named in `changed`).
 */
export async function ledgerBatches(
  to: SentTo,
  ctx: CliContext,
): Promise<{ batches: BatchSource[]; changed: string[]; ledger: string } | { error: string }> {
  const ledger = openLedger(ctx, to.state);
  let records;
  try {
    records = (await ledger.read()).records;
  } catch (err) {
    return { error: `cannot read the submission ledger ${ledger.filePath}: ${(err as Error).message}` };
  }
  const batches: BatchSource[] = [];
  const changed: string[] = [];
  const selected = acceptedSubmissions(records, to.environment, to.localStateDir);
  for (const r of selected.elsewhere)
    changed.push(
      `${r.file} (sent ${r.time}) went to the local gateway of ${r.localGateway?.stateDir}, not of ${to.localStateDir}; skipped`,
    );
  for (const r of selected.records) {
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
    batches.push({ name: r.file, rows: batchRows(r.file, text, sentOnOf(r)) });
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
