import { joinSaid, ourWords, said, typed, type Said } from '../output/said';
import type { Approval, LedgerStore } from './store';

// Maker-checker: an environment with `"approvals": N` sends a batch only once N members other than the
// submitter have approved that exact content (its content hash, so any edit voids earlier approvals) for
// that environment. Approvals are rows of the team ledger; the file ledger, one person's, cannot hold them,
// so such an environment refuses to send from it.

/** `problem`: why not, as a `Said`, without "; nothing was sent" (each face says it its own way). */
export type ApprovalCheck = { ok: true; approvals: Approval[] } | { ok: false; problem: Said };

/** "bob (2027-03-12 10:00 UTC), carol (…)": who approved (free text), and when (a date). */
export function approvalsText(list: readonly Approval[]): Said {
  return joinSaid(
    list.map((a) => said`${typed.text(a.role)} (${typed.date(`${a.at.slice(0, 10)} ${a.at.slice(11, 16)}`)} UTC)`),
    ', ',
  );
}

/** Whether a send of `contentHash` to `environment` has the approvals it needs; a refusal in words when not. */
export async function checkApprovals(
  ledger: LedgerStore,
  environment: string,
  contentHash: string,
  needed: number,
  file: string,
): Promise<ApprovalCheck> {
  const env = typed.text(environment);
  if (ledger.kind !== 'team')
    return {
      ok: false,
      problem: said`"${env}" needs ${typed.count(needed)} approval(s) by other members before a send, and approvals live in the team ledger, not in this machine's file ledger: set PAYGATE_LEDGER_URL (docs/submissions.md, "One ledger for a team")`,
    };
  const all = await ledger.approvals(environment, contentHash);
  const others = all.filter((a) => !a.mine);
  if (others.length >= needed) return { ok: true, approvals: others };
  const own = ourWords(all.some((a) => a.mine) ? ' (your own approval does not count)' : '');
  const have = others.length > 0 ? said`: approved by ${approvalsText(others)}` : ourWords('');
  return {
    ok: false,
    problem: said`"${env}" needs ${typed.count(needed)} approval(s) of this exact content (sha256 ${typed.hash(contentHash, 12)}…) by members other than you; it has ${typed.count(others.length)}${have}${own}. An edited file needs new approvals. Ask them to run 'paygate approve ${typed.text(file)} --env ${env}'`,
  };
}
