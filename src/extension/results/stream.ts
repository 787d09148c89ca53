// Reads a CSV for the page without parsing it: the page parses, so the extension host only moves text.
import * as fs from 'node:fs';
import * as vscode from 'vscode';
import { SLICE_CHARS, sliceText } from './textSlices';

export { sliceText } from './textSlices';

export async function* streamUri(uri: vscode.Uri): AsyncGenerator<string> {
  // Unsaved edits win over the file on disk: the table shows what the editor shows.
  const open = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
  if (open?.isDirty) {
    yield* sliceText(open.getText());
    return;
  }
  if (uri.scheme === 'file') {
    // setEncoding keeps multi-byte characters whole across chunk boundaries.
    const stream = fs.createReadStream(uri.fsPath, { encoding: 'utf8', highWaterMark: SLICE_CHARS });
    for await (const chunk of stream) yield chunk as string;
    return;
  }
  const bytes = await vscode.workspace.fs.readFile(uri);
  yield* sliceText(new TextDecoder('utf-8').decode(bytes));
}
