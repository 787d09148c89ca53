import { readBatchRows, readPayerRows, recordBatchRows } from './batchRows';
import type { LedgerFs } from './ledgerFs';
import type { SubmissionRecord } from './records';
import { gatewayKeyOfOldRow, withGatewayKeys, type BatchRowKeys } from './rowKeys';
import { payerKey, withPayerKeys, type PayerRecord } from './samePayer';
import { LedgerSecret } from './secret';
import { readSentTable, SentTable } from './sentTable';

// The file ledger's sent rows (ledger.ts): each batch's row records (batches/: batchRows.ts), the key they
// are made with (secret.ts), the rows as the guard's index keys them, and the earlier rows of a payer.

/** Rows of the batches kept in memory: more than the tail past the index's watermark holds before it is sealed. */
const KEPT_ROWS = 8192;

export class RowRecords {
  /**
   * Batches' row keys this process recorded or read lately (a file is written once and never changed), so
   * lookups that read the tail past the index's watermark, and the seal after a send, do not read them again.
   */
  private readonly kept = new Map<string, BatchRowKeys>();
  private keptRows = 0;
  /** The key never changes once made: read once per instance. */
  private key?: LedgerSecret;

  constructor(
    private readonly fs: LedgerFs,
    private readonly directory: string,
  ) {}

  /** The ledger's key for row keys; `create` makes it when missing (a send), else undefined (a reader). */
  secret(create: boolean): Promise<LedgerSecret | undefined> {
    return create ? LedgerSecret.readOrCreate(this.fs, this.directory) : LedgerSecret.read(this.fs, this.directory);
  }

  /** Records a batch's row keys before it is sent (batchRows.ts); a ledger error is thrown before anything is sent. */
  async record(contentHash: string, keys: BatchRowKeys): Promise<void> {
    await recordBatchRows(this.fs, this.directory, contentHash, keys);
    this.keep(contentHash, keys);
  }

  /** A sent batch's row keys, or undefined when the ledger keeps none (sent before row keys). */
  async batchRows(contentHash: string): Promise<BatchRowKeys | undefined> {
    const kept = this.kept.get(contentHash);
    if (kept) return kept;
    const read = await readBatchRows(this.fs, this.directory, contentHash);
    if (read) this.keep(contentHash, read);
    return read;
  }

  /** A sent batch's row keys as `paygate diff` compares with them (sentTable.ts): read compactly, not kept. */
  async sentTable(contentHash: string): Promise<SentTable | undefined> {
    const kept = this.kept.get(contentHash);
    return kept ? SentTable.of(kept) : readSentTable(this.fs, this.directory, contentHash);
  }

  /** Keeps a batch's rows; the oldest are let go past KEPT_ROWS rows (the newest batch is kept, whatever its size). */
  private keep(contentHash: string, rows: BatchRowKeys): void {
    if (this.kept.has(contentHash)) return;
    this.kept.set(contentHash, rows);
    this.keptRows += rows.rows.length;
    for (const [hash, old] of this.kept) {
      if (this.keptRows <= KEPT_ROWS || this.kept.size === 1) break;
      this.kept.delete(hash);
      this.keptRows -= old.rows.length;
    }
  }

  /**
   * A batch's rows as the guard's index keys them: each by its row key and, for a row an older version
   * keyed by its cell as written (`GYM-0001 `), by its gateway key too (rowKeys.ts), so every index built
   * from the batches (a rebuild, which a ledger of an earlier version gets once) finds it by the id as the
   * gateway reads it; and once per distinct card and schedule by its payer key (samePayer.ts).
   */
  async indexed(contentHash: string): Promise<BatchRowKeys | undefined> {
    const rows = await this.batchRows(contentHash);
    this.key ??= rows && (await this.secret(false));
    return rows && withPayerKeys(this.key ? withGatewayKeys(rows, this.key) : rows);
  }

  /**
   * The earlier sent rows with each of `fingerprints` (card and schedule: samePayer.ts), every target and
   * outcome, each with a submission that held it: the index's payer entries (`recordsOfRows`) name the
   * contents, their row records the rows. Fingerprints no submission held are absent.
   */
  async payers(
    fingerprints: ReadonlySet<string>,
    recordsOfRows: (keys: ReadonlySet<string>) => Promise<Map<string, SubmissionRecord[]>>,
  ): Promise<Map<string, PayerRecord[]>> {
    const out = new Map<string, PayerRecord[]>();
    if (fingerprints.size === 0) return out;
    const byKey = await recordsOfRows(new Set([...fingerprints].map(payerKey)));
    const byHash = new Map<string, Map<string, SubmissionRecord>>();
    for (const records of byKey.values())
      for (const r of records) {
        let ofHash = byHash.get(r.contentHash);
        if (!ofHash) byHash.set(r.contentHash, (ofHash = new Map()));
        ofHash.set(r.id, r);
      }
    for (const [hash, records] of byHash) {
      // Only the rows of these payers are read out of a batch not in memory (readPayerRows): not kept.
      const rows = this.kept.get(hash) ?? (await readPayerRows(this.fs, this.directory, hash, fingerprints));
      if (!rows) continue;
      this.key ??= await this.secret(false);
      for (const row of rows.rows) {
        if (!fingerprints.has(row.fingerprint)) continue;
        const key = (this.key && gatewayKeyOfOldRow(this.key, row)) ?? row.key;
        let list = out.get(row.fingerprint);
        if (!list) out.set(row.fingerprint, (list = []));
        for (const record of records.values()) list.push({ key, orderId: row.orderId, record });
      }
    }
    return out;
  }
}
