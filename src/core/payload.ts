// The size of a batch as the gateway receives it: the form field `payload`, Base64 of the UTF-8 canonical
// text (csv/canonical.ts: every line break CRLF, no BOM, one final line break). Counted without building
// the canonical text or its Base64, so the linter can weigh a 100 MB batch on every check.

/**
 * The local gateway's maximum payload, in Base64 characters (8 MiB: about 6 MiB of CSV, some 20,000 rows
 * of a typical batch), and the default maximum of every environment that names none. The gateway's API
 * description states no limit; an environment sets its own with `maxPayloadBytes`. It stays well under
 * the local gateway's 16 MiB request body, so a payload over it is answered as a validation error.
 */
export const DEFAULT_MAX_PAYLOAD_BYTES = 8 * 1024 * 1024;

const CR = 13;
const LF = 10;

/** Base64 characters of `bytes` bytes. */
export function base64Length(bytes: number): number {
  return 4 * Math.ceil(bytes / 3);
}

/** UTF-8 bytes of the canonical text of `text` (what prepareSubmission encodes), counted in place. */
export function canonicalByteLength(text: string): number {
  const bom = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  // The line breaks at the very end (blank lines there) stand for the one final CRLF.
  let end = text.length;
  while (end > bom && (text.charCodeAt(end - 1) === LF || text.charCodeAt(end - 1) === CR)) end--;
  const trailing = end < text.length ? 2 : 0;
  let bytes = Buffer.byteLength(text.slice(bom, end), 'utf8');
  // Each bare LF and each lone CR becomes CRLF: one byte more. indexOf keeps it linear and fast.
  for (let at = text.indexOf('\n', bom); at >= 0 && at < end; at = text.indexOf('\n', at + 1)) if (text.charCodeAt(at - 1) !== CR) bytes++;
  for (let at = text.indexOf('\r', bom); at >= 0 && at < end; at = text.indexOf('\r', at + 1)) if (text.charCodeAt(at + 1) !== LF) bytes++;
  return bytes + trailing;
}

/** The length of the payload a batch is sent as: Base64 characters of its canonical text. */
export function payloadLength(text: string): number {
  return base64Length(canonicalByteLength(text));
}
