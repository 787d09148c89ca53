// Placeholder until src/core/csv/write.ts exports withCrlfRecords; same contract.

/** Record separators -> CRLF, BOM dropped, line breaks inside quoted fields kept as they are. */
export function withCrlfRecords(text: string): string {
  const src = text.startsWith('\uFEFF') ? text.slice(1) : text;
  let out = '';
  let quoted = false;
  for (let i = 0; i < src.length; i++) {
    const c = src[i];
    if (c === '"') quoted = !quoted;
    if (!quoted && (c === '\r' || c === '\n')) {
      if (c === '\r' && src[i + 1] === '\n') i++;
      out += '\r\n';
      continue;
    }
    out += c;
  }
  return out;
}
