// The Luhn check (ISO/IEC 7812-1, annex B), once: the linter's card-luhn warning (rules/crossFields.ts)
// and the output boundary's card-number detection (output/cardNumbers.ts, over digits folded to ASCII
// from any script) both ask it of ASCII digits in place.
import { FNV_OFFSET, fnvMix } from './fnv';

/** Luhn check of the ASCII digits `s[from, to)`. */
export const luhnValidIn = (s: string, from: number, to: number): boolean => !Number.isNaN(luhnHashIn(s, from, to));

/**
 * The Luhn check and the FNV-1a hash of the characters `s[from, to)`, read once from the last (what
 * card-data-in-git looks its published test numbers up by): the hash, or NaN when a character is not an
 * ASCII digit or the check fails. The linter's card-luhn asks it, and card-data-in-git reads the answer
 * of the same row's cell instead of reading the digits again.
 */
export function luhnHashIn(s: string, from: number, to: number): number {
  let sum = 0;
  let double = false;
  let h = FNV_OFFSET;
  for (let i = to - 1; i >= from; i--) {
    const c = s.charCodeAt(i);
    if (c < 48 || c > 57) return NaN;
    let d = c - 48;
    if (double) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
    double = !double;
    h = fnvMix(h, c);
  }
  return sum % 10 === 0 ? h : NaN;
}
