// Reads just the schedule columns of a record: the record is walked with indexOf and only the wanted
// fields are cut; the core's tokenizer, which cuts and unquotes every field, reads a record only when a
// wanted field is quoted. The forecast reads 100k rows after each edit, and cutting 29 fields per row to
// keep 11 was most of its time (and of its garbage).

import type { ParsedCsv } from '../csv/parse';

const QUOTE = '"';
const QUOTE_CODE = 34;
const LF = 10;
const CR = 13;

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
    const { csv, out } = this;
    if (csv.syntaxProblemAt(r)) return undefined;
    const text = csv.text;
    const start = csv.recordStart(r);
    let end = r + 1 < csv.recordCount ? csv.recordStart(r + 1) : text.length;
    if (end > start && text.charCodeAt(end - 1) === LF) end--;
    if (end > start && text.charCodeAt(end - 1) === CR) end--;
    out.fill('');
    const d = csv.delimiter;
    let field = 0;
    let from = start;
    for (;;) {
      const slot = field < this.width ? this.slotOf[field] : -1;
      let searchFrom = from;
      if (text.charCodeAt(from) === QUOTE_CODE) {
        // A quoted field we want needs unquoting: the tokenizer reads that record. One we skip (a quoted
        // order_desc) is stepped over: its closing quote is the first one not doubled.
        if (slot >= 0) return this.tokenized(r);
        let q = text.indexOf(QUOTE, from + 1);
        while (q !== -1 && text.charCodeAt(q + 1) === QUOTE_CODE) q = text.indexOf(QUOTE, q + 2);
        if (q === -1 || q >= end) return this.tokenized(r);
        searchFrom = q + 1;
      }
      const at = text.indexOf(d, searchFrom);
      const to = at === -1 || at >= end ? end : at;
      if (slot >= 0) out[slot] = text.slice(from, to);
      field++;
      if (to === end) break;
      from = to + 1;
    }
    return field === this.width ? out : undefined;
  }

  /** The general way, through the core's tokenizer (every field cut and unquoted). */
  private tokenized(r: number): string[] | undefined {
    const { out, wanted } = this;
    const values = this.csv.record(r).values;
    if (values.length !== this.width) return undefined;
    for (let k = 0; k < wanted.length; k++) out[k] = wanted[k] < 0 ? '' : values[wanted[k]];
    return out;
  }
}
