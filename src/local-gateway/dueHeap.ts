// The next charge of each active payment, earliest first: what an advance takes charges from, one at a
// time, so its memory is one entry per payment however many charges it makes.

import { compareDates } from '../core/dates';
import type { Charge } from '../core/schedule/schedule';
import type { StoredPayment } from './types';

export type Due = { p: StoredPayment; order: number; c: Charge };

function before(a: Due, b: Due): boolean {
  const d = compareDates(a.c.date, b.c.date);
  if (d !== 0) return d < 0;
  return a.order !== b.order ? a.order < b.order : a.c.index < b.c.index;
}

/** A binary min-heap of each active payment's next charge: memory is one entry per payment, not per charge. */
export class DueHeap {
  private readonly items: Due[] = [];
  get size(): number {
    return this.items.length;
  }
  peek(): Due | undefined {
    return this.items[0];
  }
  push(x: Due): void {
    const a = this.items;
    a.push(x);
    for (let i = a.length - 1; i > 0;) {
      const parent = (i - 1) >> 1;
      if (!before(a[i], a[parent])) break;
      [a[i], a[parent]] = [a[parent], a[i]];
      i = parent;
    }
  }
  pop(): Due | undefined {
    const a = this.items;
    const top = a[0];
    const last = a.pop();
    if (a.length > 0 && last) {
      a[0] = last;
      for (let i = 0; ;) {
        const l = 2 * i + 1;
        const r = l + 1;
        let m = i;
        if (l < a.length && before(a[l], a[m])) m = l;
        if (r < a.length && before(a[r], a[m])) m = r;
        if (m === i) break;
        [a[i], a[m]] = [a[m], a[i]];
        i = m;
      }
    }
    return top;
  }
}
