/** A list of offsets in a typed array that doubles when full: 4 bytes an entry instead of a boxed number. */
export class GrowableInt32 {
  private data = new Int32Array(1024);
  length = 0;

  push(value: number): void {
    if (this.length === this.data.length) {
      const bigger = new Int32Array(this.data.length * 2);
      bigger.set(this.data);
      this.data = bigger;
    }
    this.data[this.length++] = value;
  }

  /** The entries in an array of their own size (the spare capacity is given back). */
  trimmed(): Int32Array {
    return this.data.slice(0, this.length);
  }
}
