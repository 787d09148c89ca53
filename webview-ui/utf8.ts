// The report arrives as UTF-8 bytes. The page and its parse worker each decode the same bytes with the
// same decoder, so the worker's offsets hold in the page's text.

/** A fresh decoder: a byte order mark is kept as a character (the report reader drops it at the start). */
export function utf8Decoder(): TextDecoder {
  return new TextDecoder('utf-8', { ignoreBOM: true });
}

/**
 * How many of the bytes end on a whole character: the chunks are cut anywhere, and a character cut in two
 * would decode as two replacement characters. The rest waits for the next chunk.
 */
export function wholeCharacters(bytes: Uint8Array): number {
  const n = bytes.length;
  // The last character's first byte is at most three bytes back.
  for (let i = n - 1; i >= 0 && i >= n - 4; i--) {
    const b = bytes[i];
    if ((b & 0xc0) === 0x80) continue; // a continuation byte
    return sequenceLength(b) > n - i ? i : n;
  }
  return n;
}

/** The bytes of a character that starts with `lead` (one for ASCII and for what cannot start one). */
function sequenceLength(lead: number): number {
  if (lead >= 0xf0) return 4;
  if (lead >= 0xe0) return 3;
  return lead >= 0xc0 ? 2 : 1;
}
