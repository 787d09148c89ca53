import { recordedFacts } from '../gateway/outcomes';
import type { DamageMark, LocalGatewayRef, SubmissionRecord } from './records';

// What every face says about a damaged ledger, and about the local gateway a send went to: the same words
// in the terminal and the editor.

export function damageText(d: DamageMark, ledgerFile: string): string {
  const where = ledgerFile === '' ? 'The submission ledger' : `The submission ledger ${ledgerFile}`;
  const which =
    d.contentHashes.length > 0 && d.unidentified === 0
      ? `the batch(es) named there (sha256 ${d.contentHashes.map((h) => h.slice(0, 12)).join(', ')}) may have been sent`
      : 'any batch may have been sent';
  return (
    `${where} was damaged: ${d.unreadableLines} unreadable line(s) were moved aside with the whole file to ${d.movedTo}; ` +
    `${d.keptLines} readable line(s) were kept. Earlier sends recorded in the unreadable part cannot be vouched for: ${which}. ` +
    'Check in the gateway what was created before sending again; nothing was sent.'
  );
}

/** "/home/you/.local/state/paygate/gateway (run 3f9c…), its date 31.12.2026": which local gateway, and when. */
export function localGatewayPlace(g: LocalGatewayRef): string {
  const run = g.startId === '' ? '' : ` (run ${g.startId})`;
  return `${g.stateDir}${run}${g.today ? `, its date ${g.today}` : ''}`;
}

export const localGatewayText = (g: LocalGatewayRef) => `the local gateway of ${localGatewayPlace(g)}`;

/**
 * A completed record's outcome as the ledger's lists say it (`paygate history`, the Submissions view):
 * the outcome table's label, the kind and the HTTP status; an outcome whose payments may exist unseen
 * says so.
 */
export function recordedOutcomeText(r: Pick<SubmissionRecord, 'outcome' | 'kind' | 'httpStatus'>): string {
  const facts = recordedFacts(r.outcome);
  const label = facts?.label ?? `${r.outcome ?? '?'} (not known to this version)`;
  const text = `${label}${r.kind ? ` (${r.kind})` : ''}${r.httpStatus !== undefined ? ` HTTP ${r.httpStatus}` : ''}`;
  return facts?.unknown ? `${text}: the gateway may have created the payments; check before sending again` : text;
}
