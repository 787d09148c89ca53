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
  /** The row hash (rowKeys.ts), in rows recorded since issue 40: after the values, when there is one. */
  r?: string;
}

/** The row hash's field: it follows the others in the lines that have one. */
const ROW_HASH_FIELD = 'r' satisfies keyof RowLine;
/** The fields every row line has. */
type Fixed = Exclude<keyof RowLine, typeof ROW_HASH_FIELD>;

/** The row line's fields in the order they are written, and whether each is a JSON string or an integer. */
const FIELDS = [
  ['k', 'string'],
  ['o', 'string'],
  ['l', 'integer'],
  ['f', 'string'],
  ['v', 'string'],
] as const satisfies readonly (readonly [Fixed, 'string' | 'integer'])[];

/** A row's line as recordBatchRows writes it (no line break). */
export function rowLineText(r: RowKey): string {
  return JSON.stringify({ k: r.key, o: r.orderId, l: r.line, f: r.fingerprint, v: r.values, r: r.row } satisfies RowLine);
}

/** The row a parsed row line holds. */
export function rowKeyOfLine(r: RowLine): RowKey {
  const row: RowKey = { key: r.k, orderId: r.o, line: r.l, fingerprint: r.f, values: r.v };
  if (typeof r.r === 'string') row.row = r.r;
  return row;
}

/**
 * The bytes a row line of the usual shape holds around its values: `before[i]` is what comes before the
 * value of FIELDS[i] (with a string's opening quote), `end` what closes the line (a string's closing quote,
 * the brace). `{"k":"` · key · `","o":"` · id · `","l":` · line · `,"f":"` · fingerprint · `","v":"` · hashes
 * [· `","r":"` · row hash] · `"}`: `row` is what comes before the row hash, in a line that has one.
 */
export const ROW_BYTES: { before: Record<Fixed, Buffer>; row: Buffer; end: Buffer } = (() => {
  const before = {} as Record<Fixed, Buffer>;
  let closing = '';
  FIELDS.forEach(([name, kind], i) => {
    const quote = kind === 'string' ? '"' : '';
    before[name] = Buffer.from(`${closing}${i === 0 ? '{' : ','}"${name}":${quote}`, 'latin1');
    closing = quote;
  });
  return { before, row: Buffer.from(`${closing},"${ROW_HASH_FIELD}":"`, 'latin1'), end: Buffer.from(`${closing}}`, 'latin1') };
})();

/** A JSON string as JSON.stringify writes one (no control character raw, only JSON's escapes). */
const STRING = String.raw`"(?:[^"\\\u0000-\u001f]|\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4}))*"`;

/** A field's value in ROW_LINE: the fingerprint captured (hex), another string or an integer as JSON writes them. */
function valuePattern(name: Fixed, kind: 'string' | 'integer'): string {
  if (name === 'f') return '"([0-9a-f]*)"';
  return kind === 'string' ? STRING : String.raw`-?\d+`;
}

/**
 * A row line of the usual shape, its fingerprint (`f`, hex) captured: a line of this shape is valid JSON,
 * so it need not be parsed to know the file reads.
 */
export const ROW_LINE = new RegExp(
  `^\\{${FIELDS.map(([name, kind]) => `"${name}":${valuePattern(name, kind)}`).join(',')}(?:,"${ROW_HASH_FIELD}":"[0-9a-f]*")?\\}$`,
);
