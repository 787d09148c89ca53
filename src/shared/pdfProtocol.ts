// The message protocol between the extension host and the PDF report page (webview-ui/pdf). A page of
// its own, so the PDF renderer is loaded only when a PDF is shown. Like resultsProtocol.ts: no `vscode`,
// no Node; each side checks what the other sends.
import { isRec, isStr, optStr } from './guards';

import { isReportInfo, type ReportInfo } from './reportInfo';
import { isSaid, type Said } from '../core/output/said';

export { formatBytes, type ReportInfo } from './reportInfo';

export { PDF_VIEW_TYPE } from './viewTypes';
export const PDF_PROTOCOL_VERSION = 1;

/**
 * Limits that keep a hostile PDF from taking the window down. Bigger files are refused before the page
 * sees them; more pages than MAX_PDF_PAGES are refused by the page with a message (the bytes can still
 * be saved); a page is never drawn on a canvas larger than MAX_CANVAS_PIXELS (pdf.js scales it down).
 */
export const MAX_PDF_BYTES = 64 * 1024 * 1024;
export const MAX_PDF_PAGES = 5_000;
export const MAX_CANVAS_PIXELS = 16 * 1024 * 1024;
/** Decoded images larger than this (in pixels) are skipped by the renderer instead of filling memory. */
export const MAX_IMAGE_PIXELS = 64 * 1024 * 1024;

export type HostToPdfPage =
  /** The PDF itself: bytes as received, transferred, never re-encoded. */
  /** `title` (as in pdfFailed): our words and the report's name, laid out by the page value by value. */
  | { type: 'pdf'; title: Said; info: ReportInfo; data: Uint8Array; file?: string }
  /** The host could not get the bytes (file unreadable, too large): the page says why, laid out value by value. */
  | { type: 'pdfFailed'; title: Said; message: Said }
  | { type: 'saveDone'; ok: boolean; message: Said };

export type PdfPageToHost =
  | { type: 'ready'; version: number }
  | { type: 'save' }
  /** A link in the PDF that the user clicked: the host asks before opening it. */
  | { type: 'openLink'; url: string }
  /** How the document went, for the log (page count, or why it was refused). */
  | { type: 'log'; level: 'info' | 'warn' | 'error'; message: string };

/** What a PDF page keeps across a reload: never the bytes; a saved file is read again. */
export interface PdfPersistedState {
  v: typeof PDF_PROTOCOL_VERSION;
  /** The title as the page laid it out. */
  title: string;
  file?: string;
}

export function isHostToPdfPage(v: unknown): v is HostToPdfPage {
  if (!isRec(v)) return false;
  switch (v.type) {
    case 'pdf':
      return isSaid(v.title) && isReportInfo(v.info) && v.data instanceof Uint8Array && optStr(v.file);
    case 'pdfFailed':
      return isSaid(v.title) && isSaid(v.message);
    case 'saveDone':
      return typeof v.ok === 'boolean' && isSaid(v.message);
    default:
      return false;
  }
}

export function isPdfPageToHost(v: unknown): v is PdfPageToHost {
  if (!isRec(v)) return false;
  switch (v.type) {
    case 'ready':
      return typeof v.version === 'number';
    case 'save':
      return true;
    case 'openLink':
      return isStr(v.url) && v.url.length <= 8192;
    case 'log':
      return (v.level === 'info' || v.level === 'warn' || v.level === 'error') && isStr(v.message);
    default:
      return false;
  }
}

export function isPdfPersistedState(v: unknown): v is PdfPersistedState {
  return isRec(v) && v.v === PDF_PROTOCOL_VERSION && isStr(v.title) && optStr(v.file);
}
