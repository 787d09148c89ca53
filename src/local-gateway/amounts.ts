// The amount the local gateway charges, as integer thousandths (the rule book's decimals, read by the one
// amount module, core/amounts.ts): floating point would turn 0.1 + 0.2 into a report line nobody can
// reconcile.

import { createHash } from 'node:crypto';
import { thousandthsOf } from '../core/amounts';
import type { ChargeAmount } from '../core/schedule/schedule';

/**
 * A random amount must be the same every time the same charge is replayed (state reloads, tests), so it
 * comes from a hash of the payment id and charge index rather than Math.random.
 */
function unitInterval(seed: string): number {
  const h = createHash('sha256').update(seed).digest();
  return h.readUInt32BE(0) / 0x1_0000_0000;
}

/** The amount actually charged, in thousandths; a range gives whole cents within it when it holds any. */
export function chargedAmount(amount: ChargeAmount, seed: string): number {
  switch (amount.kind) {
    case 'fixed':
      return thousandthsOf(amount.value) ?? 0;
    case 'range': {
      const from = thousandthsOf(amount.from) ?? 0;
      const to = thousandthsOf(amount.to) ?? from;
      if (to <= from) return from;
      const lowCent = Math.ceil(from / 10);
      const highCent = Math.floor(to / 10);
      const r = unitInterval(seed);
      if (highCent >= lowCent) return (lowCent + Math.floor(r * (highCent - lowCent + 1))) * 10;
      return from + Math.floor(r * (to - from + 1));
    }
    case 'none':
      return 0;
  }
}
