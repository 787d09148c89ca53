import { FNV_OFFSET, fnvMix } from './fnv';
// A row's identity as the gateway keys it: its client-orderid with every invisible character removed
// (zero-width spaces and joiners, the word joiner, a byte order mark, soft hyphens: Unicode's
// Default_Ignorable_Code_Point, anywhere in the cell), whitespace of every kind trimmed from both ends
// (spaces of every width, tabs, line breaks, no-break spaces) and the rest normalised to NFC. Two cells
// that read the same are one payment profile at the gateway: the ledger's row key, the already-sent guard,
// duplicate-order-id and the local gateway's store all read an id through `gatewayOrderId`, and nothing
// else decides whether two ids are one.
//
// What stays part of the id: a space inside it, letter case, look-alike letters. Those are other ids to
// the gateway; a payer sent again under such an id is what `same-payer` finds (by card and schedule).

/**
 * Invisible characters: removed wherever they stand. Made on first use (a Unicode property class costs a
 * third of a millisecond to build, at every start of every `paygate` that loads this module; issue 40).
 */
let invisibleChars: RegExp | undefined;
const invisible = () => (invisibleChars ??= /\p{Default_Ignorable_Code_Point}/gu);
/** Whitespace of every kind at either end (`\s` is Unicode's White_Space and U+FEFF). */
const AROUND = /^\s+|\s+$/g;

/** The client-orderid as the gateway reads it. */
export function gatewayOrderId(raw: string): string {
  if (isPlainIn(raw, 0, raw.length)) return raw;
  return raw.replace(invisible(), '').replace(AROUND, '').normalize('NFC');
}

/**
 * Whether `source[from, to)` is printable ASCII without a space (what nearly every id is): then it is its
 * own gateway reading, and the linter's hot path reads it in place without cutting a string.
 */
export function isPlainIn(source: string, from: number, to: number): boolean {
  for (let i = from; i < to; i++) if (!isPlainChar(source.charCodeAt(i))) return false;
  return true;
}

/** Printable ASCII, space excluded: a character the gateway's reading of an id leaves as it is. */
const isPlainChar = (c: number): boolean => c > 0x20 && c < 0x7f;

/**
 * isPlainIn and the FNV-1a hash of the same characters (core/fnv.ts) in one pass: the hash when
 * `source[from, to)` is plain, else NaN. The linter reads every row's id once for both: whether it is its
 * own gateway reading, and where the duplicate-id table looks for it.
 */
export function plainIdHashIn(source: string, from: number, to: number): number {
  let h = FNV_OFFSET | 0;
  for (let i = from; i < to; i++) {
    const c = source.charCodeAt(i);
    if (!isPlainChar(c)) return NaN;
    h = fnvMix(h, c);
  }
  return h;
}

/** The cell without the whitespace around it and the invisible characters in it (id-whitespace's fix; not normalised). */
export function withoutIdNoise(raw: string): string {
  return raw.replace(invisible(), '').replace(AROUND, '');
}

/** Whether the cell holds whitespace around it or an invisible character anywhere (id-whitespace). */
export function hasIdNoise(raw: string): boolean {
  return !isPlainIn(raw, 0, raw.length) && withoutIdNoise(raw) !== raw;
}

/** What noise a cell holds, in words for id-whitespace's message (e.g. "whitespace around it and a zero-width space in it"). */
export function idNoiseWords(raw: string): string {
  const visible = raw.replace(invisible(), '');
  const inner = visible === raw ? undefined : invisibleName(raw);
  const around = visible.replace(AROUND, '') !== visible;
  return [around ? 'whitespace around it' : undefined, inner ? `${inner} in it` : undefined].filter((w) => w !== undefined).join(' and ');
}

const NAMES: Record<number, string> = {
  0xfeff: 'a byte order mark',
  0x200b: 'a zero-width space',
  0x200c: 'a zero-width non-joiner',
  0x200d: 'a zero-width joiner',
  0x2060: 'a word joiner',
  0xad: 'a soft hyphen',
};

/** The first invisible character's name (or its code point). */
function invisibleName(raw: string): string {
  const c = /\p{Default_Ignorable_Code_Point}/u.exec(raw)![0].codePointAt(0)!;
  return NAMES[c] ?? `an invisible character (U+${c.toString(16).toUpperCase().padStart(4, '0')})`;
}
