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

/**
 * Calls `found` with the offset where each line after the first starts: after every CRLF, LF or lone CR.
 * The next CR and LF are searched again only once passed (indexOf, far faster than reading every
 * character), so the text is read once in all.
 */
export function forEachLineStart(text: string, found: (offset: number) => void): void {
  const n = text.length;
  let lf = text.indexOf('\n');
  let cr = text.indexOf('\r');
  if (lf === -1) lf = n;
  if (cr === -1) cr = n;
  for (;;) {
    const at = lf < cr ? lf : cr;
    if (at >= n) break;
    // A CR followed by LF is one line break (the sentinel n for "no LF" must not pass for that LF).
    const next = at === cr && lf === cr + 1 && lf < n ? cr + 2 : at + 1;
    found(next);
    if (lf < next) lf = text.indexOf('\n', next);
    if (cr < next) cr = text.indexOf('\r', next);
    if (lf === -1) lf = n;
    if (cr === -1) cr = n;
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
  /** The last line start found; the next LF and CR at or after it (the text's length when none; -1 not searched yet). */
  private last = 0;
  private lf = -1;
  private cr = -1;
  /** Every line start is found. */
  private whole = false;

  constructor(readonly text: string) {
    this.starts.push(0);
  }

  /**
   * Finds line starts until one after `offset` is known and `lines` are (or the text ends). The next CR and
   * LF are searched again only once passed (indexOf, far faster than reading every character), so the text
   * is read once.
   */
  private readPast(offset: number, lines = 0): void {
    if (this.whole) return;
    const { text, starts } = this;
    const n = text.length;
    let { last, lf, cr } = this;
    while (last <= offset || starts.length < lines) {
      if (lf < last) lf = text.indexOf('\n', last);
      if (lf === -1) lf = n;
      if (cr < last) cr = text.indexOf('\r', last);
      if (cr === -1) cr = n;
      const at = lf < cr ? lf : cr;
      if (at >= n) {
        this.whole = true;
        break;
      }
      // A CR followed by LF is one line break (the sentinel n for "no LF" must not pass for that LF).
      last = at === cr && lf === cr + 1 && lf < n ? cr + 2 : at + 1;
      starts.push(last);
    }
    this.last = last;
    this.lf = lf;
    this.cr = cr;
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
