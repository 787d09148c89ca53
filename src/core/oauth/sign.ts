import OAuth from 'oauth-1.0a';
import { createHmac, createPrivateKey, randomBytes, sign as rsaSign, type KeyObject } from 'node:crypto';

export type SigningCredentials =
  | { signatureMethod: 'HMAC-SHA1'; consumerKey: string; consumerSecret: string; token?: string; tokenSecret?: string }
  | { signatureMethod: 'RSA-SHA256'; consumerKey: string; privateKeyPem: string; passphrase?: string; token?: string };

export interface SignInput {
  method: string;
  url: string;
  /** Form-encoded body parameters, decoded. A JSON body is never passed here: it is not part of the signature. */
  form?: [string, string][];
  /** `undefined` = no realm in the header; `''` = `realm=""` (the report sample). */
  realm?: string;
  timestamp?: string;
  nonce?: string;
}

export interface SignatureDetails {
  baseString: string;
  /** Base64, as sent (percent-encoded) in the header. */
  signature: string;
  signatureHex: string;
  /** The whole Authorization header value. */
  authorization: string;
  /** The oauth_* parameters including oauth_signature, decoded. */
  oauthParams: Record<string, string>;
}

/** RFC 3986 percent-encoding as RFC 5849 §3.6 wants it (oauth-1.0a's own encoder does exactly this). */
export function percentEncode(value: string): string {
  return encoder.percentEncode(value);
}

// One instance only for its stateless helpers; signing builds its own instance per call.
const encoder = new OAuth({ consumer: { key: '', secret: '' } });

/**
 * RFC 5849 §3.4.1.2: scheme and host lower-case, default port dropped, no query or fragment.
 * oauth-1.0a only cuts at '?', so the URL is normalised here. WHATWG serialisation is also what fetch
 * puts on the wire, so the signed path equals the sent path.
 */
export function baseStringUri(url: string): string {
  const u = new URL(url);
  return `${u.protocol}//${u.host}${u.pathname || '/'}`;
}

/**
 * Query parameters decoded as application/x-www-form-urlencoded (RFC 5849 §3.4.1.3.1), keeping duplicates
 * and empty values. oauth-1.0a's deParam keeps '+' literally and does not decode names, so it is bypassed.
 */
export function queryParameters(url: string): [string, string][] {
  const u = new URL(url);
  const query = u.search.startsWith('?') ? u.search.slice(1) : u.search;
  if (query === '') return [];
  return query
    .split('&')
    .filter((part) => part !== '')
    .map((part) => {
      const eq = part.indexOf('=');
      const name = eq < 0 ? part : part.slice(0, eq);
      const value = eq < 0 ? '' : part.slice(eq + 1);
      return [formDecode(name), formDecode(value)];
    });
}

/** A form-encoded name or value decoded (`+` is a space); shared with the answer parser. */
export function formDecode(s: string): string {
  const spaced = s.replace(/\+/g, ' ');
  try {
    return decodeURIComponent(spaced);
  } catch {
    // A malformed escape is kept literally rather than failing the whole request.
    return spaced;
  }
}

/** Code-unit order of two strings, for sorting. */
function codeUnitOrder(a: string, b: string): number {
  if (a < b) return -1;
  return a > b ? 1 : 0;
}

/**
 * RFC 5849 §3.4.1.3.2 parameter normalisation over a list of decoded pairs: each name and value
 * percent-encoded, sorted by name then value, joined. Done here over arrays rather than through
 * oauth-1.0a's object merges: a plain object drops a parameter named `__proto__` (assigning it sets the
 * prototype), and every parameter the server sees must be signed.
 */
export function normalisedParameters(pairs: readonly (readonly [string, string])[]): string {
  const encoded = pairs.map(([name, value]) => [percentEncode(name), percentEncode(value)] as const);
  // Encoded names and values are ASCII, so code-unit order is the byte order RFC 5849 asks for.
  encoded.sort((a, b) => codeUnitOrder(a[0], b[0]) || codeUnitOrder(a[1], b[1]));
  return encoded.map(([n, v]) => `${n}=${v}`).join('&');
}

/** The signature base string: METHOD & base string URI & normalised parameters (query, form, oauth_*). */
export function buildBaseString(method: string, url: string, params: readonly (readonly [string, string])[]): string {
  const all = [...queryParameters(url), ...params];
  return `${method.toUpperCase()}&${percentEncode(baseStringUri(url))}&${percentEncode(normalisedParameters(all))}`;
}

/** Thrown by signRequest when the RSA key cannot be read; the message never contains key material. */
export class SigningKeyError extends Error {
  override name = 'SigningKeyError';
}

