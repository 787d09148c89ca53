import type { Cells } from './tokenize';

const QUOTE = 34; // "

// One record's cells read in place, for checks that run on every cell of every row (the linter): cell i
// is the characters `source[from(i), to(i))`, so a check reads character codes and no string is cut
// unless a message or a key needs one. Splitting each row into strings made about 3 million of them
// for a 100k-row batch, the largest cost of a lint. One RowCells is reused for every row of a file.

export class RowCells {
  /** Holds the cells' characters: the document, or for a record with doubled quotes ("") its text unescaped. */
  source = '';
  /** Where each cell is in `source`: [from0, to0, from1, to1, ...]. */
  spans: Int32Array = new Int32Array(64);
  /** Where each field is in the document (its quotes included), same layout: the ranges of diagnostics. */
  bounds: Int32Array = this.spans;
  /** Number of cells. */
  count = 0;
  /** The buffers `spans` and `bounds` are written into (grown together). */
  private ownSpans: Int32Array = this.spans;
  private ownBounds = new Int32Array(64);

  from(i: number): number {
    return this.spans[2 * i];
  }

  to(i: number): number {
    return this.spans[2 * i + 1];
  }

  isEmpty(i: number): boolean {
    return this.spans[2 * i] === this.spans[2 * i + 1];
  }

  /** Cell i as a string (cut from the source): for messages and keys, never for a check. */
  value(i: number): string {
    return this.source.slice(this.spans[2 * i], this.spans[2 * i + 1]);
  }

  /** Is cell i exactly `word`? Compared by character codes: called for a few short words on every row, where startsWith was not inlined. */
  is(i: number, word: string): boolean {
    const from = this.spans[2 * i];
    if (this.spans[2 * i + 1] - from !== word.length) return false;
    const source = this.source;
    for (let k = 0; k < word.length; k++) if (source.charCodeAt(from + k) !== word.charCodeAt(k)) return false;
    return true;
  }

  /** A record without quotes between `start` and `end` of `text`: its cells are the text between delimiters. */
  readSplit(text: string, start: number, end: number, delimiters: NextChar): void {
    let spans = this.ownSpans;
    let n = 0;
    let from = start;
    for (let at = delimiters.at(from); at < end; at = delimiters.at(from)) {
      if (n + 4 > spans.length) spans = this.grow(n + 4); // room for this cell and the last
      spans[n++] = from;
      spans[n++] = at;
      from = at + 1;
    }
    spans[n++] = from;
    spans[n++] = end;
    this.source = text;
    this.spans = spans;
    this.bounds = spans;
    this.count = n >> 1;
  }

  /**
   * A well-formed record holding quotes (no csv-syntax problem), between `start` and `end`: a quoted
   * field's cell is the text between its quotes, so the document stays the source, unless some field
   * holds a doubled quote ("").
   */
  readQuoted(text: string, start: number, end: number, delimiters: NextChar): void {
    let n = 0;
    let doubled = false;
    for (let from = start; ;) {
      if (n + 2 > this.ownSpans.length) this.grow(n + 2);
      let next: number;
      if (text.charCodeAt(from) === QUOTE) {
        let close = text.indexOf('"', from + 1);
        while (text.charCodeAt(close + 1) === QUOTE) {
          doubled = true;
          close = text.indexOf('"', close + 2);
        }
        this.ownBounds[n] = from;
        this.ownSpans[n] = from + 1;
        this.ownSpans[n + 1] = close;
        next = close + 1;
      } else {
        next = Math.min(delimiters.at(from), end);
        this.ownBounds[n] = this.ownSpans[n] = from;
        this.ownSpans[n + 1] = next;
      }
      this.ownBounds[n + 1] = next;
      n += 2;
      if (next >= end) break;
      from = next + 1;
    }
    this.source = text;
    this.spans = this.ownSpans;
    this.bounds = this.ownBounds;
    this.count = n >> 1;
    if (doubled) this.unescape(text, start, end);
  }

  /**
   * The source becomes the record's text with each doubled quote of a quoted field made one (one string
   * for the row); every span moves to it, left by the quotes dropped before it.
   */
  private unescape(text: string, start: number, end: number): void {
    const spans = this.spans;
    const parts: string[] = [];
    let copied = start;
    let dropped = 0;
    for (let f = 0; f < 2 * this.count; f += 2) {
      const from = spans[f];
      const to = spans[f + 1];
      spans[f] = from - start - dropped;
      // Inside a well-formed quoted field every quote is the first of a pair: keep it, drop the next.
      if (this.bounds[f] !== from)
        for (let k = text.indexOf('"', from); k !== -1 && k < to; k = text.indexOf('"', k + 2)) {
          parts.push(text.slice(copied, k + 1));
          copied = k + 2;
          dropped++;
        }
      spans[f + 1] = to - start - dropped;
    }
    parts.push(text.slice(copied, end));
    this.source = parts.join('');
  }

  /** A record tokenized in full (one with a csv-syntax problem): its unquoted values, joined into one source. */
  readCells(cells: Cells): void {
    const values = cells.values;
    if (2 * values.length > this.ownSpans.length) this.grow(2 * values.length);
    const spans = this.ownSpans;
    let at = 0;
    for (let i = 0; i < values.length; i++) {
      spans[2 * i] = at;
      at += values[i].length;
      spans[2 * i + 1] = at;
    }
    this.source = values.join('');
    this.spans = spans;
    this.bounds = cells.bounds;
    this.count = values.length;
  }

  private grow(needed: number): Int32Array {
    let size = this.ownSpans.length * 2;
    while (size < needed) size *= 2;
    const spans = new Int32Array(size);
    spans.set(this.ownSpans);
    const bounds = new Int32Array(size);
    bounds.set(this.ownBounds);
    this.ownBounds = bounds;
    return (this.ownSpans = spans);
  }
}

/**
 * Where the next `char` of a text is at or after a position. The last one found is kept, and searched
 * again (indexOf, which beats reading character codes in a loop) only once the reader has passed it:
 * read in order, as the linter reads rows, the text is searched once, however few delimiters it holds.
 */
export class NextChar {
  private found = 0;
  private searchedFrom = Infinity;

  constructor(
    private readonly text: string,
    private readonly char: string,
  ) {}

  /** The offset of the first `char` at or after `from`, or the text's length when none is. */
  at(from: number): number {
    if (from < this.searchedFrom || from > this.found) {
      const k = this.text.indexOf(this.char, from);
      this.found = k === -1 ? this.text.length : k;
      this.searchedFrom = from;
    }
    return this.found;
  }
}
