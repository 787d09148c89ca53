// How a column's values sort. The gateway's sample report has three shapes besides text: Amount with
// three decimals, Created_date as YYYY-MM-DD hh:mm:ss and Date_of_report as DD.MM.YYYY; comparing
// those as text puts 10.000 before 9.000 and 01.02.2026 before 31.01.2025.

export type ColumnKind = 'number' | 'datetime' | 'date-dmy' | 'text';

const NUMBER = /^\s*[-+]?(?:\d+(?:\.\d*)?|\.\d+)\s*$/;
const DATETIME = /^\s*(\d{4})-(\d{2})-(\d{2})(?:[ T](\d{2}):(\d{2})(?::(\d{2}))?)?\s*$/;
const DATE_DMY = /^\s*(\d{1,2})\.(\d{1,2})\.(\d{4})\s*$/;

/** A numeric key that orders like the value, or NaN when the value does not have the column's shape. */
export function sortKey(kind: ColumnKind, value: string): number {
  switch (kind) {
    case 'number':
      return NUMBER.test(value) ? Number(value) : NaN;
    case 'datetime': {
      const m = DATETIME.exec(value);
      if (!m) return NaN;
      // YYYYMMDDhhmmss as one number: at most ~1e14, exact in a double.
      return +m[1] * 1e10 + +m[2] * 1e8 + +m[3] * 1e6 + +(m[4] ?? 0) * 1e4 + +(m[5] ?? 0) * 100 + +(m[6] ?? 0);
    }
    case 'date-dmy': {
      const m = DATE_DMY.exec(value);
      return m ? +m[3] * 1e4 + +m[2] * 100 + +m[1] : NaN;
    }
    case 'text':
      return NaN;
  }
}

const SAMPLE = 2000;

/**
 * The kind every non-empty sampled value agrees on; text when they disagree or nothing is sampled.
 * Sampling is spread over the whole column so a report sorted by one shape at the top is not misread.
 */
export function detectKind(count: number, valueAt: (row: number) => string | undefined): ColumnKind {
  const candidates: ColumnKind[] = ['number', 'datetime', 'date-dmy'];
  const step = Math.max(1, Math.floor(count / SAMPLE));
  let seen = 0;
  for (let r = 0; r < count && candidates.length > 0; r += step) {
    const v = valueAt(r);
    if (v === undefined || v.trim() === '') continue;
    seen++;
    for (let i = candidates.length - 1; i >= 0; i--) {
      if (Number.isNaN(sortKey(candidates[i], v))) candidates.splice(i, 1);
    }
  }
  return seen > 0 && candidates.length > 0 ? candidates[0] : 'text';
}

export interface SortSpec {
  column: number;
  desc: boolean;
}

/**
 * Returns row indices in sorted order. Values that do not fit the column's shape (and empty cells)
 * go last in both directions, in their original order; ties keep their original order (stable).
 * `keys` is passed in so the caller can cache it per column.
 */
export function sortIndices(count: number, keys: Float64Array | readonly string[], desc: boolean): Uint32Array {
  const valid: number[] = [];
  const rest: number[] = [];
  if (keys instanceof Float64Array) {
    for (let i = 0; i < count; i++) (Number.isNaN(keys[i]) ? rest : valid).push(i);
  } else {
    for (let i = 0; i < count; i++) (keys[i] === '' ? rest : valid).push(i);
  }
  const order = Uint32Array.from(valid);
  const sign = desc ? -1 : 1;
  if (keys instanceof Float64Array) {
    order.sort((a, b) => sign * (keys[a] - keys[b]) || a - b);
  } else {
    order.sort((a, b) => {
      const x = keys[a];
      const y = keys[b];
      if (x < y) return -sign;
      return x > y ? sign : a - b;
    });
  }
  const out = new Uint32Array(count);
  out.set(order, 0);
  out.set(rest, order.length);
  return out;
}
