// Money in the forecast is summed as whole thousandths (the rule book's amounts have at most 3 decimals),
// never as floating point. A sum is kept as a safe integer and folded into a BigInt before it could lose
// a unit, so 36 million charges of 9,999,999,999.999 still add up to the cent.

/** Amounts are at most 10 characters (the rule book's max length), so one is below 10^13 thousandths. */
export const MAX_AMOUNT_LENGTH = 10;
const FOLD_AT = 2 ** 52;

/** "12.5" → 12500. The text has already passed isScheduleDecimal and the length check. */
export function thousandths(text: string): number {
  const dot = text.indexOf('.');
  if (dot < 0) return Number(text) * 1000;
  const fraction = text.slice(dot + 1).padEnd(3, '0');
  return Number(text.slice(0, dot) || '0') * 1000 + Number(fraction);
}

/** Decimals an amount is written with (0-3). */
export function decimalsOf(text: string): number {
  const dot = text.indexOf('.');
  return dot < 0 ? 0 : text.length - dot - 1;
}

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

/** Thousandths as a decimal string with `decimals` (2 or 3) places: 12500n → "12.50". */
export function formatThousandths(value: bigint, decimals: number): string {
  const negative = value < 0n;
  const abs = negative ? -value : value;
  const whole = abs / 1000n;
  const fraction = String(abs % 1000n).padStart(3, '0');
  return `${negative ? '-' : ''}${whole}.${fraction.slice(0, decimals)}`;
}
