import { maskCardNumbers } from './cardNumbers';
import { hideCvvs } from './cvv';
import { terminalText } from './terminal';
import { vet, type Vetted } from './values';

// Mask values, not layouts, where the text is shown by another bundle or process (issue 38). The editor is
// several bundles (the extension's entry, its features, the language server, the pages: esbuild.js), each with
// its own copy of this module, so a vouch (./laid.ts) made in one is never seen by another's floor: the log
// the features write to is the entry's, a page's cell is shown by the page. A `Said` is therefore plain data,
// the same in every bundle and across postMessage and LSP: our words and each value with its type. Nothing is
// vouched and nothing is trusted: the floor that shows it (`saidText`, in whichever bundle) checks every part
// alone, by its type (a regular expression for a date, an amount, a count, a hash, an id; the whole scan for
// free text or a value that lacks its type's shape) and our words as text of their own. Two values meeting
// on the line are never read as one number, and a forged or stale `Said` is as safe as a checked one.
//
// What it does not see (as ./laid.ts): a card number split across two parts, and a CVV label in our words
// before a value.

/** The types a value is checked by (./values.ts). */
type PartKind = 'date' | 'amount' | 'count' | 'hash' | 'id' | 'text';

/** A value and its type; a third member shows only that many characters of it (a hash's prefix). */
export type Part = readonly [kind: PartKind, value: string] | readonly [kind: PartKind, value: string, shown: number];

/** A line (or lines) laid out from our words (strings) and typed values, as plain data. */
export interface Said {
  readonly said: readonly (string | Part)[];
}

/** Values by their type, as parts of a `Said`. */
export const typed = {
  /** A date or a date and time (`DD.MM.YYYY`, `YYYY-MM-DD`, ISO 8601 …). */
  date: (value: string): Part => ['date', value],
  /** A decimal amount (at most 12 digits before the point, 3 after). */
  amount: (value: string): Part => ['amount', value],
  /** A count, a line number, a size, a duration in whole units. */
  count: (value: number | string): Part => ['count', String(value)],
  /** A content hash or checksum (64, 40 or 32 hex); `shown`: only its first characters. */
  hash: (value: string, shown?: number): Part => (shown === undefined ? ['hash', value] : ['hash', value, shown]),
  /** An id of known form (a UUID, a 24-hex row key); `shown`: only its first characters. */
  id: (value: string, shown?: number): Part => (shown === undefined ? ['id', value] : ['id', value, shown]),
  /** Free text (a file name, a gateway's answer, a description, an id of no known form): scanned whole. */
  text: (value: string | number | boolean | null | undefined): Part => ['text', String(value)],
};

const isPart = (p: unknown): p is Part =>
  Array.isArray(p) &&
  (p.length === 2 || (p.length === 3 && typeof p[2] === 'number')) &&
  typeof p[0] === 'string' &&
  typeof p[1] === 'string';

/** Whether `value` is a `Said` (by its shape: it may come from another bundle, a page or a process). */
export function isSaid(value: unknown): value is Said {
  if (typeof value !== 'object' || value === null) return false;
  const parts = (value as { said?: unknown }).said;
  return Array.isArray(parts) && parts.every((p) => typeof p === 'string' || isPart(p));
}

/** A `Said` from literal words and typed values (or other `Said`s): said`sent ${typed.date(d)} for ${typed.amount(a)}`. */
export function said(words: TemplateStringsArray, ...values: readonly (Part | Said)[]): Said {
  // Made per problem by the linter (a message is a Said): no closure, and a part told from a Said by its
  // kind alone (a Part is an array), not checked again as isSaid checks what comes from another bundle.
  const out: (string | Part)[] = [];
  if (words[0] !== '') out.push(words[0]);
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (Array.isArray(v)) out.push(v as Part);
    else for (const p of (v as Said).said) out.push(p);
    if (words[i + 1] !== '') out.push(words[i + 1]);
  }
  return { said: out };
}

/** Words of ours alone, as a `Said` (a sentence without values, or a word chosen by a condition). */
export const ourWords = (text: string): Said => ({ said: text === '' ? [] : [text] });

/** Parts joined by words of ours (`', '`). */
export function joinSaid(items: readonly (Part | Said)[], separator: string): Said {
  const out: (string | Part)[] = [];
  items.forEach((v, i) => {
    if (i > 0 && separator !== '') out.push(separator);
    if (isSaid(v)) for (const p of v.said) out.push(p);
    else out.push(v);
  });
  return { said: out };
}

const CHECK: Record<PartKind, (value: string) => Vetted> = {
  date: vet.date,
  amount: vet.amount,
  count: vet.count,
  hash: vet.hash,
  id: vet.id,
  text: vet.text,
};

/**
 * Whether no check can change `text`: printable ASCII without a digit or a percent sign (a card number, a
 * labelled CVV and a percent escape need digits or `%`, which any script's digits and every control
 * character past ASCII fail too). Most of our words are so, and are let through without three scans:
 * a lint of 100,000 rows lays out a message a problem.
 */
function plain(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x20 || c >= 0x7f || (c >= 0x30 && c <= 0x39) || c === 0x25) return false;
  }
  return true;
}

/** One part, checked alone: a value by its type (an unknown type as free text), our words as text. */
function partText(p: string | Part): string {
  if (typeof p === 'string') return plain(p) ? p : terminalText(hideCvvs(maskCardNumbers(p)));
  if (p.length === 2 && p[0] === 'text' && plain(p[1])) return p[1];
  const check = Object.hasOwn(CHECK, p[0]) ? CHECK[p[0]] : vet.text;
  const value = check(p[1]);
  return p.length === 3 ? vet.cut(value, Math.max(0, p[2])) : value;
}

/** The text a person reads: each part made safe alone, then laid out (the floor of every face that shows a `Said`). */
export function saidText(s: Said): string {
  let out = '';
  for (const p of s.said) out += partText(p);
  return out;
}

/**
 * A `Said` laid out in a markup (the language server's Markdown hovers): each part checked alone as by
 * saidText, then each value escaped by `escape`; our words are the markup itself. The check comes before the
 * escape, so a backslash the escape puts between digit groups cannot hide a card number from it.
 */
export function saidMarkup(s: Said, escape: (value: string) => string): string {
  let out = '';
  for (const p of s.said) out += typeof p === 'string' ? partText(p) : escape(partText(p));
  return out;
}

/** A key of a `Said` for a map: the same words and values (each with its type), the same key. */
export const saidKey = (s: Said): string => JSON.stringify(s.said);
