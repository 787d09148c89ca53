import { batchContentHash, legacyContentHashes } from '../csv/canonical';
import { alreadySentMessage, findAlreadySent, rowRefs, type Ledger, type Target } from '../ledger';
import type { Batch } from './batch';
import { stripCvvEdits } from './batchEdits';
import { CodeInfo, Codes } from './codes';
import type { LintDiagnostic } from './types';

// The two rules that read the submission ledger, the same for `paygate lint` and the language server: the
// linter itself stays pure (text in, problems out), and a face with a ledger adds these.
// - `already-sent` (error) on the client-orderid cell of a row already sent to the active target.
// - `cvv-after-send` (warning) on each non-empty cvv2 cell of a batch whose content the ledger records as
//   accepted (anywhere): PCI DSS 3.3.1.2 forbids keeping the CVV once the payment is authorised.

const CVV = 'cvv2';

export interface LedgerCheckOptions {
  /** The active environment and endpoint: without one, no already-sent check. */
  target?: Target;
  /** The file's text as read from disk, when the batch's text is an editor's buffer (older hashes). */
  raw?: string;
  /** Already-sent problems listed at most (the rest counted); all by default. */
  max?: number;
}

export interface LedgerFindings {
  diagnostics: LintDiagnostic[];
  /** Already-sent rows not listed (beyond `max`). */
  omitted: number;
}

/** Both checks against `ledger`; nothing when the ledger has never recorded a row or an accepted batch. */
export async function ledgerDiagnostics(ledger: Ledger, batch: Batch, options: LedgerCheckOptions = {}): Promise<LedgerFindings> {
  const diagnostics: LintDiagnostic[] = [];
  let omitted = 0;
  const secret = options.target ? await ledger.secret(false) : undefined;
  if (options.target && secret) {
    const refs = rowRefs(batch, secret);
    const sent = await findAlreadySent(ledger, refs, options.target);
    const at = new Map(refs.map((r) => [r.line, r]));
    const max = options.max ?? Infinity;
    for (const row of sent) {
      if (diagnostics.length >= max) {
        omitted++;
        continue;
      }
      const ref = at.get(row.line)!;
      diagnostics.push({
        code: Codes.alreadySent,
        severity: CodeInfo[Codes.alreadySent].severity,
        message: alreadySentMessage(row),
        range: batch.csv.index.range(ref.start, ref.end),
        columnName: 'client-orderid',
        fixes: [],
      });
    }
  }
  if (await acceptedContent(ledger, batch, options.raw)) for (const d of cvvAfterSend(batch)) diagnostics.push(d);
  return { diagnostics, omitted };
}

/** Whether the ledger records this batch's content (today's hash or an older one) as accepted. */
export async function acceptedContent(ledger: Ledger, batch: Batch, raw?: string): Promise<boolean> {
  if (!batch.columnIndex.has(CVV)) return false;
  const text = batch.csv.text;
  const key = { contentHash: batchContentHash(text), legacyHashes: legacyContentHashes(text, raw), environment: '', endpointId: '' };
  return (await ledger.guardView(key)).records.some((r) => r.outcome === 'accepted');
}

/** cvv-after-send on every non-empty cvv2 cell, each offering to empty them all. */
export function cvvAfterSend(batch: Batch): LintDiagnostic[] {
  const edits = stripCvvEdits(batch);
  const fix = { title: 'Empty every cvv2 value (the column stays)', edits, safe: false };
  return edits.map((e) => ({
    code: Codes.cvvAfterSend,
    severity: CodeInfo[Codes.cvvAfterSend].severity,
    message:
      'this batch was accepted: its CVVs must not be kept after authorisation (PCI DSS 3.3.1.2). Empty the cvv2 values (paygate fix --strip-cvv)',
    range: e.range,
    columnName: CVV,
    fixes: [fix],
  }));
}
