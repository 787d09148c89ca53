// The one declarative column table (rule book, "Columns"). Checks, hovers, completion and the README's
// rule table are all read from here; nothing else lists columns.

export type Necessity = 'required' | 'required-src' | 'conditional' | 'optional';

/** How a value is checked; see values.ts. */
export type ValueKind =
  | 'text'
  | 'card-type'
  | 'card-number'
  | 'cvv'
  | 'year'
  | 'month'
  | 'decimal'
  | 'decimal-list'
  | 'currency'
  | 'country'
  | 'email'
  | 'period'
  | 'positive-int'
  | 'ip'
  | 'date'
  | 'url'
  | 'state';

export interface ColumnSpec {
  name: string;
  necessity: Necessity;
  /** The rule book's N column, in words. */
  necessityText: string;
  kind: ValueKind;
  /** The rule book's value column, in words. */
  valueText: string;
  /** In characters after unquoting; null = no length check. For decimal-list: per element. */
  maxLength: number | null;
  /** May a DST row carry a value. */
  dst: boolean;
  aliases: readonly string[];
  doc: string;
  /** Values never echoed in messages or hovers: card data is masked, the rest not shown at all. */
  sensitive?: 'card' | 'hidden';
}

const c = (
  name: string,
  necessity: Necessity,
  necessityText: string,
  kind: ValueKind,
  valueText: string,
  maxLength: number | null,
  dst: boolean,
  doc: string,
  extra: Partial<Pick<ColumnSpec, 'aliases' | 'sensitive'>> = {},
): ColumnSpec => ({
  name,
  necessity,
  necessityText,
  kind,
  valueText,
  maxLength,
  dst,
  doc,
  aliases: extra.aliases ?? [],
  sensitive: extra.sensitive,
});

