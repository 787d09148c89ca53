import { TextDecoder } from 'node:util';
import { FileRefused, openRegularFile } from './regularFile';

/**
 * A decoder for `label` (an answer's charset, a report template's reportEncode): UTF-8 when none is given,
 * or when this runtime does not know the label (the template's schema refuses an unknown one before a
 * request; an answer's charset is the gateway's word, read as UTF-8 rather than not at all).
 */
export function textDecoder(label = 'utf-8'): TextDecoder {
  try {
    return new TextDecoder(label);
  } catch {
    return new TextDecoder('utf-8');
  }
}

/**
 * A text file in pieces of about `pieceBytes` bytes, decoded as they are read (in `encoding`, UTF-8 by
 * default), so a file of any size costs one piece of memory. Bad bytes become U+FFFD and a byte order mark
 * is dropped, as editors show the text (the language server's check of a batch too large for VS Code
 * relies on the lines and characters being the editor's). Stopping the loop closes the file. Only a regular
 * file is read (core/regularFile.ts): anything else is a FileRefused naming `name`, at once.
 */
export async function* textPieces(file: string, pieceBytes = 1 << 20, encoding?: string, name = file): AsyncGenerator<string> {
  const opened = await openRegularFile(file, name);
  if (!opened.ok) throw new FileRefused(opened.message, opened.code);
  const decoder = textDecoder(encoding);
  for await (const bytes of opened.handle.createReadStream({ highWaterMark: pieceBytes })) {
    const text = decoder.decode(bytes as Buffer, { stream: true });
    if (text !== '') yield text;
  }
  const rest = decoder.decode();
  if (rest !== '') yield rest;
}
