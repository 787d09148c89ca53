// Cuts a string into pieces for postMessage without splitting a surrogate pair: a lone half would not
// survive the message's serialisation and the page would see U+FFFD instead of the character.
export const SLICE_CHARS = 1 << 20;

export function* sliceText(text: string, size = SLICE_CHARS): Generator<string> {
  let start = 0;
  while (start < text.length) {
    let end = Math.min(text.length, start + size);
    const c = text.charCodeAt(end - 1);
    if (end < text.length && c >= 0xd800 && c <= 0xdbff) end = end - 1 > start ? end - 1 : end + 1;
    yield text.slice(start, end);
    start = end;
  }
}
