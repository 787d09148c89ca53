import type { RowKey } from './rowKeys';

// The layout of a sent batch's row records (batches/<ab>/<content hash>.jsonl: batchRows.ts), spelled once
// here: a header line, then one JSON object a row whose fields come in this order, as JSON.stringify writes
// them. The writer (recordBatchRows), the strict regex that tells a line of the usual shape without parsing
// it (readPayerRows) and the byte literals the compact reader steps over (sentTable.ts) are all built from
// FIELDS below, so the three can never disagree about a field's name, order or kind.

export interface HeaderLine {
  rows: 1;
  columns: string[];
}

export interface RowLine {
  k: string;
  o: string;
  l: number;
  f: string;
  v: string;
}

/** The row line's fields in the order they are written, and whether each is a JSON string or an integer. */
const FIELDS = [
  ['k', 'string'],
  ['o', 'string'],
  ['l', 'integer'],
  ['f', 'string'],
  ['v', 'string'],
] as const satisfies readonly (readonly [keyof RowLine, 'string' | 'integer'])[];

/** A row's line as recordBatchRows writes it (no line break). */
export function rowLineText(r: RowKey): string {
  return JSON.stringify({ k: r.key, o: r.orderId, l: r.line, f: r.fingerprint, v: r.values } satisfies RowLine);
}

/** The row a parsed row line holds. */
export function rowKeyOfLine(r: RowLine): RowKey {
  return { key: r.k, orderId: r.o, line: r.l, fingerprint: r.f, values: r.v };
}

/**
 * The bytes a row line of the usual shape holds around its values: `before[i]` is what comes before the
 * value of FIELDS[i] (with a string's opening quote), `end` what closes the line (a string's closing quote,
 * the brace). `{"k":"` · key · `","o":"` · id · `","l":` · line · `,"f":"` · fingerprint · `","v":"` · hashes · `"}`.
 */
export const ROW_BYTES: { before: Record<keyof RowLine, Buffer>; end: Buffer } = (() => {
  const before = {} as Record<keyof RowLine, Buffer>;
  let closing = '';
  FIELDS.forEach(([name, kind], i) => {
    const quote = kind === 'string' ? '"' : '';
    before[name] = Buffer.from(`${closing}${i === 0 ? '{' : ','}"${name}":${quote}`, 'latin1');
    closing = quote;
  });
  return { before, end: Buffer.from(`${closing}}`, 'latin1') };
})();

/** A JSON string as JSON.stringify writes one (no control character raw, only JSON's escapes). */
const STRING = String.raw`"(?:[^"\\\u0000-\u001f]|\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4}))*"`;

/** A field's value in ROW_LINE: the fingerprint captured (hex), another string or an integer as JSON writes them. */
function valuePattern(name: keyof RowLine, kind: 'string' | 'integer'): string {
  if (name === 'f') return '"([0-9a-f]*)"';
  return kind === 'string' ? STRING : String.raw`-?\d+`;
}

/**
 * A row line of the usual shape, its fingerprint (`f`, hex) captured: a line of this shape is valid JSON,
 * so it need not be parsed to know the file reads.
 */
export const ROW_LINE = new RegExp(`^\\{${FIELDS.map(([name, kind]) => `"${name}":${valuePattern(name, kind)}`).join(',')}\\}$`);
