// Forwarding loops. A listener forwarding to itself, directly or through other hops (another listener, a
// proxy that passes headers on), would take each call round until the machine runs out of descriptors.
// Two guards: a forward target that is the listener's own address and port, in any spelling the URL
// parser accepts (127.0.0.1, localhost, localhost., [::1], 0x7f000001, 2130706433, 127.1…), is refused
// at start; and every forwarded call carries the hop header with each listener it passed, so a call that
// comes back to a listener it already passed is refused with 508 Loop Detected.

import { randomBytes } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { loopbackUrl } from '../core/callbacks/loopback';

/** The hop header: the ids of the listeners a call was forwarded by, oldest first, comma-separated. */
export const HOP_HEADER = 'PayGate-Forwarded-By';

/** This listener's id in the hop header: random per start, so two listeners never share one. */
export function newListenerId(): string {
  return `paygate-listen-${randomBytes(6).toString('hex')}`;
}

/** A forward target the listener would reach itself at: its port on 127.0.0.1, localhost or [::1]. */
export class ForwardToSelfError extends Error {
  constructor(target: string, port: number) {
    super(`${target} is this listener itself (127.0.0.1:${port}): each call would be forwarded back to it without end`);
    this.name = 'ForwardToSelfError';
  }
}

/** Whether `target` is the listener on `port` (127.0.0.1, and [::1], which a dual-stack listener would be). */
export function isOwnAddress(target: string, port: number): boolean {
  const t = loopbackUrl(target);
  if (!t.ok) return false;
  const targetPort = t.url.port === '' ? 80 : Number(t.url.port);
  return targetPort === port && (t.connectHost === '127.0.0.1' || t.connectHost === '::1');
}

/** The listener ids a received call was already forwarded by. */
export function hopsOf(headers: IncomingHttpHeaders): string[] {
  const value = headers[HOP_HEADER.toLowerCase()];
  const all = Array.isArray(value) ? value.join(',') : (value ?? '');
  return all
    .split(',')
    .map((h) => h.trim())
    .filter((h) => h !== '');
}

/** The headers to forward: the received ones, with this listener's id added to the hop header. */
export function withHop(headers: readonly [string, string][], hops: readonly string[], id: string): [string, string][] {
  const out = headers.filter(([k]) => k.toLowerCase() !== HOP_HEADER.toLowerCase());
  out.push([HOP_HEADER, [...hops, id].join(', ')]);
  return out;
}
