import { createHmac, randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { LedgerSecret } from '../secret';

// The team key: the one key every member's row keys and fingerprints are made with, so that their sends
// meet in the team ledger. 32 random bytes as hex in a file (mode 0600) that `paygate ledger init` writes
// and each member points PAYGATE_LEDGER_KEY_FILE at; never in the database, so whoever reads the tables
// cannot test card numbers against the fingerprints. The database keeps a key check value (an HMAC of a
// fixed text under the key), so a member with another key is refused before writing anything.

export const KEY_FILE_ENV = 'PAYGATE_LEDGER_KEY_FILE';
const CHECK_TEXT = 'paygate team ledger key check v1';

export function keyCheckValue(hex: string): string {
  return createHmac('sha256', Buffer.from(hex, 'hex')).update(CHECK_TEXT, 'utf8').digest('hex');
}

export interface TeamKey {
  secret: LedgerSecret;
  check: string;
  file: string;
}

/** The team key in `file`; a message naming the file when it cannot be read or is not a key. */
export function readTeamKey(file: string): { ok: true; key: TeamKey } | { ok: false; message: string } {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    return { ok: false, message: `cannot read the team key ${file} (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})` };
  }
  return teamKeyOf(text, file);
}

/** The team key in `text` (a key file's content); `name` says where it came from in messages. */
export function teamKeyOf(text: string, name: string): { ok: true; key: TeamKey } | { ok: false; message: string } {
  const hex = text.trim();
  const secret = LedgerSecret.fromHex(hex);
  if (!secret) return { ok: false, message: `${name} is not a team key (64 hex digits, as 'paygate ledger init' writes it)` };
  return { ok: true, key: { secret, check: keyCheckValue(hex), file: name } };
}

/** A new team key written to `file` (which must not exist yet), mode 0600. */
export function writeNewTeamKey(file: string): TeamKey {
  const hex = randomBytes(32).toString('hex');
  mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
  writeFileSync(file, `${hex}\n`, { mode: 0o600, flag: 'wx' });
  return { secret: LedgerSecret.fromHex(hex)!, check: keyCheckValue(hex), file };
}
