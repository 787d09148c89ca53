import * as fs from 'node:fs/promises';
import type * as vscode from 'vscode';
import { createRecurringPayments } from '../../core/gateway';
import type { Target } from '../environments/target';
import type { SubmitOutcome } from '../results/outcomeView';
import type { SaidProgress } from '../say';
import { said, typed, type Said } from '../../core/output';

// The submit's one POST, its progress shown as the bytes go, and the file's bytes on disk for older hashes.

/** Where the send shows how far it got, and the person's cancel. */
export interface Showing {
  progress: SaidProgress;
  signal: AbortSignal;
}

/**
 * The file's text as read from disk when the document shows it unchanged: versions up to 0.1 hashed those
 * bytes from the terminal, and the editor's buffer has lost which line breaks were which.
 */
export async function bytesOnDisk(doc: vscode.TextDocument): Promise<string | undefined> {
  if (doc.uri.scheme !== 'file' || doc.isDirty) return undefined;
  return fs.readFile(doc.uri.fsPath, 'utf8').catch(() => undefined);
}

/** "12.5 of 54.0 MB sent": the bytes the connection has taken, in MB of 1024 × 1024 bytes. */
function sentText(sent: number, total: number): Said {
  const mb = (n: number) => typed.amount((n / 1024 / 1024).toFixed(1));
  return sent >= total ? said`${mb(total)} MB sent, waiting for the answer…` : said`${mb(sent)} of ${mb(total)} MB sent`;
}

/** One POST, its bytes shown as they go; cancelling after the request went out comes back as outcome unknown (kind cancelled). */
export async function send(target: Target, payload: string, showing: Showing): Promise<SubmitOutcome> {
  showing.progress.report({ message: said`sending…` });
  let shown = 0;
  return createRecurringPayments({
    environment: target.environment,
    paths: target.paths,
    payload,
    credentials: target.credentials,
    timeoutMs: target.timeoutMs,
    signal: showing.signal,
    onSent: (sent, total) => {
      // VS Code's bar moves by increments (per cent of the whole); told only when it moved.
      const percent = Math.floor((sent / total) * 100);
      showing.progress.report({ message: sentText(sent, total), increment: percent - shown });
      shown = percent;
    },
  });
}
