import { open } from 'node:fs/promises';
import { PROJECT_URL } from '../core/rules/links';

// A batch VS Code does not pass to extensions. Its model sync limit is 50 MB of text (VS Code's
// `_MODEL_SYNC_LIMIT`, 50 × 1024 × 1024 characters): a larger file opens in the editor (after "Open
// Anyway" from its large-file warning), but no extension gets its document — no didOpen for the language
// server, no `workspace.textDocuments` entry, no `activeTextEditor`, no CodeLens, and
// `workspace.openTextDocument` rejects with "Files above 50MB cannot be synchronized with extensions".
// Only the tab shows it (`window.tabGroups`). A file of more bytes than the limit may still hold fewer
// characters (UTF-8 text outside ASCII); if the editor passes it after all, the document path takes over.

/** The manifest's firstLine pattern, so both ways of detection (the editor's and this) agree. */
export const HEADER = /^(?=.*client-orderid)(?=.*rp_card_type)/;

/** VS Code's model sync limit, in characters of text. */
export const SYNC_LIMIT = 50 * 1024 * 1024;

/** The reference section on batches too large for the editor. */
export const LARGE_BATCHES_DOCS_URL = `${PROJECT_URL}/blob/main/docs/editor.md#batches-over-50-mb`;

const BATCH_NAME = /\.(rpcsv|recurring\.csv)$/i;

/** Whether a file of this many bytes may be too large for VS Code to pass to extensions. */
export function beyondSyncLimit(bytes: number): boolean {
  return bytes > SYNC_LIMIT;
}

/** A batch by its name, or by a first line holding the gateway's header (as the manifest's firstLine and detect.ts tell). */
export function isBatch(fileName: string, firstLine: string): boolean {
  return BATCH_NAME.test(fileName) || HEADER.test(firstLine);
}

/** The first line of a file, read from its first 64 KB (never the whole file). */
export async function firstLineOf(path: string): Promise<string> {
  const file = await open(path, 'r');
  try {
    const buffer = Buffer.alloc(64 * 1024);
    const { bytesRead } = await file.read(buffer, 0, buffer.length, 0);
    const text = new TextDecoder('utf-8').decode(buffer.subarray(0, bytesRead));
    return text.split(/\r\n|\r|\n/, 1)[0] ?? '';
  } finally {
    await file.close();
  }
}

/** "63 MB": a size in MB of 1024 × 1024 bytes, as VS Code's large-file warning and its 50 MB limit count them. */
export function megabytes(bytes: number): string {
  return `${Math.round(bytes / 1024 / 1024)} MB`;
}
