/**
 * A list of 32-bit integers (offsets) in fixed-size typed-array chunks: 4 bytes an entry, never copied
 * as it grows past a chunk and never more than one chunk of spare room. A doubling array would hold up
 * to twice the entries, and three times while it copies, on a file of millions of lines.
 */
const SHIFT = 16;
const CHUNK = 1 << SHIFT;
const MASK = CHUNK - 1;

export class ChunkedInt32 {
  private readonly chunks: Int32Array[] = [];
  private last = new Int32Array(64);
  length = 0;

  constructor() {
    this.chunks.push(this.last);
  }

  push(value: number): void {
    let at = this.length & MASK;
    if (at === 0 && this.length > 0) {
      this.last = new Int32Array(CHUNK);
      this.chunks.push(this.last);
    } else if (at === this.last.length) {
      // The first chunk starts small (a short document costs little) and doubles up to a whole chunk.
      const bigger = new Int32Array(Math.min(this.last.length * 2, CHUNK));
      bigger.set(this.last);
      this.last = bigger;
      this.chunks[this.chunks.length - 1] = bigger;
    }
    at = this.length & MASK;
    this.last[at] = value;
    this.length++;
  }

  get(i: number): number {
    return this.chunks[i >>> SHIFT][i & MASK];
  }
}
