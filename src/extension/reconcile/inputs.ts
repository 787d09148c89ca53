import * as vscode from 'vscode';
import { writeRecords } from '../../core/csv/write';
import { todayLocal, type CalendarDate } from '../../core/dates';
import { acceptedSubmissions, batchRows, stillAsSent, type BatchRowInput, type ReportReconciliation } from '../../core/reconcile';
import type { SubmissionRecord } from '../../core/ledger';
import type { SubmissionHistory } from '../history/history';
import type { PanelContent } from '../results/panel';
import { streamUri } from '../results/stream';

// Where the editor's reconciliation gets its batches and its report: an open batch, a Submissions entry
// or the ledger's accepted submissions; a report's page or a CSV file chosen by the user.

export interface Batches {
  rows: BatchRowInput[];
  files: Map<string, vscode.Uri>;
  sentOn?: CalendarDate;
  skipped: string[];
}

async function textOf(uri: vscode.Uri): Promise<string> {
  const open = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
  return open ? open.getText() : new TextDecoder('utf-8').decode(await vscode.workspace.fs.readFile(uri));
}

function add(b: Batches, uri: vscode.Uri, text: string): void {
  const name = uri.fsPath;
  b.files.set(name, uri);
  for (const row of batchRows(name, text)) b.rows.push(row);
}

/** The batches of these ledger records (each still as sent), one per file and content. */
export async function batchesOf(records: SubmissionRecord[]): Promise<Batches> {
  const b: Batches = { rows: [], files: new Map(), skipped: [] };
  for (const r of records) {
    const uri = vscode.Uri.file(r.file);
    let text: string;
    try {
      text = await textOf(uri);
    } catch {
      b.skipped.push(`${r.file} cannot be read any more`);
      continue;
    }
    if (!stillAsSent(text, r)) {
      b.skipped.push(`${r.file} changed since it was sent`);
      continue;
    }
    add(b, uri, text);
    b.sentOn ??= todayLocal(new Date(r.time));
  }
  return b;
}

export async function ledgerBatches(history: SubmissionHistory, environment: string): Promise<Batches> {
  return batchesOf(acceptedSubmissions(await history.current.list(), environment));
}

export async function documentBatch(doc: vscode.TextDocument): Promise<Batches> {
  const b: Batches = { rows: [], files: new Map(), skipped: [] };
  add(b, doc.uri, doc.getText());
  return b;
}

/** Feeds a report into the reconciliation as it streams; the report's file when it is one. */
export async function feedReport(report: PanelContent | vscode.Uri, into: ReportReconciliation): Promise<vscode.Uri | undefined> {
  if (report instanceof vscode.Uri) {
    for await (const piece of streamUri(report)) into.push(piece);
    return report;
  }
  switch (report.kind) {
    case 'file':
      for await (const piece of streamUri(report.uri)) into.push(piece);
      return report.uri;
    case 'csvText':
      into.push(report.text);
      return undefined;
    case 'rows': {
      // Rows already read: written back as CSV text for the one reader (small: an in-memory report).
      into.push(`${writeRecords([report.columns, ...report.rows], ',')}\r\n`);
      return undefined;
    }
    default:
      return undefined;
  }
}
