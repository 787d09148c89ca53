// Where the listener forwards and replays callbacks: a handler under development on this machine. A
// callback can carry a merchant's order data, so nothing is ever sent off the machine by these tools.

import { isIP } from 'node:net';

export type LoopbackUrl = { ok: true; url: URL; connectHost: string } | { ok: false; reason: string };

/**
 * An http URL on 127.0.0.0/8, [::1] or `localhost` (also written as the fully qualified `localhost.`;
 * connected to 127.0.0.1, never resolved), or why not.
 */
export function loopbackUrl(text: string): LoopbackUrl {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return { ok: false, reason: `${JSON.stringify(text)} is not a URL` };
  }
  // Where the target is decides first: an address off this machine is refused as that whatever its
  // scheme, so `https://example.com` is not told to switch to http:// (which would still be refused).
  const host = url.hostname.toLowerCase();
  const connectHost = loopbackHost(host);
  if (connectHost === undefined)
    return {
      ok: false,
      reason: `${url.host || text} is not on this machine: callbacks are only forwarded or replayed to 127.0.0.1, ::1 or localhost`,
    };
  if (url.protocol !== 'http:') return { ok: false, reason: `${text} is not an http:// address (only loopback http handlers are called)` };
  if (url.username !== '' || url.password !== '') return { ok: false, reason: `${url.host}: an address with user:password@ is not called` };
  return { ok: true, url, connectHost };
}

/** The address to connect to for a loopback host name (never resolved), or undefined off this machine. */
function loopbackHost(host: string): string | undefined {
  if (host === 'localhost' || host === 'localhost.') return '127.0.0.1';
  if (host === '[::1]') return '::1';
  if (isIP(host) === 4 && host.startsWith('127.')) return host;
  return undefined;
}

/**
 * Where a forwarded or replayed call goes: the target's own path exactly as given (a call to `…/hook` goes
 * to `/hook`, never `/hook/` or `/hook/paygate/notify`), with the received call's query string (the
 * gateway's fields travel there) added after the target's own query, which is kept.
 */
export function targetPath(target: URL, receivedPathAndQuery: string): string {
  const q = receivedPathAndQuery.indexOf('?');
  const query = q < 0 ? '' : receivedPathAndQuery.slice(q + 1);
  const own = `${target.pathname}${target.search}`;
  if (query === '') return own;
  return target.search === '' ? `${own}?${query}` : `${own}&${query}`;
}
