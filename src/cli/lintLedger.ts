import type { LedgerStore, Target } from '../core/ledger';
import type { LintedRows } from '../core/ledgerLint/lintedRows';
import { ledgerDiagnostics } from '../core/ledgerLint/ledgerChecks';
import type { LintResult } from '../core/rules/lint';
import type { Severity } from '../core/rules/codes';
import type { CliContext } from './context';
import { activeTarget, type LedgerTargetOptions } from './ledgerTarget';

// Also what lint loads, from this bundle, to read a configuration's maximum payload (batch-too-large).
export { activeMaxPayload } from './ledgerTarget';
import { openLedger } from './ledger';
import { said, typed } from '../core/output';
import { saidOut } from './output';

// `paygate lint` with a ledger present: already-sent (to the environment and endpoint `paygate submit`
// would send to) and cvv-after-send added to each file's problems. A configuration that cannot be read
// skips already-sent only; a ledger that cannot be read skips both, saying so.

export interface LintLedger {
  /**
   * Adds the ledger's findings to `result` (within `maxListed` problems); the file's omitted counts.
   * `rows`: what the lint's own pass kept of the rows (their client-orderid cells, their fingerprints' text).
   */
  add(result: LintResult, name: string, maxListed: number, rows: LintedRows): Promise<LintResult['omitted']>;
}

export function ledgerFor(values: LedgerTargetOptions, ctx: CliContext): LintLedger {
  const ledger = openLedger(ctx, values.state);
  const found = activeTarget(ctx, values);
  if (!found.ok) ctx.stderr(saidOut(said`paygate lint: already-sent is not checked: ${typed.text(found.message)}\n`));
  const target = found.ok ? found.value : undefined;
  return { add: (result, name, max, rows) => addFindings(ledger, target, result, name, max, rows, ctx) };
}

async function addFindings(
  ledger: LedgerStore,
  target: Target | undefined,
  result: LintResult,
  name: string,
  maxListed: number,
  rows: LintedRows,
  ctx: CliContext,
): Promise<Record<Severity, number> | undefined> {
  try {
    const max = Math.max(0, maxListed - result.diagnostics.length);
    const found = await ledgerDiagnostics(ledger, result.batch, { target, max, orderIds: rows.orderIds, payers: rows.payers });
    for (const d of found.diagnostics) result.diagnostics.push(d);
    if (found.omitted === 0 && found.omittedWarnings === 0) return result.omitted;
    const omitted = result.omitted ?? { error: 0, warning: 0, information: 0 };
    return { ...omitted, error: omitted.error + found.omitted, warning: omitted.warning + found.omittedWarnings };
  } catch (err) {
    ctx.stderr(
      saidOut(
        ledger.kind === 'file'
          ? said`paygate lint: ${typed.text(name)}: the submission ledger ${typed.text(ledger.directory)} could not be read (${typed.text((err as Error).message)}); already-sent, same-payer and cvv-after-send are not checked\n`
          : said`paygate lint: ${typed.text(name)}: ${typed.text((err as Error).message)}; the resend guard could not be checked (already-sent, same-payer and cvv-after-send are not checked)\n`,
      ),
    );
    return result.omitted;
  }
}
