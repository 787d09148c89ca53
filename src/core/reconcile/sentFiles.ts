import { taggedName } from '../freeName';
import { batchRowKeys, rowsByKey, type RowKey, type SubmissionRecord } from '../ledger';
import { acceptedSubmissions, readSentBatch, sentOnOf } from './batches';
import { sentFile, type RowsAgainstSend, type SentRowsLedger, type SentTarget } from './sentRows';
import type { BatchRowInput } from './types';

// Reconciliation follows rows, not files. A send's rows live in its file, or, once "Move the already-sent
// rows" (the editor's pick, the quick fix) has put them there, in NAME.already-sent.rpcsv beside it
// (NAME.already-sent-2.rpcsv, … when taken): files of our own making. A row is the send's wherever it now
// is when the send held its client-orderid with the same card and schedule (the ledger's row keys). What is
// left out is named with why and how to include it.

/** How many moved files beside one batch are looked for (freeName in the faces stops at as many). */
const MAX_MOVED = 100;

/** How to reconcile a file as it is now, in both faces' words. */
export const NAME_THE_FILE =
  'to reconcile a file as it is now, name it (paygate reconcile FILE; in the editor, Reconcile with Report… with it open)';

/** A ledger send's rows as reconciliation takes them, from the file they are in now. */
export interface LedgerFile {
  record: SubmissionRecord;
  /** The file holding `rows`: the send's own, or one its rows were moved to. */
  file: string;
  rows: BatchRowInput[];
  /** Set when rows were left out or the file was skipped: in words, without the send's file name. */
  note?: string;
  /** Set when rows were found in a file they were moved to: in words, without the send's file name. */
  followed?: string;
}

const list = (rows: readonly RowKey[]) =>
  `${rows
    .slice(0, 5)
    .map((r) => r.orderId)
    .join(', ')}${rows.length > 5 ? ` and ${rows.length - 5} more` : ''}`;

const baseName = (file: string) => file.slice(Math.max(file.lastIndexOf('/'), file.lastIndexOf('\\')) + 1);

/** The files beside `file` its rows may have been moved to that can be read, in the order they were made. */
async function* movedFiles(file: string, read: (file: string) => Promise<string>): AsyncGenerator<{ file: string; text: string }> {
  for (let n = 1; n <= MAX_MOVED; n++) {
    const candidate = taggedName(file, 'already-sent', n);
    let text: string;
    try {
      text = await read(candidate);
    } catch {
      // Names are taken in order (the first free one): after a missing one, none was made.
      return;
    }
    yield { file: candidate, text };
  }
}

/** The send's rows missing from its file that a moved file holds as sent; taken out of `missing`. */
function rowsFound(
  moved: { file: string; text: string },
  missing: Map<string, RowKey>,
  f: Extract<Awaited<ReturnType<typeof sentFile>>, { kind: 'rows' }>,
  sentOn: BatchRowInput['sentOn'],
): BatchRowInput[] {
  const read = readSentBatch(moved.file, moved.text, sentOn);
  const lines = new Set<number>();
  for (const [key, row] of rowsByKey(batchRowKeys(read.batch, f.secret).rows)) {
    const sent = missing.get(key);
    if (sent && sent.fingerprint === row.fingerprint) {
      lines.add(row.line);
      missing.delete(key);
    }
  }
  return read.rows.filter((r) => lines.has(r.line));
}

/** In words: what of a send is not reconciled from its file, why, and how to include it. */
function leftOut(a: RowsAgainstSend, added: RowKey[], unfound: RowKey[], fileName: string, kept: number): string | undefined {
  const parts: string[] = [];
  if (added.length) parts.push(`left out ${added.length} row(s) added since (${list(added)}): no part of this send`);
  if (a.changed.length)
    parts.push(`left out ${a.changed.length} row(s) whose card or schedule changed since (${list(a.changed)}): not the charges sent`);
  if (unfound.length)
    parts.push(
      `${unfound.length} sent row(s) are neither in the file nor in a ${fileName.replace(/(\.[^.]*)?$/, '.already-sent$1')} beside it, their charges unmatched (${list(unfound)})`,
    );
  if (parts.length === 0) return undefined;
  const head = kept > 0 ? `changed since it was sent: ${kept} row(s) still as sent are reconciled` : 'changed since it was sent; skipped';
  return `${head}; ${parts.join('; ')}; ${NAME_THE_FILE}`;
}

