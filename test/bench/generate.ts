import { ownCard } from '../fixtures/ledger/payers';

// Realistic batches for the bench: SRC and DST rows, every amount mode, quoted descriptions, CRLF.
const HEADER =
  'client-orderid;rp_card_type;order_desc;first-name;last-name;address1;city;zip-code;country;state;phone;email;period;interval;start-date;finish-date;max-repeats-number;amount;amount-from;amount-to;amount-sequence;currency;card-printed-name;credit-card-number;expire-month;expire-year;cvv2;purpose;notify_url';

const CARDS = ['4111111111111111', '5555555555554444', '4000056655665556', '6011111111111117'];

// The amount columns (amount; amount-from; amount-to; amount-sequence) by amount mode: fixed, range, sequence.
const AMOUNTS = [
  ['19.90', '', '', ''],
  ['', '5.00', '15.00', ''],
  ['', '', '', '9.99,19.99,29.99'],
];

/**
 * `rows` rows; `ownCards`: each row a card number of its own (ownCard), as a merchant's customers have, instead
 * of the four example cards in turn (the same-payer check then has a payer a row, as in real batches).
 */
export function generateBatch(rows: number, options: { ownCards?: boolean } = {}): string {
  const out = [HEADER];
  for (let i = 0; i < rows; i++) {
    const id = `ORD-${String(i).padStart(7, '0')}`;
    const card = options.ownCards ? ownCard(`bench/${i}`) : CARDS[i % CARDS.length];
    const mode = i % 3;
    const amounts = AMOUNTS[mode];
    if (i % 5 === 4) {
      out.push(
        [
          id,
          'DST',
          `Payout ${i}`,
          '',
          '',
          '',
          '',
          '',
          '',
          '',
          '',
          '',
          '',
          '',
          '',
          '',
          '',
          '120.00',
          '',
          '',
          '',
          'EUR',
          'PARTNER LTD',
          card,
          '05',
          '2031',
          '',
          '',
          '',
        ].join(';'),
      );
    } else {
      const desc = i % 7 === 0 ? `"Plan ${i}; monthly ""gold"""` : `Plan ${i}`;
      out.push(
        [
          id,
          'SRC',
          desc,
          'Anna',
          'Schmidt',
          `Hauptstrasse ${i % 300}`,
          'Berlin',
          '10115',
          'DE',
          '',
          '+49 30 1234567',
          `anna${i}@example.com`,
          'month',
          '1',
          '',
          '31.12.2031',
          '12',
          ...amounts,
          'EUR',
          'ANNA SCHMIDT',
          card,
          '08',
          '2031',
          '123',
          'Membership',
          '',
        ].join(';'),
      );
    }
  }
  return `${out.join('\r\n')}\r\n`;
}
