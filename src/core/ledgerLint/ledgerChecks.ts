import { batchContentHash, legacyContentHashes } from '../csv/canonical';
import {
  alreadySentMessage,
  alreadySentOf,
  findSamePayers,
  payerKey,
  payerRefs,
  payerRefsOf,
  refsOf,
  rowRefs,
  samePayerMessage,
  samePayersOf,
  type PayerRefAt,
  type LedgerStore,
  type OrderIdAt,
  type PayerCellsAt,
  type SubmissionRecord,
  type Target,
} from '../ledger';
import type { LedgerSecret } from '../ledger/secret';
import type { Batch } from '../rules/batch';
import { stripCvvEdits } from '../rules/batchEdits';
import { CodeInfo, Codes, type Code } from '../rules/codes';
import type { LintDiagnostic } from '../rules/types';

// The two rules that read the submission ledger, the same for `paygate lint` and the language server: the
// linter itself stays pure (text in, problems out), and a face with a ledger adds these.
// - `already-sent` (error) on the client-orderid cell of a row already sent to the active target.
// - `same-payer` (warning) on the client-orderid cell of a row whose card and schedule went to the active
//   target under another id (samePayer.ts); a row already sent under its own id is told that alone.
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
  /** The rows' client-orderid cells as the lint told them (RowFacts): the batch's rows are not read again. */
  orderIds?: readonly OrderIdAt[];
  /** With `orderIds`: every trusted row's id cell and fingerprint text as the lint read them (lintedRows.ts). */
  payers?: readonly PayerCellsAt[];
}

export interface LedgerFindings {
  diagnostics: LintDiagnostic[];
  /** Already-sent rows not listed (beyond `max`). */
  omitted: number;
  /** Same-payer rows not listed (beyond `max`). */
  omittedWarnings: number;
}

/**
 * Both checks against `ledger`; nothing when it has never recorded a row or an accepted batch. The rows'
 * keys are looked up once: already-sent takes the submissions to the target, and only a batch whose rows
 * were in an accepted submission (or a ledger of 0.1, which kept no rows) has its content hashed for
 * cvv-after-send, so a new batch of 100,000 rows is not hashed whole for nothing.
 */
export async function ledgerDiagnostics(ledger: LedgerStore, batch: Batch, options: LedgerCheckOptions = {}): Promise<LedgerFindings> {
  const diagnostics: LintDiagnostic[] = [];
  let omitted = 0;
  let omittedWarnings = 0;
  const secret = await ledger.secret(false);
  let accepted: Set<string> | undefined;
  if (secret) {
    const index = batch.csv.index;
    const refs = options.orderIds
      ? refsOf(options.orderIds, secret, (offset) => index.positionAt(offset).line + 1)
      : rowRefs(batch, secret);
    const keyAt = new Map(refs.map((r) => [r.start, r.key]));
    // The file ledger's index keeps the payers' entries beside the rows' keys: with a target, both are looked
    // up in one pass over its shards (a lint of 100,000 rows reads each shard once, not twice). So every
    // row's fingerprint is made first; the rows then told already-sent are left out of same-payer, as before.
    const file = options.target && ledger.kind === 'file' ? ledger : undefined;
    const everyPayer = file && payerRowsOf(batch, secret, keyAt, options);
    const keys = new Set(refs.map((r) => r.key));
    for (const p of everyPayer ?? []) keys.add(payerKey(p.fingerprint));
    const byKey = await ledger.recordsOfRows(keys);
    accepted = acceptedContents(byKey, refs);
    const sent = options.target ? alreadySentOf(byKey, refs, options.target) : [];
    const max = options.max ?? Infinity;
    for (const row of sent) {
      if (diagnostics.length >= max) {
        omitted++;
        continue;
      }
      diagnostics.push(onIdCell(batch, Codes.alreadySent, alreadySentMessage(row), row.ref));
    }
    if (options.target) {
      const told = new Set(sent.map((row) => row.ref.start));
      const payers = everyPayer ? everyPayer.filter((p) => !told.has(p.start)) : payerRowsOf(batch, secret, keyAt, options, told);
      const same =
        file && payers.length > 0
          ? samePayersOf(await file.recordsOfPayers(new Set(payers.map((p) => p.fingerprint)), byKey), payers, options.target)
          : await findSamePayers(ledger, payers, options.target);
      for (const row of same) {
        if (diagnostics.length >= max) {
          omittedWarnings++;
          continue;
        }
        diagnostics.push(onIdCell(batch, Codes.samePayer, samePayerMessage(row), row.ref));
      }
    }
  }
  if ((accepted === undefined || accepted.size > 0) && (await acceptedContent(ledger, batch, options.raw, accepted)))
    for (const d of cvvAfterSend(batch)) diagnostics.push(d);
  return { diagnostics, omitted, omittedWarnings };
}

/** Same-payer's rows (but those of `told`): from lint's own pass when it kept them, else read from the batch. */
function payerRowsOf(
  batch: Batch,
  secret: LedgerSecret,
  keyAt: ReadonlyMap<number, string>,
  options: LedgerCheckOptions,
  told?: ReadonlySet<number>,
): PayerRefAt[] {
  return options.orderIds && options.payers ? payerRefsOf(options.payers, secret, keyAt, told) : payerRefs(batch, secret, keyAt, told);
}

/** A ledger problem on a row's client-orderid cell (already-sent, same-payer): no fix, the row is the problem. */
function onIdCell(batch: Batch, code: Code, message: string, ref: { start: number; end: number }): LintDiagnostic {
  return {
    code,
    severity: CodeInfo[code].severity,
    message,
    range: batch.csv.index.range(ref.start, ref.end),
    columnName: 'client-orderid',
    fixes: [],
  };
}

/** The contents of accepted submissions that held every one of the rows: the only ones this batch can be. */
function acceptedContents(byKey: ReadonlyMap<string, readonly SubmissionRecord[]>, refs: readonly { key: string }[]): Set<string> {
  let out: Set<string> | undefined;
  for (const ref of refs) {
    const here = new Set<string>();
    for (const r of byKey.get(ref.key) ?? []) if (r.outcome === 'accepted' && (!out || out.has(r.contentHash))) here.add(r.contentHash);
    out = here;
    if (out.size === 0) break;
  }
  return out ?? new Set();
}

/**
 * Whether the ledger records this batch's content (today's hash or an older one) as accepted; `among`:
 * the accepted contents its rows were found in, when the ledger keeps rows (no other can be this one).
 */
export async function acceptedContent(ledger: LedgerStore, batch: Batch, raw?: string, among?: ReadonlySet<string>): Promise<boolean> {
  if (!batch.columnIndex.has(CVV)) return false;
  const text = batch.csv.text;
  const key = {
    contentHash: batchContentHash(text),
    legacyHashes: legacyContentHashes(text, raw, batch.csv),
    environment: '',
    endpointId: '',
  };
  if (among) return [key.contentHash, ...key.legacyHashes].some((h) => among.has(h)) || (await anyAccepted(ledger, key));
  return anyAccepted(ledger, key);
}

async function anyAccepted(ledger: LedgerStore, key: Parameters<LedgerStore['guardView']>[0]): Promise<boolean> {
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