/**
 * The rows of the ledger's accepted sends (acceptedSubmissions: one per file and content), each from the
 * file it is in now (`read` throws when a file cannot be read). Newest send first, so a row a file holds
 * once is reconciled once even when two sends of that file held it (its doubled charges are then `extra`,
 * as they should be).
 */
export async function ledgerFiles(
  ledger: SentRowsLedger,
  records: readonly SubmissionRecord[],
  read: (file: string) => Promise<string>,
): Promise<LedgerFile[]> {
  const taken = new Set<string>();
  const out: LedgerFile[] = [];
  const take = (rows: BatchRowInput[]) => {
    const fresh = rows.filter((r) => !taken.has(`${r.file}\0${r.line}`));
    for (const r of fresh) taken.add(`${r.file}\0${r.line}`);
    return fresh;
  };
  for (const record of [...records].sort((a, b) => b.seq - a.seq)) {
    let text: string;
    try {
      text = await read(record.file);
    } catch {
      out.push({
        record,
        file: record.file,
        rows: [],
        note: `cannot be read any more; skipped: its charges are unmatched; ${NAME_THE_FILE}`,
      });
      continue;
    }
    const found = await sentFile(ledger, text, record);
    if (found.kind === 'changed') {
      out.push({
        record,
        file: record.file,
        rows: [],
        note: `changed since it was sent, and the ledger keeps no row keys of that send; skipped; ${NAME_THE_FILE}`,
      });
      continue;
    }
    // Rows a newer send of the file holds too are that send's (already taken).
    const rows = take(found.rows);
    if (found.kind === 'as-sent') {
      if (rows.length > 0) out.push({ record, file: record.file, rows });
      continue;
    }
    const here: LedgerFile = { record, file: record.file, rows };
    out.push(here);
    // The send's rows the file lost: looked for in the files they may have been moved to.
    const missing = new Map(found.against.removed);
    const followed: string[] = [];
    if (missing.size > 0)
      for await (const moved of movedFiles(record.file, read)) {
        const there = take(rowsFound(moved, missing, found, sentOnOf(record)));
        if (there.length > 0) {
          out.push({ record, file: moved.file, rows: there });
          followed.push(`${there.length} sent row(s) moved to ${baseName(moved.file)} are reconciled there`);
        }
        if (missing.size === 0) break;
      }
    if (followed.length) here.followed = followed.join('; ');
    // Rows added since that a newer send holds are reconciled with it: nothing to say of them here.
    const added = found.against.added.filter((r) => !taken.has(`${record.file}\0${r.line}`));
    const note = leftOut(found.against, added, [...missing.values()], baseName(record.file), rows.length);
    if (note) here.note = note;
  }
  return out.reverse().filter((f) => f.rows.length > 0 || f.note !== undefined || f.followed !== undefined);
}

/**
 * A reconciliation against the ledger (`paygate reconcile` with no file, the editor's with no batch open):
 * the accepted sends to `to`, one per file and content, each as its rows still as sent (ledgerFiles), and the
 * sends to another local gateway, which are left out.
 */
export async function ledgerSends(
  ledger: SentRowsLedger,
  records: readonly SubmissionRecord[],
  to: SentTarget,
  read: (file: string) => Promise<string>,
): Promise<{ files: LedgerFile[]; elsewhere: SubmissionRecord[] }> {
  const selected = acceptedSubmissions(records, to.environment, to.localStateDir);
  return { files: await ledgerFiles(ledger, selected.records, read), elsewhere: selected.elsewhere };
}

/** Why a send to another local gateway was left out, in both faces' words (after its file's name). */
export const otherGatewayNote = (r: SubmissionRecord, to: SentTarget): string =>
  `went to the local gateway of ${r.localGateway?.stateDir}, not of ${to.localStateDir}; skipped`;
