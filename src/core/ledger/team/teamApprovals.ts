import type pg from 'pg';
import type { Approval } from '../store';

// Maker-checker's rows in the team ledger (../approvals.ts decides what they allow), each query in the
// caller's transaction (teamLedger.ts). One approval per role, content and environment.

export async function approveIn(
  c: pg.PoolClient,
  environment: string,
  contentHash: string,
  host: string,
): Promise<{ added: boolean; role: string }> {
  const inserted = await c.query<{ role: string }>(
    `INSERT INTO paygate_approvals (environment, content_hash, host) VALUES ($1, $2, $3)
     ON CONFLICT (environment, content_hash, role) DO NOTHING RETURNING role`,
    [environment, contentHash, host],
  );
  const role = inserted.rows[0]?.role ?? (await c.query<{ r: string }>('SELECT current_user AS r')).rows[0].r;
  return { added: inserted.rowCount === 1, role };
}

interface ApprovalRow {
  environment: string;
  content_hash: string;
  role: string;
  host: string;
  at: Date;
  mine: boolean;
}

const approvalOf = (r: ApprovalRow): Approval => ({ role: r.role, host: r.host, at: r.at.toISOString(), mine: r.mine });

export async function approvalsIn(c: pg.PoolClient, environment: string, contentHash: string): Promise<Approval[]> {
  const rows = await c.query<ApprovalRow>(
    `SELECT environment, content_hash, role, host, at, role = current_user AS mine FROM paygate_approvals
     WHERE environment = $1 AND content_hash = $2 ORDER BY at, role`,
    [environment, contentHash],
  );
  return rows.rows.map(approvalOf);
}

export async function allApprovalsIn(c: pg.PoolClient): Promise<Map<string, Approval[]>> {
  const rows = await c.query<ApprovalRow>(
    'SELECT environment, content_hash, role, host, at, role = current_user AS mine FROM paygate_approvals ORDER BY at, role',
  );
  const out = new Map<string, Approval[]>();
  for (const r of rows.rows) {
    const key = `${r.environment}\0${r.content_hash}`;
    out.set(key, [...(out.get(key) ?? []), approvalOf(r)]);
  }
  return out;
}
