import { formDecode } from '../oauth/sign';
import { textDecoder } from '../textFile';

// Reading an answer's text: media type and charset, the gateway family's form pairs and JSON objects
// flattened to fields, and the prose of a denial. Shared by both operations' interpreters.

/** An own property even for a name like `__proto__`, so an answer's every field is kept as it came. */
function setField(fields: Record<string, string>, name: string, value: string): void {
  Object.defineProperty(fields, name, { value, enumerable: true, writable: true, configurable: true });
}

export function mediaType(contentType: string): string {
  return contentType.split(';')[0].trim().toLowerCase();
}

export function charsetOf(contentType: string): string | undefined {
  return /;\s*charset\s*=\s*"?([^";\s]+)"?/i.exec(contentType)?.[1];
}

export function decode(body: Uint8Array, label = 'utf-8'): string {
  return textDecoder(label).decode(body);
}

/**
 * The gateway family's form-encoded answer: `name=value` pairs joined by `&`, often one per line
 * (`type=validation-error\n&error-message=...`). Values trimmed. Undefined unless every part is a pair.
 */
export function parseFormFields(text: string): Record<string, string> | undefined {
  const parts = text
    .split(/&|\r\n|\r|\n/)
    .map((p) => p.trim())
    .filter((p) => p !== '');
  if (parts.length === 0) return undefined;
  const fields: Record<string, string> = {};
  for (const part of parts) {
    const m = /^([A-Za-z_][\w.-]*)\s*=(.*)$/s.exec(part);
    if (!m) return undefined;
    setField(fields, formDecode(m[1]), formDecode(m[2]).trim());
  }
  return fields;
}

/** One JSON value as field text: strings as they are, null as empty, nested values as JSON text. */
function fieldText(v: unknown): string {
  if (typeof v === 'string') return v;
  if (v === null) return '';
  if (typeof v === 'object') return JSON.stringify(v);
  return String(v as number | boolean | undefined);
}

/** A JSON object answer flattened to text values (nested values kept as JSON text). */
export function parseJsonFields(text: string): Record<string, string> | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return undefined;
  const fields: Record<string, string> = {};
  for (const [k, v] of Object.entries(value)) {
    setField(fields, k, fieldText(v));
  }
  return fields;
}

/** Fields from a JSON or form-encoded body; undefined for anything else (HTML, prose, binary). */
export function parseAnswerFields(text: string, contentType: string): Record<string, string> | undefined {
  const trimmed = text.trim();
  if (trimmed === '') return undefined;
  const media = mediaType(contentType);
  if (media.endsWith('json') || media.endsWith('+json') || trimmed.startsWith('{')) {
    const json = parseJsonFields(trimmed);
    if (json) return json;
  }
  if (trimmed.startsWith('<')) return undefined;
  return parseFormFields(trimmed);
}

/** A field under any of the gateway family's spellings: error-message, error_message, errorMessage. */
export function fieldValue(fields: Record<string, string>, name: string): string | undefined {
  const want = name.replace(/[-_]/g, '').toLowerCase();
  for (const [k, v] of Object.entries(fields)) {
    if (k.replace(/[-_]/g, '').toLowerCase() === want) return v;
  }
  return undefined;
}

