import * as vscode from 'vscode';
import {
  datedRows,
  ledgerFiles,
  ledgerSends,
  otherGatewayNote,
  type BatchRowInput,
  type LedgerFile,
  type ReportReconciliation,
  type SentTarget,
} from '../../core/reconcile';
import type { SubmissionRecord } from '../../core/ledger';
import type { EditorLedger } from '../ledger/editorLedger';
import type { PanelContent } from '../results/panel';
import { streamUri } from '../results/stream';

// Where the editor's reconciliation gets its batches and its report: an open batch, a Submissions entry
// or the ledger's accepted submissions; a report's page or a CSV file chosen by the user.

export interface Batches {
  /** Each with the gateway's date when its batch was sent, when the ledger knows it. */
  rows: BatchRowInput[];
  files: Map<string, vscode.Uri>;
  /** Files skipped, or rows of a file left out, in words naming the file. */
  notes: string[];
  /** Rows followed into the files they were moved to, in words naming the files (said, not warned of). */
  followed?: string[];
}

async function textOf(uri: vscode.Uri): Promise<string> {
  const open = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
  return open ? open.getText() : new TextDecoder('utf-8').decode(await vscode.workspace.fs.readFile(uri));
}

function add(b: Batches, uri: vscode.Uri, rows: BatchRowInput[]): void {
  b.files.set(uri.fsPath, uri);
  for (const row of rows) b.rows.push(row);
}

/**
 * The batches of these ledger records, one per file and content, with the rows still as sent wherever they
 * are now (reconcile/sentFiles.ts: cvv2 emptied or rows reordered since is still as sent, rows moved to
 * NAME.already-sent.rpcsv are followed there); what was left out is named in `notes`.
 */
export async function batchesOf(records: SubmissionRecord[], ledger: EditorLedger): Promise<Batches> {
  return batchesIn(await ledgerFiles(await ledger.store(), records, readText));
}

function batchesIn(files: readonly LedgerFile[]): Batches {
  const b: Batches = { rows: [], files: new Map(), notes: [] };
  for (const f of files) {
    if (f.note) b.notes.push(`${f.record.file} ${f.note}`);
    if (f.followed) (b.followed ??= []).push(`${f.record.file}: ${f.followed}`);
    if (f.rows.length > 0) add(b, vscode.Uri.file(f.file), f.rows);
  }
  return b;
}

const readText = (file: string) => textOf(vscode.Uri.file(file));

/** The ledger's accepted submissions to the environment; those to another local gateway are named and left out. */
export async function ledgerBatches(ledger: EditorLedger, to: SentTarget): Promise<Batches> {
  const store = await ledger.store();
  const sends = await ledgerSends(store, (await store.read()).records, to, readText);
  const b = batchesIn(sends.files);
  for (const r of sends.elsewhere) b.notes.push(`${r.file} ${otherGatewayNote(r, to)}`);
  return b;
}

/** An open batch, each row dated by the accepted send that holds it (reconcile/sentRows.ts). */
export async function documentBatch(doc: vscode.TextDocument, ledger: EditorLedger, to: SentTarget): Promise<Batches> {
  const b: Batches = { rows: [], files: new Map(), notes: [] };
  add(b, doc.uri, await datedRows(await ledger.store(), doc.uri.fsPath, doc.getText(), to));
  return b;
}

/** A report to reconcile: a CSV file chosen, or the page of one (a saved report, or one the editor ran). */
export type ReportSource = vscode.Uri | PanelContent;

export interface ReportFile {
  uri: vscode.Uri;
  delimiter?: string;
  encoding?: string;
  /** A report the editor ran: its file is the editor's own, not one to open as text. */
  ran?: true;
}

/** The file of a report and how to read it; undefined for a page that shows no report (a submission, a callback). */
export function reportFileOf(report: ReportSource): ReportFile | undefined {
  if (report instanceof vscode.Uri) return { uri: report };
  return report.kind === 'file' ? report : undefined;
}

/** Feeds a report's file into the reconciliation as it streams: the one reader, the report read once. */
export async function feedReport(file: { uri: vscode.Uri; encoding?: string }, into: ReportReconciliation): Promise<void> {
  for await (const piece of streamUri(file.uri, file.encoding)) into.push(piece);
}
