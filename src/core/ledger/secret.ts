import { createHmac, hash, randomBytes } from 'node:crypto';
import * as path from 'node:path';
import { createOnce, readWhole, type LedgerFs } from './ledgerFs';

// The ledger's own secret: 32 random bytes in `ledger.key` beside the ledger (0600, in the 0700 folder),
// made once by the first send that needs it. Every fingerprint the ledger keeps is an HMAC-SHA256 under
// it, and every row key and value hash a SHA-256 of a key derived from it followed by the text (one call
// of Node's one-shot hash, four times cheaper than an HMAC: a batch of 100,000 rows has about three million
// values, and lint looks up every row's key; truncated as it is, no length extension applies), so what the ledger holds of a row (its client-orderid's key, the fingerprint of its
// card and schedule, a short hash of each value) cannot be matched against guessed values without the
// key: a card number has few enough candidates (a known BIN, a Luhn digit) that a plain hash of it would
// give the number back. The key never leaves the folder and is never printed; a copied ledger without it
// reveals nothing of the rows.

export const KEY_FILE = 'ledger.key';
const KEY_BYTES = 32;
/** SHA-256's block: the HMAC's pads (mac). */
const BLOCK = 64;
/** Texts of fewer UTF-8 bytes than this have their view of the inner buffer kept (mac). */
const VIEWS = 1024;

export class LedgerSecret {
  /** The prefix of every keyed SHA-256: a key derived from the ledger's, as hex, and a separator. */
  private readonly prefix: string;

  /** The key padded to SHA-256's block and XORed with RFC 2104's ipad, then with its opad (the key is 32 bytes). */
  private readonly pads = Buffer.alloc(2 * BLOCK);
  /** (K ^ ipad) then the text, for the inner hash; grown for a longer text. */
  private inner = Buffer.alloc(1024);
  /** (K ^ opad) then the inner digest. */
  private readonly outer = Buffer.alloc(BLOCK + 32);
  /** `inner`'s first BLOCK + n bytes by n, made once a length (a Buffer view a call cost as much as a hash). */
  private views: Buffer[] = [];

  private constructor(key: Buffer) {
    if (key.length > BLOCK) throw new Error('a ledger key longer than a SHA-256 block');
    this.prefix = `${createHmac('sha256', key).update('paygate keyed hash', 'utf8').digest('hex')}\0`;
    for (let i = 0; i < BLOCK; i++) {
      this.pads[i] = (key[i] ?? 0) ^ 0x36;
      this.pads[BLOCK + i] = (key[i] ?? 0) ^ 0x5c;
    }
    this.pads.copy(this.inner, 0, 0, BLOCK);
    this.pads.copy(this.outer, 0, BLOCK, 2 * BLOCK);
  }

  /**
   * HMAC-SHA256 of `text` under the ledger's key, the first `hexChars` hex digits: RFC 2104's two hashes,
   * SHA-256((K ^ opad) || SHA-256((K ^ ipad) || text)), made with Node's one-shot hash in buffers kept for
   * the purpose (no Hmac object a call: a lint of 100,000 rows makes 100,000 fingerprints). The same digest
   * as createHmac's, byte for byte (test/unit/ledger-secret-mac.test.ts): the fingerprints in ledgers still match.
   */
  mac(text: string, hexChars: number): string {
    // A UTF-16 code unit is at most 3 bytes of UTF-8 (a surrogate pair, two units, is 4).
    if (BLOCK + 3 * text.length > this.inner.length) {
      this.inner = Buffer.alloc(2 * (BLOCK + 3 * text.length));
      this.pads.copy(this.inner, 0, 0, BLOCK);
      this.views = [];
    }
    const n = this.inner.write(text, BLOCK, 'utf8');
    const view = n < VIEWS ? (this.views[n] ??= this.inner.subarray(0, BLOCK + n)) : this.inner.subarray(0, BLOCK + n);
    // The inner digest as a 'binary' (latin1) string, a byte a character, written into place: no Buffer made for it.
    this.outer.write(hash('sha256', view, 'binary'), BLOCK, 'latin1');
    return hash('sha256', this.outer, 'hex').slice(0, hexChars);
  }

  /** The keyed SHA-256 of `text` (see above), the first `hexChars` hex digits. */
  keyedHash(text: string, hexChars: number): string {
    return hash('sha256', this.prefix + text, 'hex').slice(0, hexChars);
  }

  /**
   * The keyed SHA-256 of `text` whole, a character a byte ('binary', i.e. latin1: cheaper than hex, and than a Buffer):
   * its first 4 are keyedHash's first 8 hex digits (digestWord).
   */
  keyedDigest(text: string): string {
    return hash('sha256', this.prefix + text, 'binary');
  }

  static fromHex(hex: string): LedgerSecret | undefined {
    const t = hex.trim();
    return /^[0-9a-f]{64}$/.test(t) ? new LedgerSecret(Buffer.from(t, 'hex')) : undefined;
  }

  /** The key of the ledger in `directory`, or undefined when there is none yet (a reader never makes one). */
  static async read(fs: LedgerFs, directory: string): Promise<LedgerSecret | undefined> {
    const text = await readWhole(fs, path.join(directory, KEY_FILE));
    if (text === undefined) return undefined;
    const secret = LedgerSecret.fromHex(text);
    if (!secret) throw new Error(`the submission ledger's key ${path.join(directory, KEY_FILE)} is damaged`);
    return secret;
  }

  /**
   * The key, made when missing: written whole and fsynced under a unique name, then linked into place, so
   * two first sends at once agree on one key (the second link fails and reads the first's).
   */
  static async readOrCreate(fs: LedgerFs, directory: string): Promise<LedgerSecret> {
    const existing = await LedgerSecret.read(fs, directory);
    if (existing) return existing;
    await fs.mkdir(directory, { recursive: true, mode: 0o700 });
    const file = path.join(directory, KEY_FILE);
    await createOnce(fs, file, Buffer.from(`${randomBytes(KEY_BYTES).toString('hex')}\n`, 'utf8'));
    const secret = await LedgerSecret.read(fs, directory);
    if (!secret) throw new Error(`the submission ledger's key ${file} could not be made`);
    return secret;
  }
}

/** The 4 bytes of a keyedDigest from `at` as a signed 32-bit word (big-endian, as Buffer's readInt32BE). */
export function digestWord(digest: string, at: number): number {
  return (digest.charCodeAt(at) << 24) | (digest.charCodeAt(at + 1) << 16) | (digest.charCodeAt(at + 2) << 8) | digest.charCodeAt(at + 3);
}
