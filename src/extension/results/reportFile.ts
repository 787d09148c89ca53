// "Open Report File…": a saved report, CSV or PDF, in the pane. A PDF is read whole (it is drawn from
// memory) up to MAX_PDF_BYTES; a CSV is streamed to the table as before.
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { MAX_PDF_BYTES, formatBytes, type ReportInfo } from '../../shared/pdfProtocol';
import { hasPdfSignature, PDF_HEAD_BYTES } from '../../core/pdfSignature';
import type { PdfContent } from './pdfPanel';
import { errorMessage } from '../../core/errorMessage';

export type ReportFileRead =
  | { kind: 'pdf'; content: PdfContent }
  /** A CSV report: the table streams the file; the banner gets its name, time and size. */
  | { kind: 'csv'; info?: ReportInfo }
  | { kind: 'refused'; title: string; message: string };

export function pdfTitle(name: string): string {
  return `Report: ${name}`;
}

/** Reads the first bytes only to tell a PDF by its signature when the name does not say. */
async function startsLikePdf(uri: vscode.Uri): Promise<boolean> {
  if (uri.scheme !== 'file') return false;
  const handle = await fs.open(uri.fsPath, 'r').catch(() => undefined);
  if (!handle) return false;
  try {
    const head = new Uint8Array(PDF_HEAD_BYTES);
    const { bytesRead } = await handle.read(head, 0, head.length, 0);
    return hasPdfSignature(head.subarray(0, bytesRead));
  } finally {
    await handle.close();
  }
}

export async function readReportFile(uri: vscode.Uri): Promise<ReportFileRead> {
  const name = path.posix.basename(uri.path);
  const isPdf = name.toLowerCase().endsWith('.pdf') || (await startsLikePdf(uri));
  if (!isPdf) {
    const stat = await Promise.resolve(vscode.workspace.fs.stat(uri)).catch(() => undefined);
    return { kind: 'csv', info: stat && { template: name, receivedAt: new Date(stat.mtime).toISOString(), bytes: stat.size } };
  }
  const title = pdfTitle(name);
  let stat: vscode.FileStat;
  try {
    stat = await vscode.workspace.fs.stat(uri);
  } catch (err) {
    return { kind: 'refused', title, message: `${name} cannot be read: ${errorMessage(err)}` };
  }
  if (stat.size > MAX_PDF_BYTES) {
    return {
      kind: 'refused',
      title,
      message: `${name} is ${formatBytes(stat.size)}, more than the ${formatBytes(MAX_PDF_BYTES)} the pane shows. Open it with a PDF reader.`,
    };
  }
  const bytes = await vscode.workspace.fs.readFile(uri);
  if (!hasPdfSignature(bytes)) {
    return { kind: 'refused', title, message: `${name} is not a PDF: the PDF signature (%PDF-) is not in its first 1,024 bytes.` };
  }
  return {
    kind: 'pdf',
    content: {
      title,
      info: { template: name, receivedAt: new Date(stat.mtime).toISOString(), bytes: bytes.length },
      bytes,
      fileName: name,
      file: uri,
    },
  };
}
