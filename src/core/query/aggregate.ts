// The amounts of one column in one group: how many were read, their exact sum, the least and the most.
// Never floating point for money: the sum is kept in integers of 10^-scale per scale seen (a report's
// amounts mostly share one), in doubles while they stay exact (each amount below 10^15 units, each
// running sum below 2^52, so adding one more stays below 2^53) and moved into a BigInt before they could
// stop being exact. The rare amount of more than 15 digits switches the column's group to BigInt alone.

import { addAmounts, compareAmounts, ZERO, type Amount } from '../amounts';
import { decimal, decimalAmount, POW10 } from './cells';

/** Scales kept in doubles; an amount with more decimals goes the exact way (here and in amountColumn.ts). */
export const FAST_SCALES = 8;
/** The most a sum of units kept in a double may reach and stay exact. */
export const LIMIT = 2 ** 52;

/** The sums of scales other than a group's first: rare (a report's amounts share one scale), so kept apart. */
interface OtherScales {
  fast: Float64Array;
  big: bigint[];
}

/** The least and most amounts of a group, kept only when min or max is asked for (a group is smaller without). */
class Range {
  /** As doubles for comparing (exact below 16 digits), and as read. */
  minValue = Infinity;
  maxValue = -Infinity;
  minUnits = 0;
  minScale = 0;
  maxUnits = 0;
  maxScale = 0;
  /** Set once an amount of more than 15 digits was read: min and max are then compared exactly. */
  minExact: Amount | undefined;
  maxExact: Amount | undefined;

  add(units: number, scale: number): void {
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

  /** From now on, exactly (the first amount of more than 15 digits). */
  goExact(): void {
    if (this.minValue === Infinity) return;
    this.minExact = { units: BigInt(this.minUnits), scale: this.minScale };
    this.maxExact = { units: BigInt(this.maxUnits), scale: this.maxScale };
  }

  addExact(amount: Amount): void {
    if (this.minExact === undefined || compareAmounts(amount, this.minExact) < 0) this.minExact = amount;
    if (this.maxExact === undefined || compareAmounts(amount, this.maxExact) > 0) this.maxExact = amount;
  }

  min(slow: boolean): Amount | undefined {
    if (slow) return this.minExact;
    return this.minValue === Infinity ? undefined : { units: BigInt(this.minUnits), scale: this.minScale };
  }

  max(slow: boolean): Amount | undefined {
    if (slow) return this.maxExact;
    return this.maxValue === -Infinity ? undefined : { units: BigInt(this.maxUnits), scale: this.maxScale };
  }
}

/** One group's or total's amounts of one column, as they are shown: an accumulator, or a group's place in an AmountColumn. */
export interface AmountReading {
  /** Amounts read (the divisor of the average). */
  readonly n: number;
  /** Rows whose amount could not be read. */
  readonly skipped: number;
  /** The largest scale read. */
  readonly scale: number;
  /** The exact sum, or undefined when no amount was read. */
  sum(): Amount | undefined;
  min(): Amount | undefined;
  max(): Amount | undefined;
}

export class AmountAccumulator implements AmountReading {
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
  private slow = false;
  private readonly range: Range | undefined;

  /** `range`: keep the least and most amounts (only when min or max is asked for: it costs a division per row). */
  constructor(range = true) {
    this.range = range ? new Range() : undefined;
  }

  /** Adds the amount readDecimal just read (cells.ts `decimal`). */
  addRead(): void {
    this.n++;
    const units = decimal.units;
    const scale = decimal.scale;
    if (scale > this.scale) this.scale = scale;
    if (decimal.big !== null || scale >= FAST_SCALES || this.slow) return this.addSlow(decimalAmount());
    this.addUnits(units, scale);
    this.range?.add(units, scale);
  }

  /**
   * Starts from amounts kept elsewhere (amountColumn.ts): `n` amounts of one scale below FAST_SCALES, their
   * sum in `units` (below 2^52), and the least and most of them in units (when kept).
   */
  seed(n: number, scale: number, units: number, least: number | undefined, most: number | undefined): void {
    this.n = n;
    this.scale = scale;
    this.scale0 = scale;
    this.fast0 = units;
    if (least !== undefined && most !== undefined) {
      this.range?.add(least, scale);
      this.range?.add(most, scale);
    }
  }

  /**
   * A group's amounts added at once (the totals, from an AmountColumn): `n` amounts of `scale` (below
   * FAST_SCALES) summing to `units` (below 2^52, so one addition stays exact), the least and most in units.
   */
  addPart(n: number, scale: number, units: number, least: number | undefined, most: number | undefined): void {
    this.n += n;
    if (scale > this.scale) this.scale = scale;
    const ranged = least !== undefined && most !== undefined;
    if (this.slow) {
      const amount = { units: BigInt(units), scale };
      this.exact = this.exact === undefined ? amount : addAmounts(this.exact, amount);
      if (ranged) {
        this.range?.addExact({ units: BigInt(least), scale });
        this.range?.addExact({ units: BigInt(most), scale });
      }
      return;
    }
    this.addUnits(units, scale);
    if (ranged) {
      this.range?.add(least, scale);
      this.range?.add(most, scale);
    }
  }

  /** Adds `units` of `scale` (below FAST_SCALES) to the running sums: the first scale's, or another's. */
  private addUnits(units: number, scale: number): void {
    if (this.scale0 < 0) this.scale0 = scale;
    if (scale === this.scale0) {
      const s = this.fast0 + units;
      if (s > LIMIT || s < -LIMIT) {
        this.big0 += BigInt(s);
        this.fast0 = 0;
      } else this.fast0 = s;
    } else this.addOtherScale(units, scale);
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
      this.slow = true;
      this.range?.goExact();
    }
    this.exact = this.exact === undefined ? amount : addAmounts(this.exact, amount);
    this.range?.addExact(amount);
  }

  /** The exact sum, or undefined when no amount was read. */
  sum(): Amount | undefined {
    if (this.n === 0) return undefined;
    const o = this.others;
    // The usual group: amounts of one scale, none of more than 15 digits.
    if (this.exact === undefined && o === undefined) return { units: BigInt(this.fast0) + this.big0, scale: this.scale0 };
    let total = this.exact ?? ZERO;
    if (this.scale0 >= 0) total = addAmounts(total, { units: BigInt(this.fast0) + this.big0, scale: this.scale0 });
    for (let s = 0; o && s < FAST_SCALES; s++) {
      const units = BigInt(o.fast[s]) + o.big[s];
      if (units !== 0n) total = addAmounts(total, { units, scale: s });
    }
    return total;
  }

  min(): Amount | undefined {
    return this.n === 0 ? undefined : this.range?.min(this.slow);
  }

  max(): Amount | undefined {
    return this.n === 0 ? undefined : this.range?.max(this.slow);
  }

  /** Another accumulator's amounts added to these (the totals per currency of a query's groups). */
  merge(other: AmountAccumulator): void {
    this.skipped += other.skipped;
    const sum = other.sum();
    if (sum === undefined) return;
    const mine = this.sum();
    const theirMin = other.min();
    const theirMax = other.max();
    if (!this.slow) {
      this.slow = true;
      this.range?.goExact();
    }
    this.scale0 = -1;
    this.fast0 = 0;
    this.big0 = 0n;
    this.others = undefined;
    this.exact = mine === undefined ? sum : addAmounts(mine, sum);
    if (theirMin !== undefined) this.range?.addExact(theirMin);
    if (theirMax !== undefined) this.range?.addExact(theirMax);
    this.n += other.n;
    if (other.scale > this.scale) this.scale = other.scale;
  }
}
