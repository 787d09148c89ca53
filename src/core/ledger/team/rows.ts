import { maskText } from '../../output';
import type { LedgerReading, SubmissionRecord } from '../records';

// A submission as the team ledger's table holds it and how it is read back as a record, and its errors in
// words: what every part of the team ledger (teamLedger.ts, claim.ts, admin.ts, teamApprovals.ts,
// payers.ts) shares.

/** A team ledger that could not be used: the message names the ledger (never its password) and what to do. */
export class TeamLedgerError extends Error {
  constructor(
    readonly place: string,
    readonly reason: string,
  ) {
    super(`${place} could not be used: ${reason}`);
  }
}

export interface Row {
  id: string;
  seq: string;
  state: 'sending' | 'done';
  role: string;
  host: string;
  face: string;
  completed_at: Date | null;
  record: Omit<SubmissionRecord, 'seq' | 'state' | 'role'>;
}

export const COLUMNS = 's.id, s.seq, s.state, s.role, s.host, s.face, s.completed_at, s.record';

export function recordOf(r: Row): SubmissionRecord {
  return {
    ...r.record,
    state: r.state,
    role: r.role,
    seq: Number(r.seq),
    ...(r.completed_at ? { completedAt: r.completed_at.toISOString() } : {}),
  };
}

/** What a pg error means for a person: the server, the password, a permission, a timeout. */
export function why(err: unknown, timeoutMs: number): string {
  const e = err as { code?: string; message?: string };
  const message = String(e.message ?? err);
  if (e.code === 'ECONNREFUSED') return `connection refused (${maskText(message)}): is the server up, and the URL right?`;
  if (e.code === 'ENOTFOUND' || e.code === 'EAI_AGAIN') return `no such host (${maskText(message)})`;
  if (/timeout|timed out/i.test(message)) return `no answer within ${timeoutMs} ms (${maskText(message)})`;
  if (e.code === '28P01' || e.code === '28000') return `${maskText(message)} (the password comes from the URL, PGPASSWORD or ~/.pgpass)`;
  if (e.code === '42501') return `${maskText(message)} (ask the team's database owner to run 'paygate ledger init --grant ROLE')`;
  return maskText(message);
}

export function reading(records: SubmissionRecord[]): LedgerReading {
  return { records, damages: [], acknowledged: new Set(), tornLines: 0 };
}
