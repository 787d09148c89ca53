// Reads just the schedule columns of a record. A quote-free record (nearly all of them) is walked with
// indexOf and only the wanted fields are cut; the core's tokenizer, which cuts every field, reads the
// others. The forecast reads 100k rows after each edit, and cutting 29 fields per row to keep 11 was most
// of its time (and of its garbage).

import type { ParsedCsv } from '../csv/parse';

const QUOTE = '"';

export class FieldReader {
  /** slotOf[header index] = the wanted column's slot, or -1. */
  private readonly slotOf: Int32Array;
  private readonly out: string[];

  constructor(
    private readonly csv: ParsedCsv,
    /** Header index of each wanted column (-1: the header lacks it, read as ''). */
    private readonly wanted: readonly number[],
    private readonly width: number,
  ) {
    this.slotOf = new Int32Array(width).fill(-1);
    wanted.forEach((index, slot) => index >= 0 && (this.slotOf[index] = slot));
    this.out = new Array<string>(wanted.length).fill('');
  }

  /** The wanted fields of record `r` (reused array), or undefined when the record is not trusted. */
  read(r: number): string[] | undefined {
    const { csv, out, wanted } = this;
    if (csv.syntaxProblemAt(r)) return undefined;
    const text = csv.text;
    const start = csv.recordStart(r);
    const next = r + 1 < csv.recordCount ? csv.recordStart(r + 1) : text.length;
    const quote = text.indexOf(QUOTE, start);
    if (quote !== -1 && quote < next) {
      const values = csv.record(r).values;
      if (values.length !== this.width) return undefined;
      for (let k = 0; k < wanted.length; k++) out[k] = wanted[k] < 0 ? '' : values[wanted[k]];
      return out;
    }
    let end = next;
    if (end > start && text.charCodeAt(end - 1) === 10) end--;
    if (end > start && text.charCodeAt(end - 1) === 13) end--;
    out.fill('');
    const d = csv.delimiter;
    let field = 0;
    let from = start;
    for (;;) {
      const at = text.indexOf(d, from);
      const to = at === -1 || at >= end ? end : at;
      if (field < this.width) {
        const slot = this.slotOf[field];
        if (slot >= 0) out[slot] = text.slice(from, to);
      }
      field++;
      if (to === end) break;
      from = to + 1;
    }
    return field === this.width ? out : undefined;
  }
}
