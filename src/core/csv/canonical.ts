import { contentHash } from '../contentHash';
import { parseCsv, type ParsedCsv } from './parse';
import { legacySentText } from './write';

// The canonical form of a batch: the one text every face sends, hashes, guards and reconciles, so an
// unchanged file is the same submission whichever face read it.
//
// Every line break becomes CRLF, between records AND inside quoted fields; a byte order mark is dropped;
// blank lines at the end become the one final CRLF. Why CRLF everywhere: the gateway's sample separates
// rows with CRLF (RFC 4180's line break), and an editor cannot keep anything else: VS Code's buffer holds
// one end-of-line sequence for the whole document, so a bare LF inside a quoted field reaches the extension
// as CRLF whatever the file holds. The terminal reads the bytes as they are. Keeping quoted line breaks
// "exactly" (what versions up to 0.1 did) therefore made the editor and the CLI send and hash different
// bytes for one unchanged file, and the resend guard missed it. A description whose line break was a bare
// LF now reaches the gateway with CRLF, as it always did from the editor.

/** Whether the text has a line break that is not CRLF (a bare LF, or a CR not followed by LF). */
function hasOtherBreaks(text: string): boolean {
  // indexOf, not a regular expression with a look-behind: a 100 MB batch is read in milliseconds.
  for (let at = text.indexOf('\n'); at >= 0; at = text.indexOf('\n', at + 1)) if (at === 0 || text.charCodeAt(at - 1) !== 13) return true;
  for (let at = text.indexOf('\r'); at >= 0; at = text.indexOf('\r', at + 1)) if (text.charCodeAt(at + 1) !== 10) return true;
  return false;
}
const ANY_BREAK = /\r\n|\r|\n/g;
const TRAILING_BREAKS = /(?:\r\n)+$/;

/** The canonical text of a batch (see above). Linear in the text; an already canonical text is not copied. */
export function canonicalBatchText(text: string): string {
  let out = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  if (hasOtherBreaks(out)) out = out.replace(ANY_BREAK, '\r\n');
  // Blank lines at the end only stand for the final line break (the linter ignores them).
  if (out.endsWith('\r\n\r\n')) out = out.replace(TRAILING_BREAKS, '\r\n');
  return out;
}

/** The content hash of a batch: SHA-256 of its canonical text. The ledger's and the guard's name for it. */
export function batchContentHash(text: string): string {
  return contentHash(canonicalBatchText(text));
}

/**
 * The content hashes versions up to 0.1 may have recorded for this batch, other than today's: the CLI
 * hashed the file's bytes with quoted line breaks kept as they were (`raw`, when the caller has the bytes
 * as read from disk), and the editor hashed its buffer, whose line breaks are all CRLF (today's hash) or
 * all LF (a file whose end-of-line sequence was LF). The guard looks for these too, so a file sent before
 * the canonical form is still refused after it. `csv`: the text's parse, when the caller has it (the lint's).
 */
export function legacyContentHashes(text: string, raw?: string, csv: ParsedCsv = parseCsv(text)): string[] {
  // Without a quote there is no quoted line break, and every older hash is today's. Nor is there another
  // when every line break is CRLF: the terminal read CRLF, and an editor showed the file with CRLF.
  const plain = (t: string | undefined) => t === undefined || !t.includes('"') || !hasOtherBreaks(t);
  if (plain(text) && plain(raw)) return [];
  const current = batchContentHash(text);
  const candidates = [legacySentText(text, csv), legacySentText(text, csv, true)];
  if (raw !== undefined && raw !== text) candidates.push(legacySentText(raw));
  const out: string[] = [];
  for (const c of candidates) {
    const h = contentHash(c);
    if (h !== current && !out.includes(h)) out.push(h);
  }
  return out;
}
