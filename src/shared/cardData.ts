import { maskCardNumbers } from '../core/output';

// The page masks card data in what it parses itself (a CSV file or report streamed into the panel) with
// the product's one masking module; this is the page's only way to it. Card numbers are masked in the
// text of every chunk before it is parsed, whatever column they stand in (an id or a description that
// is a card number is still one); CVV columns are hidden by name in each row (rowMasker).
export { rowMasker } from '../core/output';

/** A trailing digit run longer than this is cut anyway: a card number is at most 19 digits and 18 separators. */
const MAX_CARRY = 4096;

const inRun = (c: number) => (c >= 48 && c <= 57) || c === 32 || c === 45 || c === 46; // digit, space, dash, dot

/**
 * Text that arrives in chunks, masked as a whole: each chunk is masked up to its last character that can
 * be no part of a card number, and the rest (a run of digits and separators that may go on in the next
 * chunk) waits for it. Masking keeps the length, so what the page counts and parses lines up with the
 * file.
 */
export class CardNumberStream {
  private carry = '';

  /** The masked text that is final so far. */
  push(text: string): string {
    const all = this.carry === '' ? text : this.carry + text;
    let cut = all.length;
    const floor = Math.max(0, all.length - MAX_CARRY);
    while (cut > floor && inRun(all.charCodeAt(cut - 1))) cut--;
    this.carry = all.slice(cut);
    return maskCardNumbers(cut === all.length ? all : all.slice(0, cut));
  }

  /** The end of the text: whatever waited, masked. */
  end(): string {
    const rest = maskCardNumbers(this.carry);
    this.carry = '';
    return rest;
  }
}
