// The Luhn check (ISO/IEC 7812-1, annex B), once: the linter's card-luhn warning (rules/crossFields.ts)
// and the output boundary's card-number detection (output/cardNumbers.ts, over digits folded to ASCII
// from any script) both ask it of ASCII digits in place.

/** Luhn check of the ASCII digits `s[from, to)`. */
export function luhnValidIn(s: string, from: number, to: number): boolean {
  let sum = 0;
  let double = false;
  for (let i = to - 1; i >= from; i--) {
    let d = s.charCodeAt(i) - 48;
    if (double) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
    double = !double;
  }
  return sum % 10 === 0;
}
