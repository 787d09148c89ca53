// Reads a CSV for the page without parsing it: the page parses, so the extension host only moves bytes.
import * as fs from 'node:fs';
import * as vscode from 'vscode';
import { textDecoder, textPieces } from '../../core/textFile';
import { SLICE_CHARS, sliceText } from './textSlices';

/** The page's chunks: about as large as its reader's pieces (webview-ui/csvLoad.ts). */
const CHUNK_BYTES = 1 << 20;

/** Whether bytes in `encoding` (a report's stated one) need decoding to reach the page as UTF-8. */
function transcodes(encoding: string | undefined): encoding is string {
  return encoding !== undefined && textDecoder(encoding).encoding !== 'utf-8';
}

/** A CSV's text in pieces: an open editor's unsaved text, else the file (in `encoding`, a report's stated one). */
export async function* streamUri(uri: vscode.Uri, encoding?: string): AsyncGenerator<string> {
  // Unsaved edits win over the file on disk: the table shows what the editor shows.
  const open = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
  if (open?.isDirty) {
    yield* sliceText(open.getText());
    return;
  }
  if (uri.scheme === 'file' && transcodes(encoding)) {
    yield* textPieces(uri.fsPath, CHUNK_BYTES, encoding);
    return;
  }
  if (uri.scheme === 'file') {
    // setEncoding keeps multi-byte characters whole across chunk boundaries.
    const stream = fs.createReadStream(uri.fsPath, { encoding: 'utf8', highWaterMark: SLICE_CHARS });
    for await (const chunk of stream) yield chunk as string;
    return;
  }
  const bytes = await vscode.workspace.fs.readFile(uri);
  yield* sliceText(textDecoder().decode(bytes));
}

/**
 * The same file as UTF-8 chunks for the page, cut anywhere (the page joins a character cut in two). Each
 * is a plain Uint8Array over a buffer of its own: the editor sends a view's whole buffer, and a Node
 * Buffer would be sent as JSON.
 */
export async function* streamUriBytes(uri: vscode.Uri, encoding?: string): AsyncGenerator<Uint8Array> {
  const open = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
  if (open?.isDirty) {
    yield* encodeText(open.getText());
    return;
  }
  if (uri.scheme === 'file' && transcodes(encoding)) {
    // A report in another encoding (its template's reportEncode) reaches the page as UTF-8.
    const encoder = new TextEncoder();
    for await (const text of textPieces(uri.fsPath, CHUNK_BYTES, encoding)) yield encoder.encode(text);
    return;
  }
  if (uri.scheme === 'file') {
    const stream = fs.createReadStream(uri.fsPath, { highWaterMark: CHUNK_BYTES });
    for await (const chunk of stream) yield new Uint8Array(chunk as Buffer);
    return;
  }
  const bytes = await vscode.workspace.fs.readFile(uri);
  // A copy each: the editor's bytes may be a Node Buffer, whose slice is a view.
  for (let at = 0; at < bytes.length; at += CHUNK_BYTES) yield new Uint8Array(bytes.subarray(at, at + CHUNK_BYTES));
}

/** Text in memory (an unsaved file) as UTF-8 chunks for the page. */
function* encodeText(text: string): Generator<Uint8Array> {
  const encoder = new TextEncoder();
  for (const piece of sliceText(text)) yield encoder.encode(piece);
}
