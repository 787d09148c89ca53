// The amounts of one column in one group: how many were read, their exact sum, the least and the most.
// Never floating point for money: the sum is kept in integers of 10^-scale per scale seen (a report's
// amounts mostly share one), in doubles while they stay exact (each amount below 10^15 units, each
// running sum below 2^52, so adding one more stays below 2^53) and moved into a BigInt before they could
// stop being exact. The rare amount of more than 15 digits switches the column's group to BigInt alone.

import { addAmounts, compareAmounts, ZERO, type Amount } from '../amounts';
import { decimal, decimalAmount, POW10 } from './cells';

/** Scales kept in doubles; an amount with more decimals goes the exact way. */
const FAST_SCALES = 8;
const LIMIT = 2 ** 52;

/** The sums of scales other than a group's first: rare (a report's amounts share one scale), so kept apart. */
interface OtherScales {
  fast: Float64Array;
  big: bigint[];
}

export class AmountAccumulator {
  /** Amounts read (the divisor of the average). */
  n = 0;
  /** Rows of the group whose amount could not be read (empty, or no amount). */
  skipped = 0;
  /** The largest scale read: amounts are shown with it. */
  scale = 0;
  /** The first scale read and its running sum (most groups see only this one: no array per group). */
  private scale0 = -1;
  private fast0 = 0;
  private big0 = 0n;
  private others: OtherScales | undefined;
  private exact: Amount | undefined;
  /** The least and most amounts: as doubles for comparing (exact below 16 digits) and as read. */
  private minValue = Infinity;
  private maxValue = -Infinity;
  private minUnits = 0;
  private minScale = 0;
  private maxUnits = 0;
  private maxScale = 0;
  /** Set once an amount of more than 15 digits was read: min and max are then compared exactly. */
  private minExact: Amount | undefined;
  private maxExact: Amount | undefined;
  private slow = false;

  /** `range`: keep the least and most amounts (only when min or max is asked for: it costs a division per row). */
  constructor(private readonly range = true) {}

  /** Adds the amount readDecimal just read (cells.ts `decimal`). */
  addRead(): void {
    this.n++;
    const units = decimal.units;
    const scale = decimal.scale;
    if (scale > this.scale) this.scale = scale;
    if (decimal.big !== null || scale >= FAST_SCALES || this.slow) return this.addSlow(decimalAmount());
    if (this.scale0 < 0) this.scale0 = scale;
    if (scale === this.scale0) {
      const s = this.fast0 + units;
      if (s > LIMIT || s < -LIMIT) {
        this.big0 += BigInt(s);
        this.fast0 = 0;
      } else this.fast0 = s;
    } else this.addOtherScale(units, scale);
    if (!this.range) return;
    const v = units / POW10[scale];
    if (v < this.minValue) {
      this.minValue = v;
      this.minUnits = units;
      this.minScale = scale;
    }
    if (v > this.maxValue) {
      this.maxValue = v;
      this.maxUnits = units;
      this.maxScale = scale;
    }
  }

  private addOtherScale(units: number, scale: number): void {
    const o = (this.others ??= { fast: new Float64Array(FAST_SCALES), big: new Array<bigint>(FAST_SCALES).fill(0n) });
    const s = o.fast[scale] + units;
    if (s > LIMIT || s < -LIMIT) {
      o.big[scale] += BigInt(s);
      o.fast[scale] = 0;
    } else o.fast[scale] = s;
  }

  private addSlow(amount: Amount): void {
    if (!this.slow) {
      // From now on min and max are kept exactly.
      this.slow = true;
      if (this.minValue !== Infinity) {
        this.minExact = { units: BigInt(this.minUnits), scale: this.minScale };
        this.maxExact = { units: BigInt(this.maxUnits), scale: this.maxScale };
      }
    }
    this.exact = this.exact === undefined ? amount : addAmounts(this.exact, amount);
    if (!this.range) return;
    if (this.minExact === undefined || compareAmounts(amount, this.minExact) < 0) this.minExact = amount;
    if (this.maxExact === undefined || compareAmounts(amount, this.maxExact) > 0) this.maxExact = amount;
  }

  /** The exact sum, or undefined when no amount was read. */
  sum(): Amount | undefined {
    if (this.n === 0) return undefined;
    let total = this.exact ?? ZERO;
    if (this.scale0 >= 0) total = addAmounts(total, { units: BigInt(this.fast0) + this.big0, scale: this.scale0 });
    const o = this.others;
    for (let s = 0; o && s < FAST_SCALES; s++) {
      const units = BigInt(o.fast[s]) + o.big[s];
      if (units !== 0n) total = addAmounts(total, { units, scale: s });
    }
    return total;
  }

  min(): Amount | undefined {
    if (!this.range) return undefined;
    if (this.slow) return this.minExact;
    return this.n === 0 ? undefined : { units: BigInt(this.minUnits), scale: this.minScale };
  }

  max(): Amount | undefined {
    if (!this.range) return undefined;
    if (this.slow) return this.maxExact;
    return this.n === 0 ? undefined : { units: BigInt(this.maxUnits), scale: this.maxScale };
  }

  /** Another accumulator's amounts added to these (the totals per currency of a query's groups). */
  merge(other: AmountAccumulator): void {
    this.skipped += other.skipped;
    const sum = other.sum();
    if (sum === undefined) return;
    const mine = this.sum();
    const myMin = this.min();
    const myMax = this.max();
    const theirMin = other.min();
    const theirMax = other.max();
    this.scale0 = -1;
    this.fast0 = 0;
    this.big0 = 0n;
    this.others = undefined;
    this.slow = true;
    this.exact = mine === undefined ? sum : addAmounts(mine, sum);
    if (theirMin !== undefined) this.minExact = myMin !== undefined && compareAmounts(myMin, theirMin) <= 0 ? myMin : theirMin;
    if (theirMax !== undefined) this.maxExact = myMax !== undefined && compareAmounts(myMax, theirMax) >= 0 ? myMax : theirMax;
    this.n += other.n;
    if (other.scale > this.scale) this.scale = other.scale;
  }
}
