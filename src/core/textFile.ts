import { createReadStream } from 'node:fs';
import { TextDecoder } from 'node:util';

/**
 * A UTF-8 text file in pieces of about `pieceBytes` bytes, decoded as they are read, so a file of any
 * size costs one piece of memory. Bad bytes become U+FFFD and a byte order mark is dropped, as editors
 * show the text (the language server's check of a batch too large for VS Code relies on the lines and
 * characters being the editor's). Stopping the loop closes the file.
 */
export async function* textPieces(file: string, pieceBytes = 1 << 20): AsyncGenerator<string> {
  const decoder = new TextDecoder('utf-8');
  for await (const bytes of createReadStream(file, { highWaterMark: pieceBytes })) yield decoder.decode(bytes as Buffer, { stream: true });
  const rest = decoder.decode();
  if (rest !== '') yield rest;
}
