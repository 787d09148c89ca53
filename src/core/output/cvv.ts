// Card verification values never leave the batch file except in the signed request (PCI DSS 3.2.1 and
// 3.3.1.2: sensitive authentication data is not kept after authorisation). A CVV has no shape of its own
// (three or four digits), so it is found by its name, from one table (CVV_NAMES) every door uses: a
// column, a field, a JSON member or a form or query parameter so named is dropped (the callback store, a
// printed answer, JSON, the CSV we export, the editor's pages, the query's group-by refusal), and in free
// text a label of the table followed by 3 or 4 digits has its digits hidden: a form or query parameter
// (`cvv=123`), a JSON member (`"cvv2": "123"`), a text line (`CVC: 123`), a header-like `cvv2 123`.

/** What a hidden card verification value looks like wherever one would have been. */
export const HIDDEN_CVV = '•••';

/**
 * The names of a card verification value, as words. A name matches whatever its case and separators
 * (`CVV2`, `cvc_2`, `Card-CVC`, `security code`, `cvvNumber`); `card verification` followed by any word
 * (value, code, number, data…) matches too.
 */
const CVV_NAMES: readonly string[] = [
  'cvv',
  'cvv2',
  'cvc',
  'cvc2',
  'cvn',
  'cvn2',
  'cvd',
  'cav2',
  'cid',
  'csc',
  'card cvv',
  'card cvv2',
  'card cvc',
  'card cvc2',
  'card cid',
  'card csc',
  'cvv code',
  'cvv number',
  'cvv2 code',
  'cvc code',
  'cvc number',
  'security code',
  'card security code',
  'card code',
  'card verification',
];
/** Names that start so are a CVV, whatever word follows: `card verification value`, `…_code`, `…Number`. */
const CVV_PREFIXES: readonly string[] = ['card verification'];

// The separators, the tables and the pattern below are made on first use: their Unicode classes cost
// every `paygate` start about a millisecond, and most starts never need them (issue 40).
let separators: RegExp | undefined;
const loose = (name: string) => name.toLowerCase().replace((separators ??= /[\s\p{Pd}_.]/gu), '');
let looseNames: { names: Set<string>; prefixes: string[] } | undefined;

/** A field, column or parameter name that holds a card verification value (CVV_NAMES). */
export function isCvvName(name: string): boolean {
  if (name.length > 40) return false;
  const l = loose(name);
  looseNames ??= { names: new Set(CVV_NAMES.map(loose)), prefixes: CVV_PREFIXES.map(loose) };
  return looseNames.names.has(l) || looseNames.prefixes.some((p) => l.startsWith(p));
}

/** A name of the table as it may be written in text: any separator (or none) between words and before a digit. */
const SEP = '[\\s_.\\-\\u2010-\\u2015]{0,2}';
const labelPattern = (name: string) =>
  name
    .split(' ')
    .map((w) => w.replace(/(\D)(\d)/, `$1${SEP}$2`))
    .join(SEP);
const labels = () =>
  [...CVV_NAMES, ...CVV_PREFIXES.map((p) => `${p} [a-z]+`)]
    .sort((a, b) => b.length - a.length)
    .map((n) => labelPattern(n).replace(`${SEP}[a-z]+`, `(?:${SEP}[a-z]+)?`));

// A label (not inside a longer word, or right after a percent-encoded character such as `%26`), then up to
// a quote (or a doubled one, as JSON inside a quoted CSV cell writes it), a separator run of `:`, `=`, spaces
// or `#` (or a percent-encoded `=` or `:`, once or twice encoded, as in a query or an OAuth base string), and
// another quote, then the 3 or 4 digits of any script
// (quoted or not) that are not part of a longer number.
let cvvInText: RegExp | undefined;
const makeCvvInText = () =>
  new RegExp(
    `(?:(?<![\\p{L}\\p{N}])|(?<=%(?:25)?[0-9a-f]{2}))((?:${labels().join('|')})["']{0,2}\\s{0,3}(?:[:=#]|%(?:25)?3[ad])?\\s{0,3}["']{0,2})(\\p{Nd}{3,4})(?!\\p{Nd})`,
    'giu',
  );

/**
 * Could `text` hold the 3 digits a labelled CVV needs? Every decimal digit (\p{Nd}) is an ASCII digit or a
 * character from U+0660 on (Arabic-Indic, the first other script's), so fewer than 3 such characters is a
 * sure no. It spares a file name (`march.rpcsv`: "cs" passes the label test) the making and compiling of the pattern (makeCvvInText),
 * about a millisecond of a one-row `paygate lint` (issue 40).
 */
function mayHoldThreeDigits(text: string): boolean {
  let digits = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (((c >= 0x30 && c <= 0x39) || c >= 0x660) && ++digits === 3) return true;
  }
  return false;
}

/** Every labelled CVV in free text, a form or query string or a JSON text replaced by HIDDEN_CVV. */
export function hideCvvs(text: string): string {
  // Most text holds no label at all. Case-insensitive over Unicode as the pattern is, so a label spelled with
  // a character that folds to a letter of it (`ſecurity code`, with U+017F folding to `s`) is not let through.
  if (!/c[vsai]|secur/iu.test(text)) return text;
  if (!mayHoldThreeDigits(text)) return text;
  return text.replace((cvvInText ??= makeCvvInText()), `$1${HIDDEN_CVV}`);
}
