// Amounts compared in minor units: "29.900" equals "29.90". The gateway writes at most three decimals;
// a report may write more, so values are scaled to six decimal places as whole numbers.

const DECIMAL = /^\s*(\d+)(?:[.,](\d+))?\s*$/;
const SCALE = 6;

/** The amount in millionths, or undefined when it is no plain decimal. */
export function minorUnits(text: string): bigint | undefined {
  const m = DECIMAL.exec(text);
  if (!m) return undefined;
  const frac = (m[2] ?? '').slice(0, SCALE).padEnd(SCALE, '0');
  return BigInt(m[1]) * 10n ** BigInt(SCALE) + BigInt(frac);
}

export function sameAmount(a: string, b: string): boolean {
  const x = minorUnits(a);
  const y = minorUnits(b);
  return x !== undefined && x === y;
}

export function amountInRange(value: string, from: string, to: string): boolean {
  const v = minorUnits(value);
  const lo = minorUnits(from);
  const hi = minorUnits(to);
  return v !== undefined && lo !== undefined && hi !== undefined && v >= lo && v <= hi;
}
