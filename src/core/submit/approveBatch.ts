import type { Environment } from '../gateway/environments';
import { nothingSent, prepareSubmission } from '../gateway/prepare';
import { approvalsText } from '../ledger/approvals';
import { ourWords, said, typed, type Said } from '../output/said';
import type { Approval, TeamStore } from '../ledger/store';

// The checker's half of maker-checker, the same for `paygate approve` and the editor's "PayGate: Approve
// Batch": the lint gate and the canonical content (the content hash a submit checks, so any edit voids an
// approval), then this member's approval in the team ledger (the database role), and every approval of that
// content for the environment. Nothing here prints or asks; approvedLines are the words both faces show.

export type ApproveResult =
  | { status: 'refused'; message: Said }
  | {
      status: 'approved';
      /** False: this member had approved this content before (nothing changed). */
      added: boolean;
      role: string;
      contentHash: string;
      /** Every approval of this content for the environment, oldest first. */
      approvals: Approval[];
      /** The approvals the environment needs ("approvals": N; 0 when it sets none). */
      needed: number;
    };

export async function approveBatch(
  store: Pick<TeamStore, 'approve' | 'approvals'>,
  environment: Pick<Environment, 'name' | 'approvals'>,
  text: string,
  name: string,
  host: string,
): Promise<ApproveResult> {
  const prepared = prepareSubmission(text, name);
  if (prepared.refusal) return { status: 'refused', message: said`${nothingSent(prepared.refusal.problem)}; not approved` };
  const done = await store.approve(environment.name, prepared.contentHash, host);
  const approvals = await store.approvals(environment.name, prepared.contentHash);
  return { status: 'approved', ...done, contentHash: prepared.contentHash, approvals, needed: environment.approvals ?? 0 };
}

/** What an approval came to, in two lines (file and environment as the face shows them), each a `Said`. */
export function approvedLines(r: Extract<ApproveResult, { status: 'approved' }>, file: string, environment: string): [Said, Said] {
  const rule =
    r.needed > 0
      ? said` (it needs ${typed.count(r.needed)} by members other than the one who submits; your own does not count for your send)`
      : ourWords('');
  const env = typed.text(environment);
  return [
    said`${ourWords(r.added ? 'Approved' : 'Approved before')}: ${typed.text(file)} (sha256 ${typed.hash(r.contentHash, 12)}…) for ${env} by ${typed.text(r.role)}.`,
    said`Approvals of this content for ${env}: ${approvalsText(r.approvals)}${rule}.`,
  ];
}
