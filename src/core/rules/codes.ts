// The rule book's diagnostic codes. They are a public contract (Problems panel, CLI JSON, README):
// never rename one; add new ones instead.

export const Codes = {
  csvSyntax: 'csv-syntax',
  fieldCount: 'field-count',
  blankLine: 'blank-line',
  delimiter: 'delimiter',
  missingColumn: 'missing-column',
  duplicateColumn: 'duplicate-column',
  columnAlias: 'column-alias',
  requiredValue: 'required-value',
  invalidValue: 'invalid-value',
  maxLength: 'max-length',
  dstUnsupported: 'dst-unsupported',
  periodInterval: 'period-interval',
  amountMode: 'amount-mode',
  amountRange: 'amount-range',
  callbackExclusive: 'callback-exclusive',
  callbackPort: 'callback-port',
  stateRequired: 'state-required',
  dateOrder: 'date-order',
  alreadySent: 'already-sent',
  unknownColumn: 'unknown-column',
  cardLuhn: 'card-luhn',
  cardExpired: 'card-expired',
  startDatePast: 'start-date-past',
  duplicateOrderId: 'duplicate-order-id',
  idWhitespace: 'id-whitespace',
  samePayer: 'same-payer',
  cardDataInGit: 'card-data-in-git',
  cvvAfterSend: 'cvv-after-send',
  batchTooLarge: 'batch-too-large',
  bom: 'bom',
} as const;

export type Code = (typeof Codes)[keyof typeof Codes];
export type Severity = 'error' | 'warning' | 'information';

