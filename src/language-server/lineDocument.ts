import type { TextDocumentContentChangeEvent } from 'vscode-languageserver';
import type { Position, Range, TextDocument } from 'vscode-languageserver-textdocument';
import { forEachLineStart } from '../core/text';

// An open document as the server holds it, for files of a million rows. vscode-languageserver-textdocument
// keeps one flat string: every edit builds the whole text again (190 MB at a million rows) and moves its
// line table, which cost 100-400 ms a keystroke. Here the text is a list of chunks of whole lines, each
// with its own line table: an edit rewrites the few chunks it touches and the chunks' running totals, and
// the whole text is joined only when someone asks for it (a whole-file lint). Positions and offsets mean
// what they mean in vscode-languageserver-textdocument (1.0.16), which the unit test checks edit by edit.
// (VS Code's own piece tree, npm's vscode-textbuffer, would do as well; it is not among our dependencies.)

/** Lines per chunk: small enough that rewriting one is cheap, large enough that there are few of them. */
const CHUNK_LINES = 512;

interface Chunk {
  readonly text: string;
  /** Where each of the chunk's lines starts in `text`. Every chunk but the last ends with a line break. */
  readonly starts: Int32Array;
}

const isEol = (c: number): boolean => c === 10 || c === 13;

/** Where each line of `text` starts; a break at the very end starts a line only in the document's last chunk. */
export function lineStarts(text: string, last: boolean): Int32Array {
  const starts = [0];
  forEachLineStart(text, (offset) => starts.push(offset));
  if (!last && starts.length > 1 && starts[starts.length - 1] === text.length) starts.pop();
  return Int32Array.from(starts);
}

/** `text` (its lines starting at `starts`) cut into chunks of `size` whole lines. */
function chunksOf(text: string, starts: Int32Array, size: number): Chunk[] {
  const chunks: Chunk[] = [];
  for (let i = 0; i < starts.length; i += size) {
    const from = starts[i];
    const to = i + size < starts.length ? starts[i + size] : text.length;
    chunks.push({ text: text.slice(from, to), starts: starts.slice(i, i + size).map((s) => s - from) });
  }
  return chunks;
}

/** The last index of `sorted` (ascending) whose value is <= `value`, below `length`. */
function lastAtMost(sorted: ArrayLike<number>, length: number, value: number): number {
  let low = 0;
  let high = length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if (sorted[mid] > value) high = mid;
    else low = mid + 1;
  }
  return low - 1;
}

export class LineDocument implements TextDocument {
  private chunks: Chunk[];
  /** Each chunk's first line and first character in the document; rebuilt after an edit when read. */
  private lineBase = new Float64Array(0);
  private charBase = new Float64Array(0);
  private stale = true;
  private flat: string | undefined;
  version: number;

  private constructor(
    readonly uri: string,
    readonly languageId: string,
    version: number,
    text: string,
    private readonly chunkLines: number,
  ) {
    this.version = version;
    this.chunks = chunksOf(text, lineStarts(text, true), chunkLines);
    this.flat = text;
  }

  /** `chunkLines` is for tests: small chunks put chunk edges under every edit. */
  static create(uri: string, languageId: string, version: number, text: string, chunkLines = CHUNK_LINES): LineDocument {
    return new LineDocument(uri, languageId, version, text, chunkLines);
  }

  get lineCount(): number {
    this.index();
    const n = this.chunks.length - 1;
    return this.lineBase[n] + this.chunks[n].starts.length;
  }

  /** The whole text, joined once per version. */
  getText(range?: Range): string {
    if (!range) return (this.flat ??= this.join());
    let from = this.offsetAt(range.start);
    let to = this.offsetAt(range.end);
    if (from > to) [from, to] = [to, from];
    if (this.flat !== undefined) return this.flat.slice(from, to);
    const parts: string[] = [];
    for (let c = lastAtMost(this.charBase, this.chunks.length, from); c < this.chunks.length && this.charBase[c] < to; c++)
      parts.push(this.chunks[c].text.slice(Math.max(0, from - this.charBase[c]), to - this.charBase[c]));
    return parts.join('');
  }

  /** The text as it is now, read later only if asked: a version's text without joining it at each edit. */
  snapshot(): () => string {
    const chunks = this.chunks;
    let text = this.flat;
    return () => (text ??= chunks.map((c) => c.text).join(''));
  }

