// The order people read a query's groups in: by their key, column by column, numbers as numbers. Numbers
// come first, in order (a value of at most 15 digits compared as a double, which keeps its order exactly,
// a longer one as the exact decimal), then text in code-unit order; equal numbers written differently
// (12.5, 12.50) by their text: one total order however the two mix.
//
// Each column's distinct values are ranked once, where the run interned them (a million groups by an id
// per row rank a million values, not sort a million keys with a comparison of texts), then the groups are
// put in order of those ranks by a counting sort per column, from the last to the first: linear in the
// groups, with no object per group made for it.

import { compareAmounts, parseAmount, type Amount } from '../amounts';
import { decimal, POW10, readDecimal } from './cells';

const textOrder = (a: string, b: string) => Number(a > b) - Number(a < b);

/** How a value compares: as a double, as an exact decimal (more than 15 digits), or as text. */
const AS_DOUBLE = 0;
const AS_EXACT = 1;
const AS_TEXT = 2;

/** The rank of each of `values` (distinct texts) in the order above: rank[i] is values[i]'s place. */
export function rankValues(values: readonly string[]): Int32Array {
  const n = values.length;
  const how = new Uint8Array(n);
  const double = new Float64Array(n);
  const exact: (Amount | undefined)[] = [];
  for (let i = 0; i < n; i++) {
    const text = values[i];
    if (readDecimal(text, 0, text.length) && decimal.big === null) {
      how[i] = AS_DOUBLE;
      double[i] = decimal.units / POW10[decimal.scale];
      continue;
    }
    const amount = parseAmount(text);
    how[i] = amount === undefined ? AS_TEXT : AS_EXACT;
    exact[i] = amount;
  }
  const amountOf = (i: number): Amount => (how[i] === AS_EXACT ? exact[i]! : parseAmount(values[i])!);
  const order = new Int32Array(n);
  for (let i = 0; i < n; i++) order[i] = i;
  order.sort((a, b) => {
    const ha = how[a];
    const hb = how[b];
    if (ha === AS_DOUBLE && hb === AS_DOUBLE) return double[a] - double[b] || textOrder(values[a], values[b]);
    if (ha !== AS_TEXT && hb !== AS_TEXT) return compareAmounts(amountOf(a), amountOf(b)) || textOrder(values[a], values[b]);
    if (ha !== AS_TEXT || hb !== AS_TEXT) return ha !== AS_TEXT ? -1 : 1;
    return textOrder(values[a], values[b]);
  });
  const rank = new Int32Array(n);
  for (let r = 0; r < n; r++) rank[order[r]] = r;
  return rank;
}

/**
 * The places 0…count-1 of `count` groups in order of their key: `ids[g * parts + j]` is group g's value
 * id in column j, `ranks[j]` that column's ranks (rankValues). A stable counting sort per column, the
 * last column first, so the first column decides, then the second among equals, and so on.
 */
export function orderByRanks(count: number, parts: number, ids: ArrayLike<number>, ranks: Int32Array[]): Int32Array {
  let order = new Int32Array(count);
  for (let g = 0; g < count; g++) order[g] = g;
  let next = new Int32Array(count);
  for (let j = parts - 1; j >= 0; j--) {
    const rank = ranks[j];
    const starts = new Int32Array(rank.length + 1);
    for (let g = 0; g < count; g++) starts[rank[ids[g * parts + j]] + 1]++;
    for (let r = 0; r < rank.length; r++) starts[r + 1] += starts[r];
    for (let k = 0; k < count; k++) {
      const g = order[k];
      next[starts[rank[ids[g * parts + j]]]++] = g;
    }
    [order, next] = [next, order];
  }
  return order;
}
