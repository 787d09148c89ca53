import { teamKeyOf } from '../core/ledger/team/key';
import { TeamLedger } from '../core/ledger/team/teamLedger';
import { parseLedgerUrl } from '../core/ledger/team/url';
import type { TeamLedgerTarget } from '../shared/lintProtocol';

// The team ledger already-sent and cvv-after-send read when the client names one (the editor's
// paygate.ledger.url with its secrets, or `paygate lsp` beside $PAYGATE_LEDGER_URL): the same store and
// the same fail-closed errors as submit; a ledger that cannot be used is said, never taken as "nothing sent".

/** The store, or an Error saying why the target names no usable team ledger. */
export function openTeamStore(team: TeamLedgerTarget): TeamLedger | Error {
  if (team.problem !== undefined) return new Error(`the team ledger could not be used: ${team.problem}`);
  const parsed = parseLedgerUrl(team.url);
  if (!parsed.ok) return new Error(parsed.message);
  const key = team.key === undefined ? undefined : teamKeyOf(team.key, 'the team key the editor holds');
  return new TeamLedger({
    url: parsed.url,
    env: { ...process.env, ...(team.password !== undefined ? { PGPASSWORD: team.password } : {}) },
    ...(key?.ok ? { key: key.key } : {}),
    keyProblem:
      key && !key.ok
        ? key.message
        : 'no team key: the editor holds none ("PayGate: Import Team Ledger Key…"), or $PAYGATE_LEDGER_KEY_FILE is not set',
  });
}

/** Whether two targets name the same team ledger with the same secrets. */
export function sameTeam(a: TeamLedgerTarget | undefined, b: TeamLedgerTarget | undefined): boolean {
  return a?.url === b?.url && a?.password === b?.password && a?.key === b?.key && a?.problem === b?.problem;
}
