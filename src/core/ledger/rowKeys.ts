import { gatewayOrderId } from '../orderId';
import { maskText } from '../output';
import type { Batch } from '../rules/batch';
import type { LedgerSecret } from './secret';

// What the ledger keeps of each row of a batch it sends, and nothing from which a card number or a CVV
// could be read back: the row key (a keyed hash of its client-orderid under the ledger's key: secret.ts), the
// client-orderid itself masked as every output is (first 6 / last 4 of anything that looks like a card
// number), its line, a fingerprint of its card and schedule (an HMAC of the card number with the row's
// card type, currency, amounts and schedule columns: the same row sent again has the same fingerprint),
// and a short keyed hash of each value per column for `paygate diff` (8 hex digits: enough to tell a
// changed value from an unchanged one, never to recover it without the key). cvv2 is never hashed, kept or
// compared: PCI DSS forbids keeping it after authorisation in any form.

export const ORDER_ID = 'client-orderid';
export const CVV = 'cvv2';
const CARD = 'credit-card-number';
/** The columns of a row's schedule and amounts: with the card, what the fingerprint covers. */
const SCHEDULE = [
  'rp_card_type',
  'currency',
  'amount',
  'amount-from',
  'amount-to',
  'amount-sequence',
  'period',
  'interval',
  'start-date',
  'finish-date',
  'max-repeats-number',
] as const;
/** Stands for cvv2 in a row's value hashes. */
export const NOT_KEPT = '-';

export interface RowKey {
  /** Keyed hash of the client-orderid (24 hex digits, 96 bits): the index's key, the same in every environment. */
  key: string;
  /** The client-orderid, masked. */
  orderId: string;
  /** 1-based line where the row starts. */
  line: number;
  /** HMAC of the card number and the schedule (32 hex digits). */
  fingerprint: string;
  /** One 8-hex-digit HMAC per column of `columns`, space-separated (`-` for cvv2). */
  values: string;
  /** The row hash (rowHash: 16 hex digits), kept since issue 40: absent in rows recorded before. */
  row?: string;
}

export interface BatchRowKeys {
  /** The batch's columns in header order (resolved names; an unknown header cell as written). */
  columns: string[];
  rows: RowKey[];
}

/** The row key of a client-orderid: of the id as the gateway reads it (orderId.ts), whatever the cell holds around it. */
export function orderKey(secret: LedgerSecret, orderId: string): string {
  return rawOrderKey(secret, gatewayOrderId(orderId));
}

/**
 * The key of these very characters: what versions before the gateway's reading recorded (a key of the
 * cell as written). The same as orderKey for every id that is its own gateway reading.
 */
export function rawOrderKey(secret: LedgerSecret, orderId: string): string {
  return secret.keyedHash(orderKeyText(orderId), 24);
}

/** orderKey as a keyedDigest: its 24 hex digits are the digest's first 12 bytes (sentTable.ts looks rows up by them). */
export function orderKeyDigest(secret: LedgerSecret, orderId: string): string {
  return secret.keyedDigest(orderKeyText(gatewayOrderId(orderId)));
}

const orderKeyText = (orderId: string) => `client-orderid\0${orderId}`;

/**
 * The gateway's key of a row an older version recorded by the key of its cell as written (a client-orderid
 * with whitespace around it, an invisible character, NFD), when the ledger can tell: the masked id it kept
 * is the cell itself exactly when its own raw key is the recorded one (a 96-bit keyed hash: no chance
 * match). Undefined for a row already keyed as the gateway reads it, and for one whose id was masked
 * (then its characters are gone: such a row is found again only when sent under the very same cell).
 */
export function gatewayKeyOfOldRow(secret: LedgerSecret, row: Pick<RowKey, 'key' | 'orderId'>): string | undefined {
  const read = gatewayOrderId(row.orderId);
  if (read === row.orderId || read === '') return undefined;
  const key = rawOrderKey(secret, read);
  return key !== row.key && rawOrderKey(secret, row.orderId) === row.key ? key : undefined;
}

/** The rows, and for each older row whose gateway key differs (gatewayKeyOfOldRow) the same row under that key. */
export function withGatewayKeys(rows: BatchRowKeys, secret: LedgerSecret): BatchRowKeys {
  let extra: RowKey[] | undefined;
  for (const r of rows.rows) {
    const key = gatewayKeyOfOldRow(secret, r);
    if (key) (extra ??= []).push({ ...r, key });
  }
  return extra ? { columns: rows.columns, rows: [...rows.rows, ...extra] } : rows;
}

export function valueHash(secret: LedgerSecret, column: string, value: string): string {
  return secret.keyedHash(valueHead(column) + value, 8);
}

/** What a value of `column` is prefixed with before it is hashed (valueHash). */
export const valueHead = (column: string) => `value\0${column}\0`;

/** The columns the fingerprint covers, in the order their cells are hashed: the card, then the schedule. */
export const FINGERPRINTED: readonly string[] = [CARD, ...SCHEDULE];

/** The text a fingerprint is the HMAC of: the cells of FINGERPRINTED (a missing one empty), after a tag. */
export function fingerprintText(cells: readonly string[]): string {
  return ['fingerprint', ...cells].join('\0');
}

