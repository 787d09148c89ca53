import { createHash } from 'node:crypto';

// The one name for "the SHA-256 of some content, in hex": what the ledger and the resend guard call a
// batch (its CRLF text, `contentHash` in every record), what the signature details show of a payload,
// and what `paygate trust` pins a configuration file by. Logs and records name content by it, never
// carry the content.

/** SHA-256 (hex) of a text's UTF-8 bytes, or of the bytes. */
export function contentHash(content: string | Uint8Array): string {
  return createHash('sha256').update(content).digest('hex');
}
