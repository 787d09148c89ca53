import { compareAmounts, parseAmount } from '../amounts';

// Amounts compared exactly, whatever their decimals: "29.900" equals "29.90". Read by the one amount rule
// (core/amounts.ts): a text that is no amount compares equal to nothing.

export function sameAmount(a: string, b: string): boolean {
  const x = parseAmount(a);
  const y = parseAmount(b);
  return x !== undefined && y !== undefined && compareAmounts(x, y) === 0;
}

export function amountInRange(value: string, from: string, to: string): boolean {
  const v = parseAmount(value);
  const lo = parseAmount(from);
  const hi = parseAmount(to);
  return v !== undefined && lo !== undefined && hi !== undefined && compareAmounts(v, lo) >= 0 && compareAmounts(v, hi) <= 0;
}
