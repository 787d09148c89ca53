// The simulator's persistent state: one JSON file, so a restarted `paygate gateway` (or another process
// on the same state directory) continues the same simulated clock and the same payments.

import * as fs from 'node:fs';
import * as path from 'node:path';
import { formatGatewayDate, parseGatewayDate, todayLocal, type CalendarDate } from '../core/dates';
import { ensureStateDir, writePrivateFile } from './merchant';
import type { SimState } from './types';

export const STATE_FILE = 'state.json';

export function freshState(today: CalendarDate = todayLocal()): SimState {
  return { version: 1, today: formatGatewayDate(today), nextPaymentId: 7000001, nextSerial: 1, nextTransactionId: 90000001, payments: [] };
}

function isState(v: unknown): v is SimState {
  const s = v as SimState;
  return (
    typeof s === 'object' && s !== null && s.version === 1 && typeof s.today === 'string' && parseGatewayDate(s.today) !== undefined &&
    Number.isSafeInteger(s.nextPaymentId) && Number.isSafeInteger(s.nextSerial) && Number.isSafeInteger(s.nextTransactionId) && Array.isArray(s.payments)
  );
}

export type LoadedState = { state: SimState; note?: string };

export function loadState(stateDir: string, initialDate?: CalendarDate): LoadedState {
  const file = path.join(stateDir, STATE_FILE);
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { state: freshState(initialDate) };
    throw err;
  }
  try {
    const parsed: unknown = JSON.parse(text);
    if (isState(parsed)) return { state: parsed };
  } catch {
    // fall through: keep the damaged file for inspection, start afresh
  }
  const aside = `${file}.damaged-${Date.now()}`;
  fs.renameSync(file, aside);
  return { state: freshState(initialDate), note: `state file was unreadable; moved to ${aside} and started afresh` };
}

export function saveState(stateDir: string, state: SimState): void {
  ensureStateDir(stateDir);
  writePrivateFile(path.join(stateDir, STATE_FILE), `${JSON.stringify(state, null, 2)}\n`);
}

/**
 * The state with the file as the source of truth: when another process on the same state directory
 * (a second gateway, an editor's embedded one) wrote the file since we last did, it is read again
 * before the next request, so both continue one clock and one set of payments.
 */
export class StateStore {
  private state: SimState;
  private stamp = '';

  constructor(private readonly stateDir: string, initialDate?: CalendarDate, log: (line: string) => void = () => undefined) {
    const loaded = loadState(stateDir, initialDate);
    if (loaded.note) log(loaded.note);
    this.state = loaded.state;
    this.save();
  }

  private fileStamp(): string {
    try {
      const s = fs.statSync(path.join(this.stateDir, STATE_FILE));
      return `${s.ino}:${s.size}:${s.mtimeMs}`;
    } catch {
      return '';
    }
  }

  current(): SimState {
    const stamp = this.fileStamp();
    if (stamp !== '' && stamp !== this.stamp) {
      const loaded = loadState(this.stateDir);
      this.state = loaded.state;
      this.stamp = this.fileStamp();
    }
    return this.state;
  }

  save(): void {
    saveState(this.stateDir, this.state);
    this.stamp = this.fileStamp();
  }
}
