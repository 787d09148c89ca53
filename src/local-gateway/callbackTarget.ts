import { isIP } from 'node:net';
import { ADMIN_PATH_PREFIXES } from './admin';

// What a local stand-in calls back (and why): the rows come from files a developer did not necessarily
// write, so a callback address is untrusted input aimed at the developer's machine.
// - http on a loopback address only (127.0.0.0/8, ::1, `localhost` connected to 127.0.0.1, never
//   resolved): nothing leaves the machine;
// - a port from 1024 up: a callback receiver under test runs as the user, system services below 1024
//   (mail, printing, …) are not the gateway's business;
// - never this gateway's own port: the gateway must not be turned on itself;
// - never an admin path (`/_local/…`, or its old name `/_sim/…`) on any port: no row can move a clock or stop a payment, here or
//   in another local gateway;
// - no user:password@ in the address.
// Anything else is refused, with the reason (callbacks.ts skips and logs it).

const MIN_CALLBACK_PORT = 1024;

export type LoopbackTarget = { ok: true; url: URL; connectHost: string } | { ok: false; reason: string };

function isAdminPath(pathname: string): boolean {
  let p: string;
  try {
    p = decodeURIComponent(pathname);
  } catch {
    p = pathname;
  }
  p = p.toLowerCase().replace(/\/{2,}/g, '/');
  return ADMIN_PATH_PREFIXES.some((prefix) => p === prefix || p.startsWith(`${prefix}/`));
}

/**
 * Whether the local gateway may call `text` back; `ownPorts` are the gateway's own listening ports.
 * Accepts http URLs on 127.0.0.0/8, ::1 or `localhost` (connected to 127.0.0.1, never resolved).
 */
export function loopbackTarget(text: string, ownPorts: readonly number[] = []): LoopbackTarget {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return { ok: false, reason: 'not a URL' };
  }
  if (url.protocol !== 'http:')
    return { ok: false, reason: `${url.protocol} callbacks are not supported by the local gateway (http only)` };
  const host = url.hostname.toLowerCase();
  let connectHost: string;
  if (host === 'localhost') connectHost = '127.0.0.1';
  else if (host === '[::1]') connectHost = '::1';
  else if (isIP(host) === 4 && host.startsWith('127.')) connectHost = host;
  else return { ok: false, reason: 'not a loopback address' };
  if (url.username !== '' || url.password !== '') return { ok: false, reason: 'an address with user:password@ is not called' };
  const port = Number(url.port || 80);
  if (port < MIN_CALLBACK_PORT) return { ok: false, reason: `port ${port} is below ${MIN_CALLBACK_PORT} (system services are not called)` };
  if (ownPorts.includes(port)) return { ok: false, reason: "the local gateway's own port" };
  if (isAdminPath(url.pathname))
    return { ok: false, reason: `an admin path (${ADMIN_PATH_PREFIXES.map((prefix) => `${prefix}/…`).join(' or ')})` };
  return { ok: true, url, connectHost };
}
