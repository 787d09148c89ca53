import { createHmac, randomBytes, randomUUID } from 'node:crypto';
import * as path from 'node:path';
import { hash_hex, type SipKey } from 'siphash';
import { readWhole, writeFully, type LedgerFs } from './ledgerFs';

// The ledger's own secret: 32 random bytes in `ledger.key` beside the ledger (0600, in the 0700 folder),
// made once by the first send that needs it. Every row key and fingerprint the ledger keeps is an
// HMAC-SHA256 under it, and every value hash a SipHash-2-4 (a keyed pseudo-random function made for short
// inputs, some 100 times cheaper per call here than Node's HMAC: a batch of 100,000 rows has about three
// million values) under a 128-bit key derived from it, so what the ledger holds of a row (its client-orderid's key, the fingerprint of its
// card and schedule, a short hash of each value) cannot be matched against guessed values without the
// key: a card number has few enough candidates (a known BIN, a Luhn digit) that a plain hash of it would
// give the number back. The key never leaves the folder and is never printed; a copied ledger without it
// reveals nothing of the rows.

export const KEY_FILE = 'ledger.key';
const KEY_BYTES = 32;

export class LedgerSecret {
  private readonly sipKey: SipKey;

  private constructor(private readonly key: Buffer) {
    const derived = createHmac('sha256', key).update('paygate value hash key', 'utf8').digest();
    this.sipKey = new Uint32Array([0, 4, 8, 12].map((at) => derived.readUInt32LE(at)));
  }

  /** HMAC-SHA256 of `text` under the ledger's key, the first `hexChars` hex digits. */
  mac(text: string, hexChars: number): string {
    return createHmac('sha256', this.key).update(text, 'utf8').digest('hex').slice(0, hexChars);
  }

  /** SipHash-2-4 of `text` under the derived key, 8 hex digits (32 bits). */
  shortMac(text: string): string {
    return hash_hex(this.sipKey, text).slice(8);
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
    const tmp = `${file}.${randomUUID()}.tmp`;
    const handle = await fs.open(tmp, 'a', 0o600);
    try {
      await writeFully(handle, Buffer.from(`${randomBytes(KEY_BYTES).toString('hex')}\n`, 'utf8'), tmp);
    } finally {
      await handle.close();
    }
    try {
      await fs.link(tmp, file);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    } finally {
      await fs.unlink(tmp).catch(() => undefined);
    }
    const secret = await LedgerSecret.read(fs, directory);
    if (!secret) throw new Error(`the submission ledger's key ${file} could not be made`);
    return secret;
  }
}
