// "Open Report File…": a saved report, CSV or PDF, in the pane. A PDF is read whole (it is drawn from
// memory) up to MAX_PDF_BYTES; a CSV is streamed to the table as before.
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { MAX_PDF_BYTES, formatBytes, type ReportInfo } from '../../shared/pdfProtocol';
import { hasPdfSignature, PDF_HEAD_BYTES } from '../../core/pdfSignature';
import type { PdfContent } from './pdfPanel';
import { errorMessage } from '../../core/errorMessage';
import { said, typed, type Said } from '../../core/output';

export type ReportFileRead =
  | { kind: 'pdf'; content: PdfContent }
  /** A CSV report: the table streams the file; the banner gets its name, time and size. */
  | { kind: 'csv'; info?: ReportInfo }
  /** `message`: why, laid out value by value where it is shown (the file's name, its size). */
  | { kind: 'refused'; title: Said; message: Said };

export function pdfTitle(name: string): Said {
  return said`Report: ${typed.text(name)}`;
}

/** What a saved report file holds, read once: its size and time, and its first bytes (all of them for a PDF). */
type Opened =
  | { ok: true; size: number; mtime: number; head: Uint8Array; rest: () => Promise<Uint8Array>; close: () => Promise<void> }
  | { ok: false; message: string };

/** Not a PDF by the one rule (core/pdfSignature.ts), said once for both ways of finding out. */
function notPdf(name: string, title: Said): ReportFileRead {
  return {
    kind: 'refused',
    title,
    message: said`${typed.text(name)} is not a PDF: the PDF signature (%PDF-) is not in its first 1,024 bytes.`,
  };
}

const cannotRead = (name: string, why: string): Said => said`${typed.text(name)} cannot be read: ${typed.text(why)}`;

function tooLarge(name: string, title: Said, size: number): ReportFileRead {
  return {
    kind: 'refused',
    title,
    message: said`${typed.text(name)} is ${typed.text(formatBytes(size))}, more than the ${typed.text(formatBytes(MAX_PDF_BYTES))} the pane shows. Open it with a PDF reader.`,
  };
}

/**
 * Opens a file on disk once: its size and time from the open file, then its first bytes; `rest` reads on from
 * there, so a PDF's bytes are read once, whole, and told once by their signature.
 */
async function openOnce(uri: vscode.Uri): Promise<Opened> {
  let handle: fs.FileHandle;
  try {
    handle = await fs.open(uri.fsPath, 'r');
  } catch (err) {
    return { ok: false, message: errorMessage(err) };
  }
  try {
    const stat = await handle.stat();
    const head = new Uint8Array(Math.min(PDF_HEAD_BYTES, stat.size));
    // No position: the file's own moves on, so `rest` starts where the head ended.
    const { bytesRead } = await handle.read(head, 0, head.length, null);
    let closed = false;
    const close = async () => {
      if (!closed) await handle.close();
      closed = true;
    };
    const rest = async () => {
      try {
        const tail = await handle.readFile();
        const bytes = new Uint8Array(bytesRead + tail.length);
        bytes.set(head.subarray(0, bytesRead));
        bytes.set(tail, bytesRead);
        return bytes;
      } finally {
        await close();
      }
    };
    return { ok: true, size: stat.size, mtime: stat.mtimeMs, head: head.subarray(0, bytesRead), rest, close };
  } catch (err) {
    await handle.close();
    return { ok: false, message: errorMessage(err) };
  }
}

/** A report file's info for the banner (a CSV: the table streams the file itself). */
function csvRead(name: string, stat: { mtime: number; size: number } | undefined): ReportFileRead {
  return { kind: 'csv', info: stat && { template: name, receivedAt: new Date(stat.mtime).toISOString(), bytes: stat.size } };
}

function pdfRead(uri: vscode.Uri, name: string, title: Said, mtime: number, bytes: Uint8Array): ReportFileRead {
  return {
    kind: 'pdf',
    content: {
      title,
      info: { template: name, receivedAt: new Date(mtime).toISOString(), bytes: bytes.length },
      bytes,
      fileName: name,
      file: uri,
    },
  };
}

/**
 * A saved report, told once: a PDF by its name or, on disk, by its first bytes (the one PDF rule); a PDF is
 * then read on from those bytes, whole, never read again to be told twice.
 */
export async function readReportFile(uri: vscode.Uri): Promise<ReportFileRead> {
  const name = path.posix.basename(uri.path);
  const title = pdfTitle(name);
  const namedPdf = name.toLowerCase().endsWith('.pdf');
  if (uri.scheme !== 'file') return readOtherScheme(uri, name, title, namedPdf);
  const opened = await openOnce(uri);
  if (!opened.ok) return namedPdf ? { kind: 'refused', title, message: cannotRead(name, opened.message) } : csvRead(name, undefined);
  const isPdf = hasPdfSignature(opened.head);
  if (!isPdf) {
    await opened.close(); // a CSV is streamed to the table by the panel
    return namedPdf ? notPdf(name, title) : csvRead(name, opened);
  }
  if (opened.size > MAX_PDF_BYTES) {
    await opened.close();
    return tooLarge(name, title, opened.size);
  }
  return pdfRead(uri, name, title, opened.mtime, await opened.rest());
}

/** A report behind another file system (a remote workspace): only its name can say it is a PDF. */
async function readOtherScheme(uri: vscode.Uri, name: string, title: Said, namedPdf: boolean): Promise<ReportFileRead> {
  let stat: vscode.FileStat;
  try {
    stat = await vscode.workspace.fs.stat(uri);
  } catch (err) {
    return namedPdf ? { kind: 'refused', title, message: cannotRead(name, errorMessage(err)) } : csvRead(name, undefined);
  }
  if (!namedPdf) return csvRead(name, stat);
  if (stat.size > MAX_PDF_BYTES) return tooLarge(name, title, stat.size);
  const bytes = await vscode.workspace.fs.readFile(uri);
  return hasPdfSignature(bytes) ? pdfRead(uri, name, title, stat.mtime, bytes) : notPdf(name, title);
}
