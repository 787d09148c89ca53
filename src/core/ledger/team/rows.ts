import type { SubmissionRecord } from '../records';

// A submission as the team ledger's table holds it, and how it is read back as a record.

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

/** The columns a Row is selected with (the submissions table as `s`). */
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
