// Card verification values never leave the batch file except in the signed request (PCI DSS 3.2.1 and
// 3.3.1.2: sensitive authentication data is not kept after authorisation). A CVV has no shape of its own
// (three or four digits), so it is found by its label, in every shape a label takes: a form or query
// parameter (`cvv=123`), a JSON member (`"cvv2": "123"`), a text line (`CVC: 123`), a header-like
// `cvv2 123`. Structured records drop the member whole.

/** What a hidden card verification value looks like wherever one would have been. */
export const HIDDEN_CVV = '•••';

/** The labels, compared loosely (`CVV2`, `cvc_2`, `card-cvv`). */
const CVV_NAMES = ['cvv', 'cvv2', 'cvc', 'cvc2', 'csc', 'cav2', 'cvn', 'cvn2', 'securitycode', 'cardsecuritycode', 'cardcvv', 'cardcvv2'];
const loose = (name: string) => name.trim().toLowerCase().replace(/[-_ ]/g, '');
const LOOSE_CVV = new Set(CVV_NAMES.map(loose));

/** A field, column or parameter name that holds a card verification value. */
export function isCvvName(name: string): boolean {
  return LOOSE_CVV.has(loose(name));
}

// A label (not inside a longer word, or right after a percent-encoded character such as `%26`), then up to a quote, a separator run of `:`, `=`, spaces or `#` (or
// a percent-encoded `=` or `:`, once or twice encoded, as in a query or an OAuth base string), and another
// quote, then the 3 or 4 digits (quoted or not) that are not part of a longer number.
const CVV_IN_TEXT =
  /(?:(?<![a-z0-9])|(?<=%(?:25)?[0-9a-f]{2}))((?:card[-_ ]?)?(?:cvv2?|cvc2?|csc|cav2|cvn2?|security[-_ ]?code)["']?\s{0,3}(?:[:=#]|%(?:25)?3[ad])?\s{0,3}["']?)(\d{3,4})(?![\d])/gi;

/** Every labelled CVV in free text, a form or query string or a JSON text replaced by HIDDEN_CVV. */
export function hideCvvs(text: string): string {
  if (!/c[vsa]|security/i.test(text)) return text; // most text holds no label at all
  return text.replace(CVV_IN_TEXT, `$1${HIDDEN_CVV}`);
}