/** Severity and one-line meaning of every code; the README's code table is generated from this. */
export const CodeInfo: Record<Code, { severity: Severity; where: string; when: string }> = {
  'csv-syntax': { severity: 'error', where: 'cell', when: 'unterminated quote, or text after a closing quote' },
  'field-count': { severity: 'error', where: 'row', when: 'a row with more or fewer fields than the header' },
  'blank-line': { severity: 'error', where: 'row', when: 'an empty record between records' },
  delimiter: { severity: 'error', where: 'header', when: 'the header splits into one column on `;` but into several on `,` or a tab' },
  'missing-column': { severity: 'error', where: 'header line', when: 'a required column is absent (the three amount modes count as one)' },
  'duplicate-column': { severity: 'error', where: 'header cell', when: 'a name that appears twice (after alias resolution)' },
  'column-alias': {
    severity: 'error',
    where: 'header cell',
    when: 'a known alias of a column, or a column name in other case or separators',
  },
  'required-value': { severity: 'error', where: 'cell', when: 'a required (or required-for-SRC) value is empty' },
  'invalid-value': { severity: 'error', where: 'cell', when: 'a value of the wrong form (type, enum, date, URL, IP, e-mail, digits)' },
  'max-length': { severity: 'error', where: 'cell', when: "longer than the column's maximum" },
  'dst-unsupported': { severity: 'error', where: 'cell', when: 'a DST row carries a value in a column marked DST no' },
  'period-interval': { severity: 'error', where: 'cell', when: 'period without interval or interval without period' },
  'amount-mode': {
    severity: 'error',
    where: 'row',
    when: 'none of the three amount modes, more than one, or amount-from without amount-to (or the reverse)',
  },
  'amount-range': { severity: 'error', where: 'cell', when: 'amount-from greater than amount-to' },
  'callback-exclusive': { severity: 'error', where: 'cell', when: 'both notify_url and server_callback_url' },
  'state-required': { severity: 'error', where: 'cell', when: 'SRC row, country US/CA/AU, state empty' },
  'date-order': { severity: 'error', where: 'cell', when: 'finish-date before start-date' },
  'already-sent': {
    severity: 'error',
    where: 'cell (client-orderid)',
    when: 'the ledger records this client-orderid in a submission to the active environment and endpoint that may have created payments (accepted, unknown, unrecognised, still sending or interrupted); the message names the date, serial-number and outcome. Only where a ledger is present',
  },
  'unknown-column': { severity: 'warning', where: 'header cell', when: 'not a column of the table and no alias' },
  'card-luhn': { severity: 'warning', where: 'cell', when: 'the card number fails the Luhn check' },
  'card-expired': { severity: 'warning', where: 'cell', when: 'expire-month/expire-year before the current month' },
  'start-date-past': { severity: 'warning', where: 'cell', when: 'start-date before today' },
  'duplicate-order-id': {
    severity: 'error',
    where: 'cell',
    when: 'a client-orderid (as the gateway reads it: whitespace of every kind trimmed, invisible characters removed, NFC) seen on an earlier row: the gateway would create a second payment. An error (a warning in 0.1)',
  },
  'id-whitespace': {
    severity: 'warning',
    where: 'cell (client-orderid)',
    when: "whitespace around the id, or a byte order mark or another invisible character (zero-width space, word joiner, soft hyphen) anywhere in it: the gateway reads the id without them (trimmed, NFC), our own tools and the merchant's systems may not",
  },
  'same-payer': {
    severity: 'warning',
    where: 'cell (client-orderid)',
    when: "the row's card number and schedule (the ledger's keyed fingerprint) were already sent to the active target under another client-orderid (as the gateway reads it), in a submission that may have created payments: the same payer charged twice. The message names that id (masked), when and which submission. `paygate submit` refuses without `--allow-same-payer`; the editor asks. Only where a ledger is present",
  },
  'callback-port': {
    severity: 'warning',
    where: 'cell (notify_url, server_callback_url)',
    when: 'a port the gateway never calls back on (only 80/8080 for http, 443/8443 for https; a URL without a port counts as its default); loopback addresses are exempt (only the local gateway calls them)',
  },
  'card-data-in-git': {
    severity: 'warning',
    where: 'cell',
    when: 'the file holds full card numbers (Luhn-valid, not a published test number) and is tracked by git, or lies in a git work tree without being ignored; on the first card-number cell',
  },
  'cvv-after-send': {
    severity: 'warning',
    where: 'cell (cvv2)',
    when: 'a non-empty cvv2 in a file whose content the ledger records as accepted (PCI DSS 3.3.1.2: no CVV kept after authorisation)',
  },
  'batch-too-large': {
    severity: 'warning',
    where: 'header line',
    when: "the batch's payload (Base64 of the text sent) is longer than the active environment's maximum (`maxPayloadBytes`; default the local gateway's 8 MiB): the gateway would refuse it. Cut it with `paygate split --max-bytes`",
  },
  bom: { severity: 'information', where: 'file start', when: 'a UTF-8 byte order mark (accepted and ignored)' },
};

/** The quick fixes per code, as the README states them; "(fix all)" marks the safe ones. */
export const FixDocs: Partial<Record<Code, string>> = {
  'column-alias': 'Rename the header cell to the column name (fix all)',
  'unknown-column': 'Rename to the closest column name when at most 2 edits away',
  delimiter: 'Rewrite the file with `;`, re-quoting where needed (fix all)',
  'dst-unsupported': 'Clear the cell; or clear every DST-unsupported value in the file',
  'invalid-value':
    'rp_card_type in the wrong case: upper-case it; expire-month with one digit: pad it; a date written D/M/YYYY, D-M-YYYY, D.M.YYYY or YYYY-MM-DD: rewrite as DD.MM.YYYY (fix all)',
  'missing-column': 'Append the column to the header and an empty field to every row',
  bom: 'Drop the byte order mark (fix all)',
  'field-count':
    'A row short by trailing fields (a column was added to the header): add the empty fields at its end; or to every short row at once',
  'card-data-in-git':
    'When the file is not tracked: add it to `.gitignore` (when it is tracked, the message says how to remove it from the repository and its history)',
  'id-whitespace': 'Remove the whitespace and invisible characters, keeping the id the gateway reads (fix all)',
  'already-sent': 'Move the already-sent rows to a new file (never a silent delete)',
  'cvv-after-send': 'Empty every cvv2 value, the column stays (`paygate fix --strip-cvv`)',
};