/** The error ID a 500 carries: a field (error-id, error_id, errorId) or `error id: X` in plain text. */
export function findErrorId(fields: Record<string, string> | undefined, text: string): string | undefined {
  const fromField = fields ? fieldValue(fields, 'error-id') : undefined;
  if (fromField) return fromField;
  return /\berror[\s_-]?id\b["']?\s*[:=]\s*["']?([A-Za-z0-9][\w.:-]*)/i.exec(text)?.[1];
}

// Words of a denial in the languages gateways of this family answer in: authorisation, access, signatures,
// credentials. Letters around a match must not be letters (\b knows only ASCII), so "signatures" matches
// but "designation" does not.
const DENIAL_PATTERNS: RegExp[] = [
  // English
  /not\s+(?:be\s+)?(?:authori[sz]ed|allowed|permitted|authenticated)/,
  /unauthori[sz]ed|forbidden|access(?:\s+is)?\s+(?:denied|forbidden|refused)|permission\s+denied|no\s+access|do(?:es)?\s+not\s+have\s+(?:access|permission)/,
  /(?:invalid|bad|wrong|incorrect|malformed|missing|expired)\s+(?:oauth\s+)?(?:signature|credentials?|consumer(?:[\s_-]key)?|token|nonce|timestamp|authori[sz]ation(?:\s+header)?|api\s+key)/,
  /signature\s+(?:is\s+)?(?:invalid|mismatch|does\s+not\s+match|verification\s+failed|check\s+failed|rejected)/,
  /authenti(?:cation|fication)\s+(?:failed|failure|required|error)|authori[sz]ation\s+(?:failed|failure|required|denied)/,
  // OAuth problem reporting (oauth_problem=signature_invalid and its siblings)
  /oauth_problem|signature_invalid|signature_method_rejected|consumer_key_(?:unknown|rejected|refused)|timestamp_refused|nonce_used|permission_(?:denied|unknown)|token_(?:rejected|expired|revoked)/,
  // German
  /zugriff\s+(?:verweigert|abgelehnt|nicht\s+erlaubt)|nicht\s+(?:autorisiert|berechtigt|authentifiziert)|keine\s+(?:berechtigung|zugriffsberechtigung)|ungültige\s+(?:signatur|anmeldedaten)|signatur\s+(?:ist\s+)?ungültig|authentifizierung\s+fehlgeschlagen/,
  // French
  /non\s+autoris[ée]e?s?|accès\s+(?:refusé|interdit|non\s+autorisé)|signature\s+(?:invalide|incorrecte|non\s+valide)|authentification\s+(?:échouée|refusée|requise)|échec\s+de\s+l['’]authentification/,
  // Spanish, Portuguese, Italian
  /acceso\s+denegado|no\s+autorizado|firma\s+(?:inválida|no\s+válida|incorrecta)|acesso\s+negado|não\s+autorizado|assinatura\s+inválida|accesso\s+negato|non\s+autorizzato|firma\s+non\s+valida/,
  // Dutch, Polish, Turkish
  /toegang\s+geweigerd|niet\s+geautoriseerd|ongeldige\s+handtekening|brak\s+dostępu|odmowa\s+dostępu|nieautoryzowan|nieprawidłowy\s+podpis|erişim\s+reddedildi|yetkisiz|geçersiz\s+imza/,
  // Russian, Ukrainian
  /доступ\s+(?:запрещ[её]н|закрыт)|нет\s+доступа|не\s*авторизован|неверная\s+подпись|недействительная\s+подпись|ошибка\s+(?:авторизации|аутентификации)|доступ\s+заборонено|немає\s+доступу/,
  // Chinese, Japanese, Korean
  /未授权|未經授權|无权|無權|拒绝访问|拒絕訪問|签名无效|簽名無效|认证失败|アクセス(?:が)?拒否|認証(?:に)?失敗|署名が無効|権限がありません|접근\s*거부|인증\s*실패|권한이\s*없습니다/,
];

const denialRes = DENIAL_PATTERNS.map((p) => new RegExp(`(?<!\\p{L})(?:${p.source})`, 'iu'));

/** Whether a text speaks of authorisation, access or signatures (in any of the languages above). */
export function speaksOfAccess(text: string): boolean {
  return denialRes.some((re) => re.test(text));
}

/** A short answer of sentences rather than data: at most a few lines, no markup, no field pairs. */
export function isShortProse(text: string): boolean {
  const trimmed = text.trim();
  if (trimmed === '' || trimmed.length > 1000) return false;
  if (trimmed.startsWith('<') || trimmed.startsWith('{') || trimmed.startsWith('[')) return false;
  return trimmed.split(/\r\n|\r|\n/).filter((l) => l.trim() !== '').length <= 5;
}

/**
 * A denial: short plain-text prose speaking of access (the report operation's 200 text/plain sentence, in
 * any wording or language). HTML pages are not denials: a proxy's "403 Forbidden" page is shown as it is.
 */
export function isDenialSentence(text: string, contentType: string): boolean {
  const media = mediaType(contentType);
  if (media !== 'text/plain' && media !== '') return false;
  return isShortProse(text) && speaksOfAccess(text);
}
