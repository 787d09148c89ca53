import type { Cells } from './tokenize';

// One record's cells read in place, for checks that run on every cell of every row (the linter): cell i
// is the characters `source[from(i), to(i))`, so a check reads character codes and no string is cut
// unless a message or a key needs one. Splitting each row into strings made about 3 million of them
// for a 100k-row batch, the largest cost of a lint. One RowCells is reused for every row of a file.

export class RowCells {
  /** Holds the cells' characters: the document for a record without quotes, else its unquoted values joined. */
  source = '';
  /** Where each cell is in `source`: [from0, to0, from1, to1, ...]. */
  spans: Int32Array = new Int32Array(64);
  /** Where each field is in the document (its quotes included), same layout: the ranges of diagnostics. */
  bounds: Int32Array = this.spans;
  /** Number of cells. */
  count = 0;
  /** The spans' own buffer: `spans` is it, except that it may have grown. */
  private own: Int32Array = this.spans;

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

  /** Is cell i exactly `word`? */
  is(i: number, word: string): boolean {
    const from = this.spans[2 * i];
    return this.spans[2 * i + 1] - from === word.length && this.source.startsWith(word, from);
  }

  /** A record without quotes between `start` and `end` of `text`: its cells are the text between delimiters. */
  readSplit(text: string, start: number, end: number, delimiters: NextChar): void {
    let spans = this.own;
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

  /** A record tokenized in full (it holds a quote): its unquoted values, joined into one source. */
  readCells(cells: Cells): void {
    const values = cells.values;
    let spans = this.own;
    if (2 * values.length > spans.length) spans = this.grow(2 * values.length);
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
    let size = this.own.length * 2;
    while (size < needed) size *= 2;
    const bigger = new Int32Array(size);
    bigger.set(this.own);
    return (this.own = bigger);
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
