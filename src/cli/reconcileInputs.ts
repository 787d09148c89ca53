import { resolve } from 'node:path';
import {
  datedRows,
  ledgerSends,
  otherGatewayNote,
  type BatchRowInput,
  type ReportReconciliation,
  type SentTarget,
} from '../core/reconcile';
import { FileRefused, readRegularFile } from '../core/regularFile';
import { textPieces } from '../core/textFile';
import type { CliContext } from './context';
import { readInput } from './io';
import { storePlace } from '../core/ledger/store';
import { openLedger } from './ledger';
import { field } from './output';
import { errorMessage } from '../core/errorMessage';

// What `paygate reconcile` reads: batch files (named, or the ledger's accepted submissions for an
// environment, read row by row as the core's sentRows.ts says) and the report, streamed into the core.

export interface BatchSource {
  /** As shown (the path given, or the ledger's path). */
  name: string;
  /** Each with the gateway's date when its batch was sent, when the ledger knows it. */
  rows: BatchRowInput[];
}

/** Where the batches were sent: the environment, and for `local` the local gateway's state directory. */
/** Where the batches were sent (the core's SentTarget), and the ledger's state directory option. */
export interface SentTo extends SentTarget {
  state: string | undefined;
}

/**
 * Named batch files, each row dated by the accepted send to the environment (and its local gateway) that
 * holds it, as it is or with cvv2 emptied and rows reordered since (reconcile/sentRows.ts): a row without
 * start-date started on that gateway's date.
 */
export async function namedBatches(files: string[], to: SentTo, ctx: CliContext): Promise<BatchSource[] | { error: string }> {
  const ledger = openLedger(ctx, to.state);
  const out: BatchSource[] = [];
  for (const f of files) {
    const input = await readInput(f, ctx);
    if (!input.ok) return { error: input.message };
    out.push({ name: input.name, rows: await datedRows(ledger, input.name, input.text, to) });
  }
  return out;
}

/**
 * The ledger's accepted submissions to the environment, one per file and content, with the rows still as
 * sent wherever they are now (their file, or the NAME.already-sent.rpcsv they were moved to); a file
 * changed or gone is skipped, and a send to another local gateway too (each named in `changed`, as are
 * rows left out of a file edited since and rows followed into another file).
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
    return { error: `cannot read ${storePlace(ledger)}: ${errorMessage(err)}` };
  }
  const changed: string[] = [];
  const sends = await ledgerSends(ledger, records, to, async (file) => (await readRegularFile(file, field(file))).toString('utf8'));
  for (const r of sends.elsewhere) changed.push(`${r.file} (sent ${r.time}) ${otherGatewayNote(r, to)}`);
  for (const f of sends.files) {
    if (f.followed) changed.push(`${field(f.record.file)} (sent ${f.record.time}): ${f.followed}`);
    if (f.note) changed.push(`${field(f.record.file)} (sent ${f.record.time}): ${f.note}`);
  }
  const batches = sends.files.filter((f) => f.rows.length > 0).map((f): BatchSource => ({ name: f.file, rows: f.rows }));
  return { batches, changed, ledger: ledger.kind === 'file' ? ledger.filePath : ledger.place };
}

/** Streams a report file (or standard input) into the reconciliation, piece by piece (in `encoding`: a template's reportEncode). */
export async function feedReport(
  report: string,
  into: ReportReconciliation,
  ctx: CliContext,
  encoding?: string,
): Promise<{ error: string } | undefined> {
  if (report === '-') {
    const input = await readInput('-', ctx);
    if (!input.ok) return { error: input.message };
    into.push(input.text);
    return undefined;
  }
  try {
    for await (const text of textPieces(resolve(ctx.cwd, report), undefined, encoding, field(report))) into.push(text);
  } catch (err) {
    if (err instanceof FileRefused) return { error: err.message };
    return { error: `${field(report)}: cannot read the report: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}` };
  }
  return undefined;
}
