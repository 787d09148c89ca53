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

/** Maps string offsets to line/character positions. A record may end in CRLF, LF or a lone CR. */
export class LineIndex {
  /** Offset of the first character of every line. */
  readonly lineStarts: number[];

  constructor(readonly text: string) {
    const starts = [0];
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (c === 13 /* \r */) {
        if (text.charCodeAt(i + 1) === 10) i++;
        starts.push(i + 1);
      } else if (c === 10 /* \n */) {
        starts.push(i + 1);
      }
    }
    this.lineStarts = starts;
  }

  get lineCount(): number {
    return this.lineStarts.length;
  }

  positionAt(offset: number): Position {
    const o = Math.max(0, Math.min(offset, this.text.length));
    let lo = 0;
    let hi = this.lineStarts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.lineStarts[mid] <= o) lo = mid;
      else hi = mid - 1;
    }
    return { line: lo, character: o - this.lineStarts[lo] };
  }

  offsetAt(position: Position): number {
    const line = Math.max(0, Math.min(position.line, this.lineStarts.length - 1));
    return Math.min(this.lineStarts[line] + position.character, this.text.length);
  }

  range(startOffset: number, endOffset: number): Range {
    return { start: this.positionAt(startOffset), end: this.positionAt(endOffset) };
  }
}

/** Applies non-overlapping edits (any order) to a text. Used by the CLI's `fix` and by tests. */
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
