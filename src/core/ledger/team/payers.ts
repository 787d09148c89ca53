import type { PayerRecord } from '../samePayer';
import { COLUMNS, recordOf, type Row } from './rows';

// The same payer in the team ledger (samePayer.ts): the sent batches' rows with a fingerprint, read from
// paygate_batch_rows' jsonb (the rows as the file ledger keeps them, made with the team key), each joined
// with every submission of its content. The batches holding any of the fingerprints are found through a
// GIN index on their rows' fingerprints (schema version 2), so the lookup does not read every sent batch.

export type PayerRow = Row & { fp: string; row_key: string; order_id: string };

export const PAYERS_QUERY = `SELECT r.row->>'fingerprint' AS fp, r.row->>'key' AS row_key, r.row->>'orderId' AS order_id, ${COLUMNS}
  FROM paygate_batch_rows b
  CROSS JOIN LATERAL jsonb_array_elements(b.batch->'rows') AS r(row)
  JOIN paygate_submissions s ON s.content_hash = b.content_hash
  WHERE jsonb_path_query_array(b.batch, '$.rows[*].fingerprint') ?| $1::text[] AND r.row->>'fingerprint' = ANY($1)`;

/** The query's rows by fingerprint. */
export function payerRecords(rows: readonly PayerRow[]): Map<string, PayerRecord[]> {
  const out = new Map<string, PayerRecord[]>();
  for (const r of rows) {
    const list = out.get(r.fp) ?? [];
    list.push({ key: r.row_key, orderId: r.order_id, record: recordOf(r) });
    out.set(r.fp, list);
  }
  return out;
}
