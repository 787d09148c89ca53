import { hasDigits, maskCardNumbers } from './cardNumbers';
import { hideCvvs, isCvvName } from './cvv';
import { isCardColumn, maskField, maskText } from './mask';

// A body or a URL received from outside (a callback, a handler's answer) as it may be kept or shown: card
// numbers masked, CVVs dropped, in each shape a body takes. A form or query string loses its CVV pairs and
// has each value masked by its name (maskField); a JSON object or array loses its CVV members at any depth
// and has each string, and each number that is a card number, masked; any other text has its card-number
// runs masked and its labelled CVVs hidden. What needs no masking is kept byte for byte, so a clean
// callback can still be replayed exactly.

function decodePart(s: string): string | undefined {
  if (!s.includes('%') && !s.includes('+')) return s;
  try {
    return decodeURIComponent(s.replace(/\+/g, ' '));
  } catch {
    return undefined;
  }
}

// The same few names come in every call (status, orderid, amount…): what each is, found once. Bounded,
// since names come from outside.
const KINDS = new Map<string, 'cvv' | 'card' | 'other'>();
function kindOf(name: string): 'cvv' | 'card' | 'other' {
  let kind = KINDS.get(name);
  if (kind === undefined) {
    kind = 'other';
    if (isCvvName(name)) kind = 'cvv';
    else if (isCardColumn(name)) kind = 'card';
    if (KINDS.size >= 512) KINDS.clear();
    KINDS.set(name, kind);
  }
  return kind;
}

/** Fewer than 3 digits of any script: no card number and no CVV can be in it (only its name can make it card data). */
const fewDigits = (text: string): boolean => !hasDigits(text, 3);

/** One named value as kept: undefined for a CVV, else masked by its name (maskField), the same string when clean. */
function safeNamed(name: string, value: string): string | undefined {
  const kind = kindOf(name);
  if (kind === 'cvv') return undefined;
  if (kind === 'other' && fewDigits(value)) return value;
  return maskField(name, value);
}

/** Free text from outside (a header's value, a text body): card-number-like runs masked, labelled CVVs hidden. */
export function safeFreeText(text: string): string {
  return fewDigits(text) ? text : hideCvvs(maskText(text));
}

const textMask = safeFreeText;

/** Named values (a form's decoded fields): CVVs dropped, every other value masked by its name. */
export function safeFields(fields: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(fields)) {
    const safe = safeNamed(k, v);
    if (safe !== undefined) out[fewDigits(k) ? k : maskCardNumbers(k)] = safe;
  }
  return out;
}

/** One `name=value` pair of a form or query: undefined when it is a CVV, the raw pair when nothing changes. */
function safePair(raw: string): string | undefined {
  const eq = raw.indexOf('=');
  const name = decodePart(eq < 0 ? raw : raw.slice(0, eq));
  const value = eq < 0 ? '' : decodePart(raw.slice(eq + 1));
  if (name === undefined || value === undefined) return textMask(raw); // not percent-encoding: masked as text
  if (kindOf(name) === 'other' && fewDigits(raw)) return raw;
  const safeValue = safeNamed(name, value);
  if (safeValue === undefined) return undefined;
  const safeName = maskCardNumbers(name);
  if (safeName === name && safeValue === value) return raw;
  return eq < 0 ? encodeURIComponent(safeName) : `${encodeURIComponent(safeName)}=${encodeURIComponent(safeValue)}`;
}

/** An `application/x-www-form-urlencoded` body or a query string: CVV pairs dropped, values masked by name. */
function safeForm(text: string): string {
  if (text === '') return text;
  const out: string[] = [];
  for (const raw of text.split('&')) {
    const pair = raw === '' ? raw : safePair(raw);
    if (pair !== undefined) out.push(pair);
  }
  return out.join('&');
}

/** A path and query as received (`/notify/4111…?cvv=123&x=1`): the path masked as text, the query as a form. */
export function safeUrlPath(pathAndQuery: string): string {
  const q = pathAndQuery.indexOf('?');
  if (q < 0) return textMask(pathAndQuery);
  return `${textMask(pathAndQuery.slice(0, q))}?${safeForm(pathAndQuery.slice(q + 1))}`;
}

