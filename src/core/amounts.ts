// The product's one amount module: an amount's text read as an exact decimal, a currency's digits, sums
// and formatting. Money is never floating point here: 0.1 + 0.2 would make a report line nobody can
// reconcile. Every face reads amounts through this file (the rule book's decimals, a report's Amount,
// the forecast's and the query's sums), so "an amount" is read by one documented rule:
//
//   optional sign, digits, optionally a dot and digits; spaces around it are ignored.
//
// Nothing else is guessed: `1,000` (a thousands separator or a decimal comma?), `1e3`, `0x10`, `.5`,
// `5.` and `1 000` are not amounts. A caller that meets one says so ("amount unreadable"), never zero.

/** An exact decimal: `units` × 10^-`scale` (`12.500` is 12500n at scale 3). */
export interface Amount {
  readonly units: bigint;
  readonly scale: number;
}

const AMOUNT = /^\s*([+-]?)(\d+)(?:\.(\d+))?\s*$/;

/** The amount a text holds, or undefined when it is no amount by the rule above. */
export function parseAmount(text: string): Amount | undefined {
  const m = AMOUNT.exec(text);
  if (!m) return undefined;
  const fraction = m[3] ?? '';
  const units = BigInt(m[2] + fraction);
  return { units: m[1] === '-' ? -units : units, scale: fraction.length };
}

/** The amount in units of 10^-scale, when that is exact (`12.5` at scale 3 is 12500n; `12.5` at 0 is none). */
export function unitsAt(amount: Amount, scale: number): bigint | undefined {
  if (scale >= amount.scale) return amount.units * 10n ** BigInt(scale - amount.scale);
  const divisor = 10n ** BigInt(amount.scale - scale);
  return amount.units % divisor === 0n ? amount.units / divisor : undefined;
}

/** -1, 0 or 1: the two amounts compared exactly (`29.90` equals `29.900`). */
export function compareAmounts(a: Amount, b: Amount): -1 | 0 | 1 {
  const scale = Math.max(a.scale, b.scale);
  const x = unitsAt(a, scale)!;
  const y = unitsAt(b, scale)!;
  if (x === y) return 0;
  return x < y ? -1 : 1;
}

/** The exact sum, at the larger scale of the two. */
export function addAmounts(a: Amount, b: Amount): Amount {
  const scale = Math.max(a.scale, b.scale);
  return { units: unitsAt(a, scale)! + unitsAt(b, scale)!, scale };
}

export const ZERO: Amount = { units: 0n, scale: 0 };

/**
 * `sum` divided by `count` (> 0) at `scale` decimals, rounded half to even: the rounding of Python's
 * Decimal and of IEEE 754's default, so an average is the same whichever tool a person checks it with.
 */
export function averageAmount(sum: Amount, count: number | bigint, scale: number): Amount {
  const n = BigInt(count);
  if (n <= 0n) throw new RangeError('averageAmount: count must be positive');
  // units at `scale` = sum.units * 10^scale / (10^sum.scale * n), done in integers.
  const up = BigInt(Math.max(0, scale - sum.scale));
  const down = BigInt(Math.max(0, sum.scale - scale));
  const numerator = sum.units * 10n ** up;
  const denominator = n * 10n ** down;
  const negative = numerator < 0n;
  const abs = negative ? -numerator : numerator;
  let quotient = abs / denominator;
  const twice = (abs % denominator) * 2n;
  if (twice > denominator || (twice === denominator && quotient % 2n === 1n)) quotient += 1n;
  return { units: negative ? -quotient : quotient, scale };
}

/** The amount written with exactly `scale` decimals (more shown only when cutting would change it). */
export function formatAmount(amount: Amount, scale = amount.scale): string {
  const exact = unitsAt(amount, scale);
  const [units, shownScale] = exact === undefined ? [amount.units, amount.scale] : [exact, scale];
  const negative = units < 0n;
  const digits = (negative ? -units : units).toString().padStart(shownScale + 1, '0');
  const whole = digits.slice(0, digits.length - shownScale);
  const fraction = shownScale > 0 ? `.${digits.slice(digits.length - shownScale)}` : '';
  return `${negative ? '-' : ''}${whole}${fraction}`;
}

const currencyDigitsCache = new Map<string, number | undefined>();