/** The fingerprint of a fingerprintText: HMAC-SHA256 under the ledger's key, 32 hex digits. */
export function fingerprintOfText(secret: LedgerSecret, text: string): string {
  return secret.mac(text, 32);
}

export function fingerprint(secret: LedgerSecret, value: (column: string) => string | undefined): string {
  return fingerprintOfText(secret, fingerprintText(FINGERPRINTED.map((c) => value(c) ?? '')));
}

/**
 * fingerprint for the rows of one batch: the columns it covers are looked up once, and each row's cells
 * read by position (the same text hashed, so the same fingerprint).
 */
export function fingerprintOf(secret: LedgerSecret, columnIndex: ReadonlyMap<string, number>): (values: readonly string[]) => string {
  const at = FINGERPRINTED.map((c) => columnIndex.get(c));
  return (values) => fingerprintOfText(secret, fingerprintText(at.map((i) => (i === undefined ? '' : (values[i] ?? '')))));
}

/**
 * The text a row hash is of: the row's fields as written in the file (quotes and all, from the first
 * field's start to the last one's end, `bounds` as RowCells and CsvRecord keep them), the fields of cvv2
 * (`cvv`: their indices, ascending) cut out, each piece after its length. Two rows of one header with the
 * same text hold the same value in every column but cvv2, so `paygate diff` takes a row whose hash is
 * unchanged as unchanged without comparing its values; any other row is compared value by value, as before.
 */
export function rowHashText(text: string, bounds: ArrayLike<number>, count: number, cvv: readonly number[]): string {
  let out = 'row';
  let from = bounds[0];
  for (const c of cvv) {
    out += `\0${bounds[2 * c] - from}\0${text.slice(from, bounds[2 * c])}`;
    from = bounds[2 * c + 1];
  }
  const end = bounds[2 * count - 1];
  return `${out}\0${end - from}\0${text.slice(from, end)}`;
}

/** The hex digits a row hash keeps (64 bits: a changed row taken for unchanged is a 1 in 2^64 chance). */
export const ROW_HASH_DIGITS = 16;

/** The header's columns as the row keys name them. */
function columnsOf(batch: Batch): string[] {
  return batch.headerCells.map((cell) => cell.column ?? cell.raw);
}

/** A row's key with where its client-orderid cell is in the text: what the already-sent check needs. */
export interface RowRefAt {
  key: string;
  orderId: string;
  line: number;
  /** Offsets of the client-orderid field (its quotes included). */
  start: number;
  end: number;
}

/** A row's client-orderid and where its cell is, as the linter tells them (RowFacts), or as read from a batch. */
export interface OrderIdAt {
  orderId: string;
  start: number;
  end: number;
}

/** A trusted row with a client-orderid as lint's own pass read it, for same-payer (ledgerLint/lintedRows.ts). */
export interface PayerCellsAt extends OrderIdAt {
  /** The row's fingerprintText: its fingerprint is made only when it is looked up. */
  text: string;
}

/** The keys (one keyed hash a row, nothing else) of every trusted row with a client-orderid: for lookups. */
export function rowRefs(batch: Batch, secret: LedgerSecret): RowRefAt[] {
  const idColumn = batch.columnIndex.get(ORDER_ID);
  const out: RowRefAt[] = [];
  if (idColumn === undefined) return out;
  for (const row of batch.rows) {
    if (!row.trusted) continue;
    const id = row.record.values[idColumn];
    if (id === undefined || gatewayOrderId(id) === '') continue;
    const start = row.record.fieldStart(idColumn);
    out.push({
      key: orderKey(secret, id),
      orderId: maskText(id),
      line: batch.csv.index.positionAt(row.record.start).line + 1,
      start,
      end: row.record.fieldEnd(idColumn),
    });
  }
  return out;
}

/** The keys of every row that can be trusted (no CSV syntax problem, as many fields as the header) and has a client-orderid. */
export function batchRowKeys(batch: Batch, secret: LedgerSecret): BatchRowKeys {
  const columns = columnsOf(batch);
  // A column's values repeat (currency, period, empty cells): each distinct one is hashed once, up to a bound.
  const cache = columns.map(() => new Map<string, string>());
  const hashOf = (i: number, v: string) => {
    let h = cache[i].get(v);
    if (h === undefined) {
      h = valueHash(secret, columns[i], v);
      if (cache[i].size < 10_000) cache[i].set(v, h);
    }
    return h;
  };
  const idColumn = batch.columnIndex.get(ORDER_ID);
  const rows: RowKey[] = [];
  if (idColumn === undefined) return { columns, rows };
  const cvv = columns.flatMap((c, i) => (c === CVV ? [i] : []));
  for (const row of batch.rows) {
    if (!row.trusted) continue;
    const values = row.record.values;
    const id = values[idColumn];
    if (id === undefined || gatewayOrderId(id) === '') continue;
    rows.push({
      key: orderKey(secret, id),
      orderId: maskText(id),
      line: batch.csv.index.positionAt(row.record.start).line + 1,
      fingerprint: fingerprint(secret, (c) => row.value(c)),
      values: values.map((v, i) => (columns[i] === CVV ? NOT_KEPT : hashOf(i, v))).join(' '),
      row: secret.keyedHash(rowHashText(batch.csv.text, batch.csv.cells(row.record.index).bounds, values.length, cvv), ROW_HASH_DIGITS),
    });
  }
  return { columns, rows };
}
