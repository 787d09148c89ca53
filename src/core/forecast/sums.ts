// Money in the forecast is summed as whole thousandths (the rule book's amounts have at most 3 decimals;
// core/amounts.ts reads and writes them), never as floating point. A sum is kept as a safe integer and
// folded into a BigInt before it could lose a unit, so 36 million charges of 9,999,999,999.999 still add
// up to the cent.

/** Amounts are at most 10 characters (the rule book's max length), so one is below 10^13 thousandths. */
export const MAX_AMOUNT_LENGTH = 10;
const FOLD_AT = 2 ** 52;

/** Many sums side by side (one per bucket): a Float64Array of exact small parts and BigInt carries. */
export class Sums {
  private readonly low: Float64Array;
  private readonly high: bigint[];

  constructor(readonly size: number) {
    this.low = new Float64Array(size);
    this.high = new Array<bigint>(size).fill(0n);
  }

  add(i: number, amount: number): void {
    const v = this.low[i] + amount;
    if (v >= FOLD_AT) {
      this.high[i] += BigInt(v);
      this.low[i] = 0;
    } else this.low[i] = v;
  }

  get(i: number): bigint {
    return this.high[i] + BigInt(this.low[i]);
  }
}
