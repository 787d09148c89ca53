// The amounts of one amount column for every group of a query, column by column: typed arrays indexed by
// the group (its id, in order of first appearance), grown by doubling, instead of an accumulator object per
// group (a million groups were a million accumulators, and garbage collection a quarter of the run).
//
// A group's amounts stay here while they share one scale below 10^-8, each below 10^15 units and their
// running sum below 2^52: the sum in a double is then exact, as aggregate.ts keeps it. The first amount
// that is not so (another scale, more than 15 digits, a sum that would pass 2^52) moves the group, with what
// it had read, into an AmountAccumulator of its own, which reads it and every later one exactly: money is
// never a float that rounds.

import type { Amount } from '../amounts';
import { AmountAccumulator, FAST_SCALES, LIMIT, type AmountReading } from './aggregate';
import { decimal } from './cells';

/** `state`: no amount read yet; 1 + the scale of the group's amounts; or moved to an accumulator. */
const NONE = 0;
const MOVED = 255;

export class AmountColumn {
  /** Per group: NONE, 1 + its amounts' scale, or MOVED. */
  private state: Uint8Array;
  private n: Uint32Array;
  private skips: Uint32Array;
  /** The sum in units of the group's scale, and (when min or max is asked for) the least and most. */
  private sums: Float64Array;
  private least: Float64Array | undefined;
  private most: Float64Array | undefined;
  private readonly moved = new Map<number, AmountAccumulator>();

  /** `range`: keep the least and most amounts (only when min or max is asked for). */
  constructor(
    private readonly range: boolean,
    capacity: number,
  ) {
    this.state = new Uint8Array(capacity);
    this.n = new Uint32Array(capacity);
    this.skips = new Uint32Array(capacity);
    this.sums = new Float64Array(capacity);
    this.least = range ? new Float64Array(capacity) : undefined;
    this.most = range ? new Float64Array(capacity) : undefined;
  }

  /** Room for `capacity` groups, what was kept copied. */
  grow(capacity: number): void {
    const more = <T extends Uint8Array | Uint32Array | Float64Array>(a: T, make: (n: number) => T): T => {
      const b = make(capacity);
      b.set(a);
      return b;
    };
    this.state = more(this.state, (n) => new Uint8Array(n));
    this.n = more(this.n, (n) => new Uint32Array(n));
    this.skips = more(this.skips, (n) => new Uint32Array(n));
    this.sums = more(this.sums, (n) => new Float64Array(n));
    if (this.least) this.least = more(this.least, (n) => new Float64Array(n));
    if (this.most) this.most = more(this.most, (n) => new Float64Array(n));
  }

  /** Adds to group g the amount readDecimal just read (cells.ts `decimal`). */
  addRead(g: number): void {
    const state = this.state[g];
    if (state === MOVED) return this.moved.get(g)!.addRead();
    const units = decimal.units;
    const scale = decimal.scale;
    const sum = this.sums[g] + units;
    if (decimal.big !== null || scale >= FAST_SCALES || (state !== NONE && state !== scale + 1) || sum > LIMIT || sum < -LIMIT) {
      return this.move(g).addRead();
    }
    this.n[g]++;
    this.sums[g] = sum;
    const least = this.least;
    const most = this.most;
    if (state === NONE) {
      this.state[g] = scale + 1;
      if (least && most) least[g] = most[g] = units;
    } else if (least && most) {
      if (units < least[g]) least[g] = units;
      if (units > most[g]) most[g] = units;
    }
  }

  /** A row of group g whose amount could not be read. */
  skip(g: number): void {
    this.skips[g]++;
  }

  /** Group g's amounts from now on in an accumulator of its own, started with what it read so far. */
  private move(g: number): AmountAccumulator {
    const acc = new AmountAccumulator(this.range);
    const state = this.state[g];
    if (state !== NONE) acc.seed(this.n[g], state - 1, this.sums[g], this.least?.[g], this.most?.[g]);
    this.state[g] = MOVED;
    this.moved.set(g, acc);
    return acc;
  }

  count(g: number): number {
    return this.state[g] === MOVED ? this.moved.get(g)!.n : this.n[g];
  }

  skipped(g: number): number {
    return this.skips[g];
  }

  /** The largest scale read in group g (0 when none). */
  scale(g: number): number {
    const state = this.state[g];
    if (state === MOVED) return this.moved.get(g)!.scale;
    return state === NONE ? 0 : state - 1;
  }

  /** The largest scale read in the first `groups` groups. */
  maxScale(groups: number): number {
    let most = 0;
    for (let g = 0; g < groups; g++) {
      const scale = this.scale(g);
      if (scale > most) most = scale;
    }
    return most;
  }

  /** Group g's exact sum, or undefined when no amount was read. */
  sum(g: number): Amount | undefined {
    const state = this.state[g];
    if (state === MOVED) return this.moved.get(g)!.sum();
    return state === NONE ? undefined : { units: BigInt(this.sums[g]), scale: state - 1 };
  }

  min(g: number): Amount | undefined {
    const state = this.state[g];
    if (state === MOVED) return this.moved.get(g)!.min();
    return state === NONE || !this.least ? undefined : { units: BigInt(this.least[g]), scale: state - 1 };
  }

  max(g: number): Amount | undefined {
    const state = this.state[g];
    if (state === MOVED) return this.moved.get(g)!.max();
    return state === NONE || !this.most ? undefined : { units: BigInt(this.most[g]), scale: state - 1 };
  }

  /** Group g's amounts added to `total` (the totals per currency and kind). */
  mergeInto(g: number, total: AmountAccumulator): void {
    total.skipped += this.skips[g];
    const state = this.state[g];
    if (state === MOVED) total.merge(this.moved.get(g)!);
    else if (state !== NONE) total.addPart(this.n[g], state - 1, this.sums[g], this.least?.[g], this.most?.[g]);
  }

  /** Group g's amounts as one reading (aggregateText's): a small view, nothing copied. */
  at(g: number): AmountReading {
    return new AmountAt(this, g);
  }
}

class AmountAt implements AmountReading {
  constructor(
    private readonly column: AmountColumn,
    private readonly g: number,
  ) {}

  get n(): number {
    return this.column.count(this.g);
  }

  get skipped(): number {
    return this.column.skipped(this.g);
  }

  get scale(): number {
    return this.column.scale(this.g);
  }

  sum(): Amount | undefined {
    return this.column.sum(this.g);
  }

  min(): Amount | undefined {
    return this.column.min(this.g);
  }

  max(): Amount | undefined {
    return this.column.max(this.g);
  }
}
