import { FINGERPRINTED, fingerprintText, ORDER_ID, type OrderIdAt, type PayerCellsAt } from '../ledger/rowKeys';
import { gatewayOrderId } from '../orderId';
import type { RowFacts, RowFactsListener, TrustedRow } from '../rules/rowFacts';

// What lint's own pass over the rows keeps for the ledger's checks (ledgerChecks.ts), so a lint with a
// ledger reads each row once, as one without: each row's client-orderid cell as the lint told it
// (already-sent's keys), and for every trusted row with an id the text its fingerprint is made of
// (same-payer). Nothing is hashed here: the ledger's key is read by the checks alone, which make a row's
// fingerprint only when it is looked up (a row told already-sent is not).

export class LintedRows {
  /** The rows whose client-orderid passed its own checks, as the lint read it. */
  readonly orderIds: OrderIdAt[] = [];
  /** Every trusted row with a client-orderid (whether or not it passed its checks) and its fingerprint's text. */
  readonly payers: PayerCellsAt[] = [];
  /** The cells of FINGERPRINTED and of the client-orderid, by index (known at the first trusted row). */
  private at?: readonly (number | undefined)[];
  private idColumn = -1;

  /** The listener to give the lint (LintOptions.onRow). */
  readonly onRow: RowFactsListener = (_record, _rowNumber, facts, trusted) => {
    if (facts.orderId !== undefined) this.orderIds.push({ orderId: facts.orderId, start: facts.orderIdStart, end: facts.orderIdEnd });
    if (trusted) this.keep(facts, trusted);
  };

  private keep(facts: RowFacts, { cells, columnIndex }: TrustedRow): void {
    if (!this.at) {
      this.at = FINGERPRINTED.map((c) => columnIndex.get(c));
      this.idColumn = columnIndex.get(ORDER_ID) ?? -1;
    }
    const id = this.idColumn;
    if (id < 0) return;
    let { orderId, orderIdStart: start, orderIdEnd: end } = facts;
    if (orderId === undefined) {
      // An id cell that failed its own checks (too long, a character the gateway refuses): same-payer still
      // looks at the row, by the cell as written (its key is made from its gateway reading).
      orderId = cells.value(id);
      if (gatewayOrderId(orderId) === '') return;
      start = cells.bounds[2 * id];
      end = cells.bounds[2 * id + 1];
    }
    const text = fingerprintText(this.at.map((i) => (i === undefined ? '' : cells.value(i))));
    this.payers.push({ orderId, start, end, text });
  }
}
