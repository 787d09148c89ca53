// The admin surface (/_local/*, also answered at its first name /_sim/* so existing scripts keep
// working): moves the simulated clock, lists, stops and resumes payments. It has no
// OAuth signature, so it takes a per-run token instead (`Authorization: Bearer <token>`, in
// gateway.json, mode 0600, new on every start), and still refuses what a web page could send
// (an Origin header, a Host that is not the loopback address: DNS rebinding, CSRF).

import { timingSafeEqual } from 'node:crypto';
import type * as http from 'node:http';
import { HttpError, MAX_ADMIN_BODY_BYTES, readBody, sendJson } from './http';
import { MAX_ADVANCE_DAYS, reschedule, stopPayment } from './payments';
import type { AdvanceSummary, ChargeEvent, GatewayState, StoredPayment } from './types';

export const ADMIN_TOKEN_HEADER = 'authorization';
/** Where the admin surface lives; the first is the one printed and documented. */
export const ADMIN_PATH_PREFIXES = ['/_local', '/_sim'] as const;

/** The path below an admin prefix (`''` for the prefix itself), or undefined when `pathname` is not an admin path. */
export function adminSubpath(pathname: string): string | undefined {
  for (const prefix of ADMIN_PATH_PREFIXES) {
    if (pathname === prefix) return '';
    if (pathname.startsWith(`${prefix}/`)) return pathname.slice(prefix.length);
  }
  return undefined;
}

export interface AdminContext {
  port: number;
  token: string;
  state(): GatewayState;
  find(id: string): StoredPayment | undefined;
  /** Advances without waiting for callbacks: an HTTP client is not held while receivers answer. */
  advance(days: number): AdvanceSummary & { callbacksQueued: number };
  /** Commits `p`'s change and queues the callbacks of `events`; returns how many were queued. */
  changed(p: StoredPayment, events: ChargeEvent[]): number;
  info(): Record<string, unknown>;
  log(line: string): void;
}

export const validDays = (days: number) => Number.isSafeInteger(days) && days >= 1 && days <= MAX_ADVANCE_DAYS;

function tokenMatches(header: string | undefined, token: string): boolean {
  const m = /^Bearer\s+(\S+)\s*$/i.exec(header ?? '');
  if (!m) return false;
  const given = Buffer.from(m[1]);
  const want = Buffer.from(token);
  return given.length === want.length && timingSafeEqual(given, want);
}

export async function handleAdmin(ctx: AdminContext, req: http.IncomingMessage, res: http.ServerResponse, url: URL): Promise<void> {
  const host = (req.headers.host ?? '').toLowerCase();
  const port = ctx.port;
  if (req.headers.origin !== undefined || !(host === `127.0.0.1:${port}` || host === `localhost:${port}` || host === `[::1]:${port}`)) {
    throw new HttpError(403, 'admin endpoints accept requests from local tools only');
  }
  // Checked before the body is read: without the token nothing here is worth reading.
  if (!tokenMatches(req.headers[ADMIN_TOKEN_HEADER], ctx.token)) {
    throw new HttpError(
      401,
      'admin endpoints need the header "Authorization: Bearer <adminToken>" (the token is printed at start and kept in gateway.json)',
    );
  }
  const path = adminSubpath(url.pathname) ?? '';
  const m = /^\/payments\/([^/]+)\/(stop|reschedule)$/.exec(path);
  const state = ctx.state();
  if (req.method === 'GET' && path === '/payments') return sendJson(res, 200, { today: state.today, payments: state.payments });
  if (req.method === 'GET' && path === '/state') return sendJson(res, 200, ctx.info());
  if (req.method === 'POST' && path === '/advance') {
    await readBody(req, MAX_ADMIN_BODY_BYTES);
    const days = Number(url.searchParams.get('days') ?? '1');
    if (!validDays(days)) throw new HttpError(400, `days must be a whole number from 1 to ${MAX_ADVANCE_DAYS}`);
    const { callbacks: _none, ...summary } = ctx.advance(days);
    return sendJson(res, 200, summary);
  }
  if (req.method === 'POST' && m) {
    await readBody(req, MAX_ADMIN_BODY_BYTES);
    let id: string;
    try {
      id = decodeURIComponent(m[1]);
    } catch {
      throw new HttpError(400, 'the payment id is not valid percent-encoding');
    }
    const p = ctx.find(id);
    if (!p) throw new HttpError(404, `no recurring payment ${m[1]}`);
    let events: ChargeEvent[] = [];
    if (m[2] === 'stop') stopPayment(p);
    else events = reschedule(state, p);
    const callbacksQueued = ctx.changed(p, events);
    ctx.log(`payment ${p['recurring-payment-id']} ${m[2]}: status ${p.status}`);
    return sendJson(res, 200, { payment: p, charges: events, callbacksQueued });
  }
  throw new HttpError(404, 'unknown admin endpoint');
}
