// Ids of known form standing on their own are never card numbers, though their digits may pass: a UUID
// (8-4-4-4-12 hex) and a 24-, 32-, 40- or 64-hex key or hash (a row key, a checksum, a content hash), each
// with at least one letter (a UUID or hash of digits alone is still scanned). A merchant quotes them to
// support exactly, and no card number is written so.

const ID_OF_KNOWN_FORM =
  /(?<![0-9A-Za-z])(?:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|[0-9a-f]{64}|[0-9a-f]{40}|[0-9a-f]{32}|[0-9a-f]{24})(?![0-9A-Za-z])/gi;
const HEX_LETTER = /[a-f]/i;

/** Where each id of known form ends, by the index it starts at; undefined when the text has none. */
export function idSpans(text: string): Map<number, number> | undefined {
  if (!HEX_LETTER.test(text)) return undefined;
  let spans: Map<number, number> | undefined;
  ID_OF_KNOWN_FORM.lastIndex = 0;
  for (let m = ID_OF_KNOWN_FORM.exec(text); m !== null; m = ID_OF_KNOWN_FORM.exec(text)) {
    if (HEX_LETTER.test(m[0])) (spans ??= new Map()).set(m.index, m.index + m[0].length);
  }
  return spans;
}

/** The end of the id span holding `at`, or -1. */
export function insideSpan(spans: Map<number, number> | undefined, at: number): number {
  if (spans === undefined) return -1;
  for (const [from, to] of spans) if (at >= from && at < to) return to;
  return -1;
}
