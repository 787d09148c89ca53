import * as path from 'node:path';
import * as vscode from 'vscode';
import { errorMessage } from '../../core/errorMessage';
import { said, typed } from '../../core/output';
import {
  diffAgainstLedger,
  sentAt,
  serialText,
  submissionState,
  type BatchDiff,
  type BatchRowKeys,
  type SubmissionRecord,
} from '../../core/ledger';
import { readBatch } from '../../core/rules/batch';
import { type CommandArgs } from '../commandArgs';
import { documentFor } from '../diskDocument';
import { Disposable } from '../disposable';
import type { EditorLedger } from './editorLedger';
import { showInfo, showWarning } from '../say';

// PayGate: Compare with Last Sent. The batch against the last send of a file of its name, read back from
// the ledger's row keys (`paygate diff FILE --against last` in the editor): VS Code's diff editor with the
// rows of each side, one client-orderid a line in the same order (added rows on the right only, removed
// ones on the left only, a changed row with the names of its changed columns), and a summary. The ledger
// keeps no values, so none is shown.

export const COMPARE_SCHEME = 'paygate-sent';

export type CompareResult =
  | { status: 'compared'; diff: BatchDiff; record: SubmissionRecord; left: string; right: string }
  | { status: 'not-compared'; message: string };

/** The two sides' texts, served read-only under COMPARE_SCHEME. */
export class CompareDocuments extends Disposable implements vscode.TextDocumentContentProvider {
  private readonly texts = new Map<string, string>();
  private count = 0;

  constructor() {
    super();
    this.register(vscode.workspace.registerTextDocumentContentProvider(COMPARE_SCHEME, this));
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.texts.get(uri.toString()) ?? '';
  }

  /** A new document (each comparison its own, so an open diff editor never changes under the reader). */
  add(label: string, text: string): vscode.Uri {
    const uri = vscode.Uri.from({ scheme: COMPARE_SCHEME, path: `/${++this.count}/${label}` });
    this.texts.set(uri.toString(), text);
    return uri;
  }
}

/** One side: a heading line, then each row's client-orderid (with what changed, on the current side). */
function listing(heading: string, keys: BatchRowKeys, notes: ReadonlyMap<string, string> = new Map()): string {
  const ids = keys.rows.map((r) => `${r.orderId}${notes.get(`${r.orderId}@${r.line}`) ?? ''}`);
  // Code-unit order, the same on every machine, so both sides line up.
  ids.sort((a, b) => Number(a > b) - Number(a < b));
  return `${[heading, '', ...ids].join('\n')}\n`;
}

function summaryOf(d: BatchDiff): string {
  return `${d.added.length} added, ${d.removed.length} removed, ${d.changed.length} changed, ${d.unchanged} unchanged`;
}

export async function compareWithLastSentCommand(
  ledger: EditorLedger,
  docs: CompareDocuments,
  ...args: CommandArgs
): Promise<CompareResult> {
  const doc = await documentFor(args);
  if (!doc) return notCompared('Open a recurring-payments CSV file to compare it with its last send.');
  const name = path.basename(doc.uri.path);
  let found: Awaited<ReturnType<typeof diffAgainstLedger>>;
  try {
    found = await diffAgainstLedger(await ledger.store(), readBatch(doc.getText()), { last: name });
  } catch (err) {
    return notCompared(`${name}: ${errorMessage(err)}.`);
  }
  if (!found.ok) return notCompared(`${name}: ${found.message}.`);
  const r = found.record;
  const notes = new Map(found.diff.changed.map((c) => [`${c['client-orderid']}@${c.line}`, `  (changed: ${c.columns.join(', ')})`]));
  const left = listing(
    `# ${path.basename(r.file)} as sent ${sentAt(r)} to ${r.environment}: ${serialText(r)}, ${submissionState(r)}`,
    found.sent,
  );
  const right = listing(`# ${name} now`, found.now, notes);
  const leftUri = docs.add(`${name} (last sent)`, left);
  const rightUri = docs.add(`${name} (now)`, right);
  await vscode.commands.executeCommand('vscode.diff', leftUri, rightUri, `${name}: last sent ↔ now`);
  const t = typed.text;
  void showInfo(said`PayGate: ${t(name)} against its send of ${typed.date(sentAt(r))} (${t(serialText(r))}): ${t(summaryOf(found.diff))}.`);
  return { status: 'compared', diff: found.diff, record: r, left, right };
}

function notCompared(message: string): CompareResult {
  void showWarning(said`PayGate: ${typed.text(message)}`);
  return { status: 'not-compared', message };
}
