// The local gateway's snapshot: `state.json`, the whole state as of one journal sequence number. Written
// only when the journal has grown as large as the snapshot (see journal.ts), so its cost is spread over
// the requests that grew the journal; never once per request.

import * as fs from 'node:fs';
import * as path from 'node:path';
import { randomBytes } from 'node:crypto';
import { formatGatewayDate, parseGatewayDate, todayLocal, type CalendarDate } from '../core/dates';
import type { GatewayState } from './types';

export const STATE_FILE = 'state.json';

export function freshState(today: CalendarDate = todayLocal()): GatewayState {
  return { version: 1, today: formatGatewayDate(today), nextPaymentId: 7000001, nextSerial: 1, nextTransactionId: 90000001, payments: [] };
}

/** The snapshot on disk: the state, the last journal commit it includes, and the nonces still in their window. */
export interface Snapshot {
  state: GatewayState;
  seq: number;
  nonces: [string, number][];
}

function isState(v: unknown): v is GatewayState {
  const s = v as GatewayState;
  return (
    typeof s === 'object' &&
    s !== null &&
    s.version === 1 &&
    typeof s.today === 'string' &&
    parseGatewayDate(s.today) !== undefined &&
    Number.isSafeInteger(s.nextPaymentId) &&
    Number.isSafeInteger(s.nextSerial) &&
    Number.isSafeInteger(s.nextTransactionId) &&
    Array.isArray(s.payments)
  );
}

export type LoadedSnapshot = { snapshot: Snapshot; damaged?: string };

/** Reads state.json (also the older file without seq/nonces); a damaged one is moved aside, never deleted. */
export function loadSnapshot(stateDir: string, initialDate?: CalendarDate): LoadedSnapshot {
  const file = path.join(stateDir, STATE_FILE);
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { snapshot: { state: freshState(initialDate), seq: 0, nonces: [] } };
    throw err;
  }
  try {
    const parsed = JSON.parse(text) as GatewayState & { seq?: unknown; nonces?: unknown };
    if (isState(parsed)) {
      const seq = Number.isSafeInteger(parsed.seq) ? (parsed.seq as number) : 0;
      const nonces = Array.isArray(parsed.nonces) ? (parsed.nonces as [string, number][]) : [];
      const { seq: _s, nonces: _n, ...state } = parsed;
      return { snapshot: { state: state as GatewayState, seq, nonces } };
    }
  } catch {
    // fall through: keep the damaged file for inspection, start afresh
  }
  const aside = `${file}.damaged-${Date.now()}`;
  fs.renameSync(file, aside);
  return { snapshot: { state: freshState(initialDate), seq: 0, nonces: [] }, damaged: aside };
}

/** Writes the snapshot durably: a private temp file, fsync, atomic rename, fsync of the directory. */
export function saveSnapshot(stateDir: string, snapshot: Snapshot): number {
  const file = path.join(stateDir, STATE_FILE);
  const tmp = `${file}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
  const text = `${JSON.stringify({ ...snapshot.state, seq: snapshot.seq, nonces: snapshot.nonces })}\n`;
  const fd = fs.openSync(tmp, 'wx', 0o600);
  try {
    fs.writeSync(fd, text);
    fs.fsyncSync(fd);
  } catch (err) {
    fs.closeSync(fd);
    fs.rmSync(tmp, { force: true });
    throw err;
  }
  fs.closeSync(fd);
  fs.renameSync(tmp, file);
  syncDir(stateDir);
  return Buffer.byteLength(text);
}

export function syncDir(dir: string): void {
  let fd: number | undefined;
  try {
    fd = fs.openSync(dir, 'r');
    fs.fsyncSync(fd);
  } catch {
    // some file systems cannot fsync a directory; the rename is still atomic
  } finally {
    if (fd !== undefined) fs.closeSync(fd);
  }
}
