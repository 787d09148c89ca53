// A count as people read it in messages: 25,165,824. The same text as `n.toLocaleString('en-US')`, without
// Intl: its first use loads ICU's number formatting, about 13 ms of CPU time, which a `paygate lint` of a
// batch over the payload limit paid for one number in batch-too-large's message (issue 40).

/** `n` with its thousands grouped by commas, as toLocaleString('en-US') writes it. */
export function thousands(n: number): string {
  // Only whole numbers are written here; anything else (fractions, huge or not finite) as Intl writes it.
  if (!Number.isSafeInteger(n)) return n.toLocaleString('en-US');
  const digits = String(Math.abs(n));
  let out = digits.slice(0, digits.length % 3 || 3);
  for (let at = out.length; at < digits.length; at += 3) out += `,${digits.slice(at, at + 3)}`;
  return n < 0 || Object.is(n, -0) ? `-${out}` : out;
}