// The tokens of a JSON text: on a text JSON.parse accepted, these cover every character.
const JSON_TOKENS = /"(?:[^"\\]|\\.)*"|-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?|true|false|null|[{}[\]:,]|\s+/g;

/**
 * A walk over a valid JSON text's tokens that rewrites only what must change: a string or a number that
 * holds a card number (a number becomes the masked string: its digits are kept exactly, where a parse
 * and a stringify would round a 17–19-digit number), and CVV members, dropped with their comma. The rest,
 * whitespace included, stays as it came.
 */
class JsonMasker {
  private i = 0;
  changed = false;
  constructor(private readonly tokens: string[]) {}

  private ws(): string {
    return /^\s/.test(this.tokens[this.i] ?? '') ? this.tokens[this.i++] : '';
  }

  /** The whole text: a value between optional whitespace. */
  document(): string {
    return this.ws() + this.value('') + this.ws();
  }

  private value(name: string): string {
    const t = this.tokens[this.i++];
    if (t === '{') return this.object();
    if (t === '[') return this.array(name);
    if (t.startsWith('"')) return this.string(t, (s) => safeNamed(name, s) ?? '');
    const masked = maskCardNumbers(t);
    if (masked === t) return t;
    this.changed = true;
    return JSON.stringify(masked);
  }

  private string(token: string, mask: (s: string) => string): string {
    const s = JSON.parse(token) as string;
    const safe = mask(s);
    if (safe === s) return token;
    this.changed = true;
    return JSON.stringify(safe);
  }

  private object(): string {
    const kept: string[] = [];
    let lead = this.ws();
    if (this.tokens[this.i] === '}') {
      this.i++;
      return `{${lead}}`;
    }
    for (;;) {
      const keyToken = this.tokens[this.i++];
      const key = JSON.parse(keyToken) as string;
      const member = `${this.string(keyToken, maskCardNumbers)}${this.ws()}${this.tokens[this.i++]}${this.ws()}${this.value(key)}${this.ws()}`;
      if (isCvvName(key)) this.changed = true;
      else kept.push(lead + member);
      if (this.tokens[this.i++] === '}') return `{${kept.join(',')}}`;
      lead = this.ws();
    }
  }

  private array(name: string): string {
    const items: string[] = [];
    const lead = this.ws();
    if (this.tokens[this.i] === ']') {
      this.i++;
      return `[${lead}]`;
    }
    for (let first = lead; ; first = this.ws()) {
      items.push(`${first}${this.value(name)}${this.ws()}`);
      if (this.tokens[this.i++] === ']') return `[${items.join(',')}]`;
    }
  }
}

/**
 * A JSON object or array: CVV members dropped at any depth, card numbers masked in strings (by the name
 * they stand under) and numbers; everything else byte for byte. Undefined when the text is not JSON.
 */
function safeJsonBody(text: string): string | undefined {
  const start = text.trimStart()[0];
  if (start !== '{' && start !== '[') return undefined;
  try {
    JSON.parse(text);
  } catch {
    return undefined;
  }
  const tokens = text.match(JSON_TOKENS) ?? [];
  const masker = new JsonMasker(tokens);
  try {
    const out = masker.document();
    return masker.changed ? out : text;
  } catch {
    // Nesting deeper than the stack: not a body a person sends. Masked as text, never kept as it came.
    return textMask(text);
  }
}

/**
 * A body as it may be kept or shown, by its shape: a form (its content type, or none given and not JSON),
 * a JSON object or array (whatever the content type says, since senders mislabel JSON), else text.
 */
export function safeBody(text: string, contentType: string | undefined): string {
  const type = (contentType ?? '').trim().toLowerCase();
  if (type.startsWith('application/x-www-form-urlencoded')) return safeForm(text);
  const json = safeJsonBody(text);
  if (json !== undefined) return json;
  return type === '' ? safeForm(text) : textMask(text);
}