  positionAt(offset: number): Position {
    this.index();
    const at = Math.max(0, Math.min(offset, this.length()));
    const c = lastAtMost(this.charBase, this.chunks.length, at);
    const { text, starts } = this.chunks[c];
    let local = at - this.charBase[c];
    const i = lastAtMost(starts, starts.length, local);
    while (local > starts[i] && isEol(text.charCodeAt(local - 1))) local--;
    return { line: this.lineBase[c] + i, character: local - starts[i] };
  }

  offsetAt(position: Position): number {
    this.index();
    if (position.line >= this.lineCount) return this.length();
    if (position.line < 0) return 0;
    const c = lastAtMost(this.lineBase, this.chunks.length, position.line);
    const { text, starts } = this.chunks[c];
    const i = position.line - this.lineBase[c];
    if (position.character <= 0) return this.charBase[c] + starts[i];
    const next = i + 1 < starts.length ? starts[i + 1] : text.length;
    let local = Math.min(starts[i] + position.character, next);
    while (local > starts[i] && isEol(text.charCodeAt(local - 1))) local--;
    return this.charBase[c] + local;
  }

  getLineRange(line: number): Range {
    if (line < 0) return { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } };
    const at = Math.min(line, this.lineCount - 1);
    const length = this.offsetAt({ line: at, character: Infinity }) - this.offsetAt({ line: at, character: 0 });
    return { start: { line: at, character: 0 }, end: { line: at, character: length } };
  }

  getEOLCharacters(line: number): string {
    if (line < 0 || line >= this.lineCount) return '';
    return this.getText({ start: { line, character: Infinity }, end: { line: line + 1, character: 0 } });
  }

  /** Applies the changes a didChange carries, in order, each against the text the one before it left. */
  update(changes: readonly TextDocumentContentChangeEvent[], version: number): void {
    for (const change of changes) {
      this.flat = undefined;
      if ('range' in change) this.replace(change.range, change.text);
      else {
        this.chunks = chunksOf(change.text, lineStarts(change.text, true), this.chunkLines);
        this.flat = change.text;
      }
      this.stale = true;
    }
    this.version = version;
  }

  /** Rewrites the chunks the range touches (and a neighbour where a line or a CRLF now runs across). */
  private replace(range: Range, text: string): void {
    let from = this.offsetAt(range.start);
    let to = this.offsetAt(range.end);
    if (from > to) [from, to] = [to, from];
    const chunks = this.chunks;
    let c0 = lastAtMost(this.charBase, chunks.length, from);
    let c1 = lastAtMost(this.charBase, chunks.length, to);
    // A lone CR before the change may meet an LF it brings.
    if (c0 > 0 && chunks[c0 - 1].text.charCodeAt(chunks[c0 - 1].text.length - 1) === 13) c0--;
    const base = this.charBase[c0];
    const before = chunks
      .slice(c0, c1 + 1)
      .map((c) => c.text)
      .join('');
    let next = before.slice(0, from - base) + text + before.slice(to - base);
    let last = c1 + 1 === chunks.length;
    let starts = lineStarts(next, last);
    // A chunk must end with a whole line: take in the next while the text stops inside a line, and while
    // what was written is a small chunk, so deletions do not leave crumbs. (What follows the change ends
    // with the break the last chunk had, so no CR is left waiting for an LF at a chunk's end.)
    while (!last && !(isEol(next.charCodeAt(next.length - 1)) && starts.length >= this.chunkLines / 4)) {
      next += chunks[++c1].text;
      last = c1 + 1 === chunks.length;
      starts = lineStarts(next, last);
    }
    this.chunks = chunks.slice(0, c0).concat(chunksOf(next, starts, this.chunkLines), chunks.slice(c1 + 1));
  }

  /**
   * The whole text, and the chunks cut from it again: chunks not edited since the open are slices of the
   * text opened, which they would otherwise keep alive beside this one.
   */
  private join(): string {
    const flat = this.chunks.map((c) => c.text).join('');
    let at = 0;
    this.chunks = this.chunks.map(({ text, starts }) => ({ text: flat.slice(at, (at += text.length)), starts }));
    return flat;
  }

  private length(): number {
    const n = this.chunks.length - 1;
    return this.charBase[n] + this.chunks[n].text.length;
  }

  private index(): void {
    if (!this.stale) return;
    const n = this.chunks.length;
    if (this.lineBase.length !== n) {
      this.lineBase = new Float64Array(n);
      this.charBase = new Float64Array(n);
    }
    let lines = 0;
    let chars = 0;
    for (let c = 0; c < n; c++) {
      this.lineBase[c] = lines;
      this.charBase[c] = chars;
      lines += this.chunks[c].starts.length;
      chars += this.chunks[c].text.length;
    }
    this.stale = false;
  }
}