export function loadPrivateKey(pem: string, passphrase?: string): { ok: true; key: KeyObject } | { ok: false; reason: string } {
  try {
    const key = createPrivateKey(
      passphrase === undefined || passphrase === '' ? { key: pem, format: 'pem' } : { key: pem, format: 'pem', passphrase },
    );
    if (key.asymmetricKeyType !== 'rsa')
      return { ok: false, reason: `the private key is ${key.asymmetricKeyType ?? 'not asymmetric'}, not RSA` };
    return { ok: true, key };
  } catch (err) {
    const code = (err as { code?: string }).code ?? '';
    if (/PASSPHRASE|BAD_DECRYPT|INTERRUPTED_OR_CANCELLED/i.test(code) || /passphrase|bad decrypt/i.test(String(err))) {
      return {
        ok: false,
        reason: passphrase ? 'the passphrase does not decrypt the private key' : 'the private key is encrypted and needs a passphrase',
      };
    }
    return { ok: false, reason: 'not a PEM RSA private key (PKCS#1 or PKCS#8)' };
  }
}

/** Checks the credentials can sign (an RSA key that loads) without signing anything. */
export function checkSigningCredentials(credentials: SigningCredentials): { ok: true } | { ok: false; reason: string } {
  if (credentials.consumerKey === '') return { ok: false, reason: 'the consumer key is empty' };
  if (credentials.signatureMethod === 'HMAC-SHA1') return { ok: true };
  const loaded = loadPrivateKey(credentials.privateKeyPem, credentials.passphrase);
  return loaded.ok ? { ok: true } : loaded;
}

function newNonce(): string {
  return randomBytes(16).toString('hex');
}

function buildOAuth(credentials: SigningCredentials): OAuth {
  if (credentials.signatureMethod === 'HMAC-SHA1') {
    return new OAuth({
      consumer: { key: credentials.consumerKey, secret: credentials.consumerSecret },
      signature_method: 'HMAC-SHA1',
      // oauth-1.0a builds the key as percent-encoded consumer secret '&' token secret (RFC 5849 §3.4.2).
      hash_function: (base, key) => createHmac('sha1', key).update(base, 'utf8').digest('base64'),
    });
  }
  const loaded = loadPrivateKey(credentials.privateKeyPem, credentials.passphrase);
  if (!loaded.ok) throw new SigningKeyError(`Cannot sign with RSA-SHA256: ${loaded.reason}`);
  return new OAuth({
    consumer: { key: credentials.consumerKey, secret: '' },
    signature_method: 'RSA-SHA256',
    // RSASSA-PKCS1-v1_5 with SHA-256 over the base string; the signing key string is unused for RSA.
    hash_function: (base) => rsaSign('sha256', Buffer.from(base, 'utf8'), loaded.key).toString('base64'),
  });
}

/**
 * Signs a request per RFC 5849 (OAuth Core 1.0a): the base string from buildBaseString, oauth-1.0a for
 * the signing key and hash plug-in. Throws SigningKeyError for an unreadable RSA key (see checkSigningCredentials).
 */
export function signRequest(input: SignInput, credentials: SigningCredentials): SignatureDetails {
  const oauth = buildOAuth(credentials);
  const oauthParams: Record<string, string> = {
    oauth_consumer_key: credentials.consumerKey,
    oauth_nonce: input.nonce ?? newNonce(),
    oauth_signature_method: credentials.signatureMethod,
    oauth_timestamp: input.timestamp ?? String(Math.floor(Date.now() / 1000)),
    oauth_version: '1.0',
  };
  if (credentials.token !== undefined && credentials.token !== '') oauthParams.oauth_token = credentials.token;

  const baseString = buildBaseString(input.method, input.url, [...Object.entries(oauthParams), ...(input.form ?? [])]);
  const tokenSecret = credentials.signatureMethod === 'HMAC-SHA1' ? credentials.tokenSecret : undefined;
  const signature = oauth.hash_function(baseString, oauth.getSigningKey(tokenSecret));
  oauthParams.oauth_signature = signature;
  return {
    baseString,
    signature,
    signatureHex: Buffer.from(signature, 'base64').toString('hex'),
    authorization: authorizationHeader(oauthParams, input.realm),
    oauthParams,
  };
}

/**
 * `OAuth ` + realm first when set + the oauth_* parameters percent-encoded, sorted. oauth-1.0a's toHeader
 * drops an empty realm (it tests truthiness), but the report sample sends `realm=""`, so realm is added here.
 */
export function authorizationHeader(oauthParams: Record<string, string>, realm?: string): string {
  const header = encoder.toHeader(oauthParams as unknown as OAuth.Authorization).Authorization;
  if (realm === undefined) return header;
  const rest = header.slice('OAuth '.length);
  const quotedRealm = `realm="${realm.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
  return rest === '' ? `OAuth ${quotedRealm}` : `OAuth ${quotedRealm}, ${rest}`;
}
