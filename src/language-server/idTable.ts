import { FirstRowTable, grown } from '../core/rules/firstSeen';

/**
 * The first row each client-orderid was seen on, over a whole file read in pieces (streamLint.ts). The
 * core's FirstSeen keeps each key as a range of the text it was read from, which here would keep every
 * piece of the file alive; this table copies each key's characters into one growing pool instead, and
 * keeps no object per key: about 2 bytes a character and 20 a key. The probe (and its bound on crafted
 * ids) is the core's FirstRowTable.
 */
export class IdTable extends FirstRowTable {
  private chars = new Uint16Array(64 * 1024);
  private used = 0;
  /** Entry e: its key is chars[starts[e], starts[e + 1]); it was first seen on rows[e]. */
  private starts = new Int32Array(513);
  private rows = new Int32Array(512);

  constructor(maxProbe = 32) {
    super(1024, maxProbe);
  }

  protected holds(e: number, source: string, from: number, to: number): boolean {
    const start = this.starts[e];
    if (this.starts[e + 1] - start !== to - from) return false;
    for (let i = 0; i < to - from; i++) if (this.chars[start + i] !== source.charCodeAt(from + i)) return false;
    return true;
  }

  protected rowOf(e: number): number {
    return this.rows[e];
  }

  protected keep(e: number, source: string, from: number, to: number, row: number): void {
    if (e + 1 >= this.rows.length) {
      this.rows = grown(this.rows, this.rows.length * 2);
      this.starts = grown(this.starts, this.rows.length + 1);
    }
    const length = to - from;
    if (this.used + length > this.chars.length) this.chars = grown(this.chars, Math.max(this.chars.length * 2, this.used + length));
    for (let i = 0; i < length; i++) this.chars[this.used + i] = source.charCodeAt(from + i);
    this.starts[e] = this.used;
    this.used += length;
    this.starts[e + 1] = this.used;
    this.rows[e] = row;
  }

  /** A copy: the key itself is a cut of the piece it was read from. */
  protected ownKey(source: string, from: number, to: number): string {
    return JSON.parse(JSON.stringify(source.slice(from, to))) as string;
  }

  protected release(e: number): string {
    let key = '';
    for (let i = this.starts[e]; i < this.starts[e + 1]; i++) key += String.fromCharCode(this.chars[i]);
    return key;
  }
}
