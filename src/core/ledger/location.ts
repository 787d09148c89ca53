import * as path from 'node:path';

// Where the ledger lives when nobody says otherwise: the user's data directory, the same for the CLI and
// the editor, so a batch sent from one face is guarded in the other. The caller passes the environment
// and home directory (the core reads no process globals).

export const DATA_DIR_ENV = 'PAYGATE_DATA_DIR';

/** $PAYGATE_DATA_DIR, else $XDG_DATA_HOME/paygate, else ~/.local/share/paygate. */
export function defaultLedgerDirectory(env: Record<string, string | undefined>, home: string): string {
  const given = env[DATA_DIR_ENV];
  if (given) return path.resolve(given);
  const xdg = env.XDG_DATA_HOME;
  // The XDG spec ignores a relative XDG_DATA_HOME.
  if (xdg && path.isAbsolute(xdg)) return path.join(xdg, 'paygate');
  return path.join(home, '.local', 'share', 'paygate');
}

/**
 * The ledger's directory for either face: the one the user named (the CLI's --state, the editor's
 * paygate.ledger.directory; `~` is the home directory, a relative path is taken from `base`), else the
 * default above. Both faces ask here, so the same words name the same folder.
 */
export function ledgerDirectory(
  named: string | undefined,
  where: { base: string; env: Record<string, string | undefined>; home: string },
): string {
  const given = named?.trim() ?? '';
  if (given === '') return defaultLedgerDirectory(where.env, where.home);
  const expanded = given === '~' || given.startsWith('~/') ? path.join(where.home, given.slice(1)) : given;
  return path.resolve(where.base, expanded);
}