export const COLUMNS: readonly ColumnSpec[] = [
  c(
    'client-orderid',
    'required',
    'Required',
    'text',
    'any text',
    128,
    true,
    'Order identifier of the connecting party. Unique within the file and across sends: the gateway reads it trimmed of whitespace, without invisible characters, in Unicode NFC.',
  ),
  c(
    'rp_card_type',
    'required',
    'Required',
    'card-type',
    '`SRC` or `DST` (upper case)',
    3,
    true,
    "The card's role: SRC is the sender's source card, DST the receiver's destination card.",
  ),
  c(
    'credit-card-number',
    'required',
    'Required',
    'card-number',
    'digits only, 12–19 of them',
    19,
    true,
    "Payer's card number. Shown masked (first 6, last 4) everywhere outside the file.",
    { sensitive: 'card' },
  ),
  c('cvv2', 'optional', 'Optional', 'cvv', '3 or 4 digits', 4, true, 'Card verification value. Never shown outside the file.', {
    sensitive: 'hidden',
  }),
  c(
    'card-printed-name',
    'required-src',
    'Conditional: required for SRC',
    'text',
    'text',
    128,
    true,
    'Name printed on the card. Required for SRC, optional for DST.',
  ),
  c(
    'expire-year',
    'required-src',
    'Conditional: required for SRC',
    'year',
    '4 digits',
    4,
    true,
    'Card expiry year. Required for SRC, optional for DST.',
  ),
  c(
    'expire-month',
    'required-src',
    'Conditional: required for SRC',
    'month',
    '2 digits, 01–12',
    2,
    true,
    'Card expiry month. Required for SRC, optional for DST.',
  ),
  c(
    'amount',
    'conditional',
    'Conditional: one amount mode',
    'decimal',
    'decimal',
    10,
    true,
    'Fixed amount of every charge. Use exactly one amount mode: amount, amount-from with amount-to, or amount-sequence. The currency must equal the project currency.',
  ),
  c(
    'amount-from',
    'conditional',
    'Conditional: one amount mode',
    'decimal',
    'decimal',
    10,
    true,
    'With amount-to, makes each charge a random amount between the two.',
  ),
  c(
    'amount-to',
    'conditional',
    'Conditional: one amount mode',
    'decimal',
    'decimal',
    10,
    true,
    'Upper bound of the random amount; pair of amount-from.',
  ),
  c(
    'amount-sequence',
    'conditional',
    'Conditional: one amount mode',
    'decimal-list',
    'decimals joined by `,`',
    10,
    true,
    'Amounts charged in turn: charge i uses element i, every charge past the end uses the last element.',
  ),
  c(
    'currency',
    'required',
    'Required',
    'currency',
    '3 upper-case letters',
    3,
    true,
    'Currency code; must equal the currency of the assigned project.',
  ),
  c('country', 'required-src', 'Required for SRC', 'country', '2 upper-case letters', 2, false, "Payer's country. Not supported for DST."),
  c('city', 'required-src', 'Required for SRC', 'text', 'text', 128, false, "Payer's city. Not supported for DST."),
  c('zip-code', 'required-src', 'Required for SRC', 'text', 'text', 10, false, "Payer's postal code. Not supported for DST."),
  c('address1', 'required-src', 'Required for SRC', 'text', 'text', 256, false, "Payer's address. Not supported for DST."),
  c('first-name', 'required-src', 'Required for SRC', 'text', 'text', 128, false, "Payer's first name. Not supported for DST."),
  c('last-name', 'required-src', 'Required for SRC', 'text', 'text', 128, false, "Payer's last name. Not supported for DST."),
  c('email', 'required-src', 'Required for SRC', 'email', '`local@domain.tld`', 128, false, "Payer's e-mail. Not supported for DST."),
  c(
    'period',
    'conditional',
    'Conditional: with interval',
    'period',
    '`day`, `week` or `month`',
    32,
    false,
    'day = every interval days, week = every 7×interval days, month = the same day of the month as start-date every interval months. Given together with interval. Not supported for DST.',
  ),
  c(
    'interval',
    'conditional',
    'Conditional: with period',
    'positive-int',
    'integer ≥ 1',
    null,
    false,
    'Multiplier applied to the period (interval 2 with day = every 2 days). Given together with period. Not supported for DST.',
  ),
  c('order_desc', 'optional', 'Optional', 'text', 'text', 65535, true, 'Description of the recurring payment.', {
    aliases: ['payment-description'],
  }),
  c('customer-ip', 'optional', 'Optional', 'ip', 'IPv4 or IPv6 address', 45, true, "Payer's IP address."),
  c('ssn', 'optional', 'Optional', 'text', 'text', 32, false, 'Social security number. Not supported for DST.', { sensitive: 'hidden' }),
  c('birthday', 'optional', 'Optional', 'date', 'date DD.MM.YYYY', null, false, "Payer's birthday. Not supported for DST."),
  c('phone', 'optional', 'Optional', 'text', 'text', 128, false, "Payer's phone. Not supported for DST."),
  c(
    'state',
    'conditional',
    'Conditional: required for SRC when country is US, CA or AU',
    'state',
    '2–3 letters',
    3,
    false,
    'State code; required for SRC rows when country is US, CA or AU. Not supported for DST.',
  ),
  c(
    'start-date',
    'optional',
    'Optional',
    'date',
    'date DD.MM.YYYY',
    null,
    true,
    'Date of the first scheduled charge. If it is today, the first charge is made today.',
  ),
  c(
    'finish-date',
    'optional',
    'Optional',
    'date',
    'date DD.MM.YYYY',
    null,
    true,
    'Date of the last charge; on reaching it the payment goes to status stop.',
  ),
  c(
    'max-repeats-number',
    'optional',
    'Optional',
    'positive-int',
    'integer ≥ 1: the number of charges',
    null,
    true,
    'The number of charges: charging stops when the repeats index (from 0, counting failed charges) reaches it.',
  ),
  c('purpose', 'optional', 'Optional', 'text', 'text', 128, false, 'Purpose of the transaction. Not supported for DST.'),
  c(
    'notify_url',
    'optional',
    'Optional',
    'url',
    'absolute http(s) URL',
    1024,
    true,
    'Callback address: the gateway calls it for every later transaction of the payment, each recurring charge included (and a reversal, a chargeback), with a GET and the fields in the query string; only on ports 80/8080 (http) and 443/8443 (https). Send either notify_url or server_callback_url, not both.',
    { aliases: ['notify-url'] },
  ),
  c(
    'server_callback_url',
    'optional',
    'Optional',
    'url',
    'absolute http(s) URL',
    128,
    true,
    'Address that receives a callback when the first transaction reaches a final status: the first transaction only, not each later charge (notify_url hears those); only on ports 80/8080 (http) and 443/8443 (https). Send either notify_url or server_callback_url, not both.',
    { aliases: ['server-callback-url'] },
  ),
];

const BY_NAME = new Map(COLUMNS.map((col) => [col.name, col]));

export function columnSpec(name: string): ColumnSpec | undefined {
  return BY_NAME.get(name);
}

/** The amount modes: at least one must be complete in the header, exactly one filled per row. */
export const AMOUNT_COLUMNS = ['amount', 'amount-from', 'amount-to', 'amount-sequence'] as const;

/** Countries whose SRC rows need a state. */
export const STATE_COUNTRIES: ReadonlySet<string> = new Set(['US', 'CA', 'AU']);
