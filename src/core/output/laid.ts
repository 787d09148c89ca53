import { isSaid, saidText, type Said } from './said';
import type { Vetted } from './values';

// A layout built only from vetted values (./values.ts) and the product's own words carries that fact, so the
// last floor under a face (the CLI's every line, src/cli/boundary.ts) need not read it again: scanning a
// composed line costs 8–12 times what its values cost one by one (a date, a time and an id meet in a digit run
// the detection must read and cut), and is what made a date beside an amount look like a card number.
//
// The fact is carried twice. In the types: `Laid` is a branded string that only the builders here make, from
// `Vetted` values and literal words. At run time: the floor gets a plain string, so the text a face is about to
// write is vouched for (`vouched`) and the floor takes it back by content (`takeVouched`); a text with the same
// content is as safe, whoever holds it. What is not vouched for (unvetted text, a piece cut across a write, a
// vouch dropped because too many wait) is scanned whole as before: forgetting costs time, never safety.
//
// What the layout does not see: a card number split across two values (each value is checked alone, by the
// issue's rule that values meeting on a line are two values), and a CVV label written in our own words before
// a value (our words name no CVV).

declare const LAID: unique symbol;

/** Text laid out from vetted values and the product's own words. */
export type Laid = string & { readonly [LAID]: true };

/** A vetted value, a layout, or a `Said` (./said.ts: our words and typed values, each part checked alone here). */
type Part = Vetted | Laid | Said;

// A `Said` that is not one by its shape (a forged object) is shown as nothing rather than as its String().
function partText(p: Part): string {
  if (typeof p === 'string') return p;
  return isSaid(p) ? saidText(p) : '';
}

/** A line or lines from literal words and vetted values: laid`  added  ${vet.text(id)}  line ${vet.count(n)}\n`. */
export function laid(words: TemplateStringsArray, ...values: readonly Part[]): Laid {
  let out = words[0];
  for (let i = 0; i < values.length; i++) out += partText(values[i]) + words[i + 1];
  return out as Laid;
}

/** Parts joined by words of ours (`'  '`, `'\n'`). */
export function joinLaid(parts: readonly Part[], separator: string): Laid {
  return (parts.every((p) => typeof p === 'string') ? parts : parts.map(partText)).join(separator) as Laid;
}

const SURROGATE = /[\ud800-\udbff]/;
const codePoints = (s: string) => (SURROGATE.test(s) ? [...s].length : s.length);

/** A part padded with spaces to `width` characters (code points), at its end or (`start`) before it. */
export function padLaid(part: Vetted | Laid, width: number, side: 'end' | 'start' = 'end'): Laid {
  const n = width - codePoints(part);
  if (n <= 0) return part as string as Laid;
  return (side === 'end' ? part + ' '.repeat(n) : ' '.repeat(n) + part) as Laid;
}

/** A layout without its trailing whitespace (padding, an empty last cell). */
export const trimmedEnd = (text: Laid): Laid => text.trimEnd() as Laid;

/**
 * A part of a layout cut between two of its values (a JSON array's members without its brackets, CSV records
 * without their header): laid out too. The caller cuts only there.
 */
export const laidSlice = (text: Laid, start: number, end?: number): Laid => text.slice(start, end) as Laid;

/** Words of ours that hold no value at all (a heading, a rule of dashes). */
export const words = (text: string): Laid => text as Laid;

/** Texts vouched for and not yet taken by a floor; few wait at once (a face writes what it lays out). */
const VOUCHED = new Set<string>();
const MAX_WAITING = 64;

/** `text` as a plain string, vouched for: the next floor that meets this content lets it through unread. */
export function vouched(text: Laid): string {
  if (VOUCHED.size >= MAX_WAITING) VOUCHED.clear();
  VOUCHED.add(text);
  return text;
}

/** Whether `text` was vouched for (and is no longer: each vouch lets one write through). */
export function takeVouched(text: string): boolean {
  return VOUCHED.delete(text);
}
