import { ChunkedInt32 } from './chunked';

// Positions shared by every face. Lines and characters are 0-based and characters count UTF-16 code
// units, exactly as VS Code and LSP do, so the editor maps them without conversion; the CLI adds 1.

export interface Position {
  line: number;
  character: number;
}

export interface Range {
  start: Position;
  end: Position;
}

/** A replacement of the text between two offsets; fixes are lists of these, never whole documents. */
export interface TextEdit {
  range: Range;
  newText: string;
}

const CR = 13;
const LF = 10;

/** Where the next line starts, given where this one's line break is (CRLF, LF or a lone CR), or the end. */
export function afterBreak(text: string, at: number): number {
  if (at >= text.length) return text.length;
  return text.charCodeAt(at) === CR && text.charCodeAt(at + 1) === LF ? at + 2 : at + 1;
}

/**
 * The first CR or LF at or after a position (the text's length when none), for positions asked in
 * increasing order. Each is searched again only once passed (indexOf, far faster than reading every
 * character): a text without CRs is searched for one once, not once per line or record (which made a file
 * of quoted records quadratic), so the text is read once in all.
 */
export class LineBreaks {
  private lf = -1;
  private cr = -1;

  constructor(private readonly text: string) {}

  at(from: number): number {
    const n = this.text.length;
    if (this.lf < from) this.lf = found(this.text.indexOf('\n', from), n);
    if (this.cr < from) this.cr = found(this.text.indexOf('\r', from), n);
    return this.lf < this.cr ? this.lf : this.cr;
  }
}

const found = (at: number, n: number): number => (at === -1 ? n : at);

/** Calls `found` with the offset where each line after the first starts: after every CRLF, LF or lone CR. */
export function forEachLineStart(text: string, found: (offset: number) => void): void {
  const breaks = new LineBreaks(text);
  for (let at = breaks.at(0); at < text.length;) {
    const next = afterBreak(text, at);
    found(next);
    at = breaks.at(next);
  }
}

/** Line breaks (CRLF, LF or a lone CR) in text[from, to), found with indexOf rather than read one by one. */
export function countBreaks(text: string, from: number, to: number): number {
  let n = 0;
  for (let i = text.indexOf('\n', from); i !== -1 && i < to; i = text.indexOf('\n', i + 1)) n++;
  for (let i = text.indexOf('\r', from); i !== -1 && i < to; i = text.indexOf('\r', i + 1)) if (text.charCodeAt(i + 1) !== 10) n++;
  return n;
}

/**
 * Maps string offsets to line/character positions. A record may end in CRLF, LF or a lone CR. The text is
 * read for line breaks only as far as a question needs: the linter's usual answer is one warning on line 1
 * of a 100k-line batch, and reading every line for it was 3–4 % of a `paygate lint`.
 */
export class LineIndex {
  /** Offset of the first character of every line read so far, 4 bytes a line (a file may be millions of blank lines). */
  private readonly starts = new ChunkedInt32();
  /** The last line start found, and the search for the line breaks after it (made at the first question). */
  private last = 0;
  private breaks: LineBreaks | undefined;
  /** Every line start is found. */
  private whole = false;

  constructor(readonly text: string) {
    this.starts.push(0);
  }

  /** Finds line starts until one after `offset` is known and `lines` are (or the text ends): the text is read once. */
  private readPast(offset: number, lines = 0): void {
    if (this.whole) return;
    const { text, starts } = this;
    const breaks = (this.breaks ??= new LineBreaks(text));
    let last = this.last;
    while (last <= offset || starts.length < lines) {
      const at = breaks.at(last);
      if (at >= text.length) {
        this.whole = true;
        break;
      }
      last = afterBreak(text, at);
      starts.push(last);
    }
    this.last = last;
  }

  /** Offset of the first character of every line. */
  get lineStarts(): number[] {
    this.readPast(Infinity);
    return Array.from({ length: this.starts.length }, (_, i) => this.starts.get(i));
  }

  get lineCount(): number {
    this.readPast(Infinity);
    return this.starts.length;
  }

  positionAt(offset: number): Position {
    const o = Math.max(0, Math.min(offset, this.text.length));
    this.readPast(o);
    let lo = 0;
    let hi = this.starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.starts.get(mid) <= o) lo = mid;
      else hi = mid - 1;
    }
    return { line: lo, character: o - this.starts.get(lo) };
  }

  offsetAt(position: Position): number {
    this.readPast(0, position.line + 1);
    const line = Math.max(0, Math.min(position.line, this.starts.length - 1));
    return Math.min(this.starts.get(line) + position.character, this.text.length);
  }

  range(startOffset: number, endOffset: number): Range {
    return { start: this.positionAt(startOffset), end: this.positionAt(endOffset) };
  }
}

/** Applies non-overlapping edits (any order) to a text: the strip-CVV fix (rules/batchEdits.ts). */
export function applyEdits(text: string, edits: readonly TextEdit[]): string {
  const index = new LineIndex(text);
  const spans = edits
    .map((e) => ({ start: index.offsetAt(e.range.start), end: index.offsetAt(e.range.end), newText: e.newText }))
    .sort((a, b) => a.start - b.start || a.end - b.end);
  let out = '';
  let at = 0;
  for (const s of spans) {
    if (s.start < at) continue; // overlapping edit: the earlier one wins, the later is dropped
    out += text.slice(at, s.start) + s.newText;
    at = s.end;
  }
  return out + text.slice(at);
}
