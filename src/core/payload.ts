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

/**
 * payloadLength of a text read in pieces (a batch checked from disk, never whole in memory): the same
 * count, piece by piece. A run of line breaks is held until a character follows it (then each of its
 * breaks is one CRLF) or the text ends (then it stands for the one final CRLF); a CRLF split between two
 * pieces is one break. Pieces come from a streaming UTF-8 decoder, which never splits a character.
 */
export class PayloadCounter {
  private bytes = 0;
  /** Line breaks in the run not yet followed by a character. */
  private breaks = 0;
  /** The run's last character was a CR (an LF next completes its CRLF). */
  private afterCr = false;
  private started = false;

  push(piece: string): void {
    let from = 0;
    if (!this.started && piece !== '') {
      this.started = true;
      if (piece.charCodeAt(0) === 0xfeff) from = 1;
    }
    let at = from;
    while (at < piece.length) {
      const c = piece.charCodeAt(at);
      if (c === CR || c === LF) {
        if (c === LF && this.afterCr) this.afterCr = false;
        else {
          this.breaks++;
          this.afterCr = c === CR;
        }
        at++;
        continue;
      }
      // A character after the run: its breaks were inside the text, each a CRLF.
      this.bytes += 2 * this.breaks;
      this.breaks = 0;
      this.afterCr = false;
      let end = at + 1;
      while (end < piece.length && piece.charCodeAt(end) !== CR && piece.charCodeAt(end) !== LF) end++;
      this.bytes += Buffer.byteLength(piece.slice(at, end), 'utf8');
      at = end;
    }
  }

  /** The payload's length (Base64 characters) of everything pushed. */
  length(): number {
    return base64Length(this.bytes + (this.breaks > 0 ? 2 : 0));
  }
}
