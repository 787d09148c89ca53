// The team ledger's URL, without its client: the faces check and show it (the editor's language client,
// the CLI's lint) without loading node-postgres.

export const LEDGER_URL_ENV = 'PAYGATE_LEDGER_URL';

/** A postgres:// URL, checked; the message says what is wrong without repeating a password. */
export function parseLedgerUrl(text: string): { ok: true; url: URL } | { ok: false; message: string } {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return { ok: false, message: 'the team ledger URL is not a URL (postgres://ROLE@HOST:PORT/DATABASE)' };
  }
  if (url.protocol !== 'postgres:' && url.protocol !== 'postgresql:')
    return { ok: false, message: `the team ledger URL must start with postgres:// (not ${url.protocol}//)` };
  if (url.hostname === '') return { ok: false, message: 'the team ledger URL names no host (postgres://ROLE@HOST:PORT/DATABASE)' };
  return { ok: true, url };
}

/** The URL without its password (and without any query), for every message and record. */
export function redactedUrl(url: URL): string {
  const user = url.username ? `${decodeURIComponent(url.username)}@` : '';
  return `postgres://${user}${url.host}${url.pathname}`;
}
