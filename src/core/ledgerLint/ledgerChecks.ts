import { batchContentHash, legacyContentHashes } from '../csv/canonical';
import {
  alreadySentMessage,
  alreadySentOf,
  findSamePayers,
  orderKey,
  payerKey,
  payerRefs,
  payerRefsOf,
  rowRefs,
  samePayerMessage,
  samePayersOf,
  type PayerRefAt,
  type LedgerStore,
  type RowRefAt,
  type OrderIdAt,
  type PayerCellsAt,
  type SubmissionRecord,
  type Target,
} from '../ledger';
import type { LedgerSecret } from '../ledger/secret';
import { maskText, ourWords, said, type Said } from '../output';
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
    const rows = lookupRows(batch, secret, options);
    const file = options.target && ledger.kind === 'file' ? ledger : undefined;
    // The file ledger's index keeps the payers' entries beside the rows' keys: with a target, both are looked
    // up in one pass over its shards (a lint of 100,000 rows reads each shard once, not twice). So every
    // row's fingerprint is made first; the rows then told already-sent are left out of same-payer, as before.
    const everyPayer = file && rows.payers();
    // Each payer key made once: the lookup and the filter below ask by the same strings. The file ledger
    // takes the keys as a list (no set of 200,000 strings made for a lint of 100,000 rows).
    const payerKeys = everyPayer?.map((p) => payerKey(p.fingerprint));
    const byKey = file
      ? await file.recordsOfRows(payerKeys ? rows.keys.concat(payerKeys) : rows.keys)
      : await ledger.recordsOfRows(new Set(rows.keys));
    const hits = rows.found(byKey);
    accepted = acceptedContents(byKey, rows.keys);
    const sent = options.target ? alreadySentOf(byKey, hits, options.target) : [];
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
      let same;
      if (file && everyPayer && payerKeys) {
        // Only the fingerprints whose payer key the lookup found can have earlier rows: the rest are not
        // asked about (the same answer, without a set of every row's fingerprint).
        const found = everyPayer.filter((p, i) => byKey.has(payerKeys[i]) && !told.has(p.start));
        same =
          found.length > 0
            ? samePayersOf(await file.recordsOfPayers(new Set(found.map((p) => p.fingerprint)), byKey), found, options.target)
            : [];
      } else same = await findSamePayers(ledger, rows.payers(told), options.target);
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

/**
 * The rows the checks look up, with as few objects a row as can be (a lint of 100,000 rows): the keys of
 * the rows' client-orderids as one array of strings, and a row's reference (its masked id, line and cell)
 * made only for the rows the ledger knows. From lint's own pass when it kept the rows, else read from the batch.
 */
function lookupRows(batch: Batch, secret: LedgerSecret, options: LedgerCheckOptions) {
  const index = batch.csv.index;
  const ids = options.orderIds;
  const refs = ids ? undefined : rowRefs(batch, secret);
  const keys = ids ? ids.map((r) => orderKey(secret, r.orderId)) : refs!.map((r) => r.key);
  /**
   * The row keys already made, by the offset of their client-orderid cell (same-payer's rows reuse them).
   * Lint's rows are asked in the batch's order, as its ids are listed: a cursor walks them, no map of every
   * row is made (asked out of order, it starts again from the first: the same answer).
   */
  const keyAt = (): ((start: number) => string | undefined) => {
    if (!ids) {
      const at = new Map<number, string>();
      for (const r of refs!) at.set(r.start, r.key);
      return (start) => at.get(start);
    }
    let i = 0;
    return (start) => {
      if (i > 0 && ids[i - 1].start >= start) i = 0;
      while (i < ids.length && ids[i].start < start) i++;
      return i < ids.length && ids[i].start === start ? keys[i] : undefined;
    };
  };
  return {
    keys,
    /** The rows whose key the ledger holds, in the batch's order (alreadySentOf's rows). */
    found(byKey: ReadonlyMap<string, unknown>): RowRefAt[] {
      const out: RowRefAt[] = [];
      if (byKey.size === 0) return out;
      for (let i = 0; i < keys.length; i++) {
        if (!byKey.has(keys[i])) continue;
        if (refs) out.push(refs[i]);
        else {
          const { orderId, start, end } = ids![i];
          out.push({ key: keys[i], orderId: maskText(orderId), line: index.positionAt(start).line + 1, start, end });
        }
      }
      return out;
    },
    /** Same-payer's rows (but those of `told`). */
    payers(told?: ReadonlySet<number>): PayerRefAt[] {
      return ids && options.payers ? payerRefsOf(options.payers, secret, keyAt(), told) : payerRefs(batch, secret, keyAt(), told);
    },
  };
}

/** A ledger problem on a row's client-orderid cell (already-sent, same-payer): no fix, the row is the problem. */
function onIdCell(batch: Batch, code: Code, message: Said, ref: { start: number; end: number }): LintDiagnostic {
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
function acceptedContents(byKey: ReadonlyMap<string, readonly SubmissionRecord[]>, keys: readonly string[]): Set<string> {
  let out: Set<string> | undefined;
  for (const key of keys) {
    const here = new Set<string>();
    for (const r of byKey.get(key) ?? []) if (r.outcome === 'accepted' && (!out || out.has(r.contentHash))) here.add(r.contentHash);
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
  const fix = { title: ourWords('Empty every cvv2 value (the column stays)'), edits, safe: false };
  return edits.map((e) => ({
    code: Codes.cvvAfterSend,
    severity: CodeInfo[Codes.cvvAfterSend].severity,
    message: said`this batch was accepted: its CVVs must not be kept after authorisation (PCI DSS 3.3.1.2). Empty the cvv2 values (paygate fix --strip-cvv)`,
    range: e.range,
    columnName: CVV,
    fixes: [fix],
  }));
}