/** The currency's decimal digits (EUR 2, JPY 0, BHD 3) from the runtime's ISO 4217 data; undefined when unknown. */
export function currencyDigits(currency: string): number | undefined {
  const code = currency.trim();
  if (!currencyDigitsCache.has(code)) {
    let digits: number | undefined;
    // Only real codes: Intl accepts any three letters and answers 2 for those it does not know.
    if (/^[A-Z]{3}$/.test(code) && Intl.supportedValuesOf('currency').includes(code)) {
      digits = new Intl.NumberFormat('en', { style: 'currency', currency: code }).resolvedOptions().maximumFractionDigits;
    }
    currencyDigitsCache.set(code, digits);
  }
  return currencyDigitsCache.get(code);
}

/**
 * An amount as a person reads it: in its currency's own digits (`29.900` EUR is `29.90`, `1000.000` JPY
 * is `1000`). Only zeros are dropped; a value with a non-zero digit beyond them, an unknown currency or
 * a text that is no amount is shown as it came.
 */
export function amountForDisplay(text: string, currency: string): string {
  const amount = parseAmount(text);
  const digits = amount && currencyDigits(currency);
  if (amount === undefined || digits === undefined || unitsAt(amount, digits) === undefined) return text;
  return formatAmount(amount, digits);
}

// The rule book's decimal (amount, amount-from, amount-to, each of amount-sequence): digits, optionally a
// dot and one to three digits, greater than zero, so every such amount is a whole number of thousandths.
// Read in place (a text and a span, no slice) because the linter and the forecast read one in every
// amount cell of a 100k-row batch; the same two functions serve a whole text.

/** Decimals of the rule book's amounts: whole thousandths. */
export const THOUSANDTHS_SCALE = 3;

/** Is `s[from, to)` the rule book's decimal (digits, optionally `.` and 1–3 digits, greater than 0)? */
export function isRuleBookDecimalIn(s: string, from: number, to: number): boolean {
  let dot = -1;
  let nonZero = false;
  for (let i = from; i < to; i++) {
    const c = s.charCodeAt(i);
    if (c === 46 /* . */) {
      if (dot !== -1 || i === from) return false;
      dot = i;
    } else if (c < 48 || c > 57) {
      return false;
    } else if (c !== 48) {
      nonZero = true;
    }
  }
  if (to === from) return false;
  if (dot !== -1 && (to - dot - 1 < 1 || to - dot - 1 > THOUSANDTHS_SCALE)) return false;
  return nonZero;
}

/** Is the text the rule book's decimal? */
export const isRuleBookDecimal = (text: string): boolean => isRuleBookDecimalIn(text, 0, text.length);

/**
 * The rule book's decimal `s[from, to)` (already checked) in thousandths. Exact, and so ordered as the
 * amounts are, for up to 15 digits: the rule book's amounts are at most 10 characters.
 */
export function thousandthsIn(s: string, from: number, to: number): number {
  let n = 0;
  let fraction = -1; // digits after the dot, -1 before it
  for (let i = from; i < to; i++) {
    const c = s.charCodeAt(i);
    if (c === 46 /* . */) fraction = 0;
    else {
      n = n * 10 + c - 48;
      if (fraction >= 0) fraction++;
    }
  }
  return n * 10 ** (THOUSANDTHS_SCALE - Math.max(fraction, 0));
}

/** The text in thousandths when it is the rule book's decimal and exact as a number; undefined otherwise. */
export function thousandthsOf(text: string): number | undefined {
  if (!isRuleBookDecimal(text)) return undefined;
  const n = thousandthsIn(text, 0, text.length);
  return Number.isSafeInteger(n) ? n : undefined;
}

/** Decimals an amount's text is written with (`12.5` has 1, `12` has 0). */
export function decimalsOf(text: string): number {
  const dot = text.indexOf('.');
  return dot < 0 ? 0 : text.length - dot - 1;
}

/** Thousandths written with `decimals` (at most 3) places, cut, not rounded: 12500 → `12.50` at 2. */
export function formatThousandths(value: bigint | number, decimals: number = THOUSANDTHS_SCALE): string {
  const text = formatAmount({ units: BigInt(value), scale: THOUSANDTHS_SCALE });
  return decimals >= THOUSANDTHS_SCALE ? text : text.slice(0, text.length - (THOUSANDTHS_SCALE - decimals) - (decimals === 0 ? 1 : 0));
}

/** The exact sum of amounts' texts, written with the most decimals any of them has; undefined when one is no amount. */
export function sumAmountTexts(texts: readonly string[]): string | undefined {
  let sum = ZERO;
  for (const text of texts) {
    const amount = parseAmount(text);
    if (amount === undefined) return undefined;
    sum = addAmounts(sum, amount);
  }
  return formatAmount(sum);
}
