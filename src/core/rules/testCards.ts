// The card schemes' and processors' published test numbers: they charge nobody, so examples, fixtures and
// sandbox batches holding them are no card data. docs/rules.md lists them (generated from this table).
export const PUBLISHED_TEST_CARDS: readonly { number: string; scheme: string }[] = [
  { number: '4111111111111111', scheme: 'Visa' },
  { number: '4012888888881881', scheme: 'Visa' },
  { number: '4222222222222', scheme: 'Visa (13 digits)' },
  { number: '4242424242424242', scheme: 'Visa' },
  { number: '4000056655665556', scheme: 'Visa debit' },
  { number: '5555555555554444', scheme: 'Mastercard' },
  { number: '5105105105105100', scheme: 'Mastercard' },
  { number: '2223003122003222', scheme: 'Mastercard (2-series)' },
  { number: '5200828282828210', scheme: 'Mastercard debit' },
  { number: '378282246310005', scheme: 'American Express' },
  { number: '371449635398431', scheme: 'American Express' },
  { number: '378734493671000', scheme: 'American Express Corporate' },
  { number: '6011111111111117', scheme: 'Discover' },
  { number: '6011000990139424', scheme: 'Discover' },
  { number: '30569309025904', scheme: 'Diners Club' },
  { number: '38520000023237', scheme: 'Diners Club' },
  { number: '3530111333300000', scheme: 'JCB' },
  { number: '3566002020360505', scheme: 'JCB' },
  { number: '6200000000000005', scheme: 'UnionPay' },
  { number: '6759649826438453', scheme: 'Maestro' },
];
