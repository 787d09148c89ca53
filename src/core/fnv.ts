// FNV-1a, 32 bits (Fowler, Noll and Vo; the offset basis and prime of draft-eastlake-fnv), once: the
// tables that find a text by its characters read in place (the linter's first-seen ids, the query's
// interned group keys), the published test card numbers (card-data-in-git) and the code cache's file name.
// It is fast and not keyed: a table keyed by it bounds what crafted keys cost (see firstSeen.ts); it never
// stands where an adversary's collision would matter (the ledger's row keys and hashes are keyed SHA-256).

/** The offset basis: the hash of no characters. */
export const FNV_OFFSET = 0x811c9dc5;

/** One more character (or any 16-bit number) `c` mixed into `h`. */
export const fnvMix = (h: number, c: number): number => Math.imul(h ^ c, 0x01000193);

/** The hash of the characters `s[from, to)` (UTF-16 units), read in place, from `seed`; a 32-bit signed integer. */
export function fnv1a(s: string, from = 0, to = s.length, seed = FNV_OFFSET): number {
  let h = seed | 0;
  for (let i = from; i < to; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
  return h;
}
