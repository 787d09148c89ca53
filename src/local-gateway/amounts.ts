// Money as integer thousandths: the gateway's decimals have at most three fractional digits, and
// floating point would turn 0.1 + 0.2 into a report line nobody can reconcile.

import { createHash } from 'node:crypto';
import type { ChargeAmount } from '../core/schedule/schedule';

const DECIMAL = /^(\d+)(?:\.(\d{1,3}))?$/;

export function toThousandths(text: string): number | undefined {
  const m = DECIMAL.exec(text.trim());
  if (!m) return undefined;
  const n = Number(m[1]) * 1000 + Number((m[2] ?? '').padEnd(3, '0'));
  return Number.isSafeInteger(n) ? n : undefined;
}

/** Three fractional digits, as the gateway's sample report writes amounts. */
export function formatThousandths(n: number): string {
  return `${Math.floor(n / 1000)}.${String(n % 1000).padStart(3, '0')}`;
}

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
      return toThousandths(amount.value) ?? 0;
    case 'range': {
      const from = toThousandths(amount.from) ?? 0;
      const to = toThousandths(amount.to) ?? from;
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
