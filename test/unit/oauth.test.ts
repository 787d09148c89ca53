import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHmac, generateKeyPairSync, verify as cryptoVerify } from 'node:crypto';
import fc from 'fast-check';
import {
  signRequest,
  verifyRequest,
  parseAuthorizationHeader,
  checkSigningCredentials,
  type SigningCredentials,
} from '../../src/core/oauth';
import { baseStringUri } from '../../src/core/oauth/sign';

// --- An independent RFC 5849 §3.4.1 base string, written from the RFC for cross-checking only. ---
function rfcEncode(s: string): string {
  let out = '';
  for (const b of new TextEncoder().encode(s)) {
    const c = String.fromCharCode(b);
    out += /[A-Za-z0-9\-._~]/.test(c) ? c : `%${b.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}
interface UrlParts {
  scheme: string;
  host: string;
  port?: number;
  path: string;
}
function rfcBaseUri(u: UrlParts): string {
  const scheme = u.scheme.toLowerCase();
  const defaultPort = scheme === 'http' ? 80 : 443;
  const port = u.port === undefined || u.port === defaultPort ? '' : `:${u.port}`;
  return `${scheme}://${u.host.toLowerCase()}${port}${u.path}`;
}
function codeUnitOrder(a: string, b: string): number {
  if (a < b) return -1;
  return a > b ? 1 : 0;
}

function rfcBaseString(method: string, u: UrlParts, params: [string, string][]): string {
  const encoded = params.map(([n, v]) => [rfcEncode(n), rfcEncode(v)] as const);
  encoded.sort((a, b) => codeUnitOrder(a[0], b[0]) || codeUnitOrder(a[1], b[1]));
  const normalized = encoded.map(([n, v]) => `${n}=${v}`).join('&');
  return `${method.toUpperCase()}&${rfcEncode(rfcBaseUri(u))}&${rfcEncode(normalized)}`;
}

test('OAuth Core 1.0a Appendix A.5: base string and HMAC-SHA1 signature', () => {
  const d = signRequest(
    {
      method: 'GET',
      url: 'http://photos.example.net/photos?file=vacation.jpg&size=original',
      nonce: 'kllo9940pd9333jh',
      timestamp: '1191242096',
    },
    {
      signatureMethod: 'HMAC-SHA1',
      consumerKey: 'dpf43f3p2l4k3l03',
      consumerSecret: 'kd94hf93k423kf44',
      token: 'nnch734d00sl2jdk',
      tokenSecret: 'pfkkdhi9sl3r4s00',
    },
  );
  // Appendix A.5.1 publishes this base string.
  assert.equal(
    d.baseString,
    'GET&http%3A%2F%2Fphotos.example.net%2Fphotos&file%3Dvacation.jpg%26oauth_consumer_key%3Ddpf43f3p2l4k3l03%26oauth_nonce%3Dkllo9940pd9333jh%26oauth_signature_method%3DHMAC-SHA1%26oauth_timestamp%3D1191242096%26oauth_token%3Dnnch734d00sl2jdk%26oauth_version%3D1.0%26size%3Doriginal',
  );
  assert.equal(d.signature, 'tR3+Ty81lMeYAr/Fid0kMTYa/WM=');
  assert.equal(d.signatureHex, Buffer.from('tR3+Ty81lMeYAr/Fid0kMTYa/WM=', 'base64').toString('hex'));
  assert.match(d.authorization, /oauth_signature="tR3%2BTy81lMeYAr%2FFid0kMTYa%2FWM%3D"/);
  assert.ok(d.authorization.startsWith('OAuth oauth_'), 'no realm when none is set');
});

const twitter = {
  input: {
    method: 'POST',
    url: 'https://api.twitter.com/1.1/statuses/update.json?include_entities=true',
    form: [['status', 'Hello Ladies + Gentlemen, a signed OAuth request!']] as [string, string][],
    nonce: 'kYjzVBB8Y0ZFabxSWbWovY3uYSQ2pTgmZeNu2VS4cg',
    timestamp: '1318622958',
  },
  credentials: {
    signatureMethod: 'HMAC-SHA1',
    consumerKey: 'xvz1evFS4wEEPTGEFPHBog',
    consumerSecret: 'kAcSOqF21Fu85e7zjz7ZN2U4ZRhfV3WpwPAoE3Z7kBw',
    token: '370773112-GmHxMAgYyLbNEtIKZeRNFsMKPR9EyMZeS9weJAEb',
    tokenSecret: 'LswwdoUaIvS8ltyTt5jkRh4J50vUPVVHtR2YPi5kE',
  } satisfies SigningCredentials,
};

test('Twitter developer documentation example: form body and query in the base string', () => {
  const d = signRequest(twitter.input, twitter.credentials);
  // The documentation's published signature base string.
  assert.equal(
    d.baseString,
    'POST&https%3A%2F%2Fapi.twitter.com%2F1.1%2Fstatuses%2Fupdate.json&include_entities%3Dtrue%26oauth_consumer_key%3Dxvz1evFS4wEEPTGEFPHBog%26oauth_nonce%3DkYjzVBB8Y0ZFabxSWbWovY3uYSQ2pTgmZeNu2VS4cg%26oauth_signature_method%3DHMAC-SHA1%26oauth_timestamp%3D1318622958%26oauth_token%3D370773112-GmHxMAgYyLbNEtIKZeRNFsMKPR9EyMZeS9weJAEb%26oauth_version%3D1.0%26status%3DHello%2520Ladies%2520%252B%2520Gentlemen%252C%2520a%2520signed%2520OAuth%2520request%2521',
  );
  assert.equal(d.signature, 'hCtSmYh+iHYCEqBWrE7C7hYmtUk=');
  // The signing key is the percent-encoded consumer secret & token secret.
  const key = `${twitter.credentials.consumerSecret}&${twitter.credentials.tokenSecret}`;
  assert.equal(createHmac('sha1', key).update(d.baseString).digest('base64'), d.signature);
});

test('the header puts realm first when set, realm="" when empty, and none when undefined', () => {
  const none = signRequest(twitter.input, twitter.credentials).authorization;
  const empty = signRequest({ ...twitter.input, realm: '' }, twitter.credentials).authorization;
  const named = signRequest({ ...twitter.input, realm: 'Photos' }, twitter.credentials).authorization;
  assert.match(none, /^OAuth oauth_consumer_key="/);
  assert.match(empty, /^OAuth realm="", oauth_consumer_key="/);
  assert.match(named, /^OAuth realm="Photos", oauth_consumer_key="/);
  // The realm is not part of the signature (RFC 5849 §3.4.1.3.1).
  assert.equal(parseAuthorizationHeader(empty)?.params.oauth_signature, parseAuthorizationHeader(none)?.params.oauth_signature);
  const parsed = parseAuthorizationHeader(empty);
  assert.equal(parsed?.realm, '');
  assert.equal(parsed?.params.oauth_version, '1.0');
  assert.deepEqual(
    Object.keys(parsed!.params).filter((k) => !k.startsWith('oauth_')),
    [],
  );
});

test('header values are percent-encoded, and parse back to the signed values', () => {
  const d = signRequest(
    { method: 'POST', url: 'https://h.example/p', nonce: 'a b+c/d=', timestamp: '1' },
    { signatureMethod: 'HMAC-SHA1', consumerKey: 'key with space&amp', consumerSecret: 's' },
  );
  assert.match(d.authorization, /oauth_nonce="a%20b%2Bc%2Fd%3D"/);
  assert.match(d.authorization, /oauth_consumer_key="key%20with%20space%26amp"/);
  assert.deepEqual(parseAuthorizationHeader(d.authorization)?.params, d.oauthParams);
});

test('query parameters decode + as space and keep duplicates; the base URI is normalised', () => {
  const d = signRequest(
    { method: 'get', url: 'HTTP://Example.COM:80/a%20b/c?x=1+2&x=0&y=%2B&z', nonce: 'n', timestamp: '1' },
    { signatureMethod: 'HMAC-SHA1', consumerKey: 'k', consumerSecret: 's' },
  );
  const expected = rfcBaseString('GET', { scheme: 'http', host: 'example.com', path: '/a%20b/c' }, [
    ['x', '1 2'],
    ['x', '0'],
    ['y', '+'],
    ['z', ''],
    ['oauth_consumer_key', 'k'],
    ['oauth_nonce', 'n'],
    ['oauth_signature_method', 'HMAC-SHA1'],
    ['oauth_timestamp', '1'],
    ['oauth_version', '1.0'],
  ]);
  assert.equal(d.baseString, expected);
  assert.equal(baseStringUri('https://EXAMPLE.com:443/'), 'https://example.com/');
  assert.equal(baseStringUri('https://example.com:8443/x?q#f'), 'https://example.com:8443/x');
});

test('Base64 payload characters + / = are percent-encoded twice in the base string', () => {
  const payload = 'ab+/cd==';
  const d = signRequest(
    { method: 'POST', url: 'https://h.example/p/', form: [['payload', payload]], nonce: 'n', timestamp: '1' },
    { signatureMethod: 'HMAC-SHA1', consumerKey: 'k', consumerSecret: 's' },
  );
  assert.ok(d.baseString.endsWith('%26payload%3Dab%252B%252Fcd%253D%253D'), d.baseString);
});

test('cross-check against an independent RFC 5849 base string on random requests', () => {
  const text = fc.string({ unit: 'binary', maxLength: 10 });
  const name = fc.string({ unit: 'binary', minLength: 1, maxLength: 6 }).filter((n) => !n.startsWith('oauth_'));
  // Names an object merge would lose (__proto__) or shadow (constructor) are signed like any other.
  const pairs = fc.array(fc.tuple(fc.oneof(name, fc.constantFrom('a', 'b', 'a b', '__proto__', 'constructor', 'toString')), text), {
    maxLength: 5,
  });
  const segment = fc
    .string({ unit: 'binary', minLength: 1, maxLength: 6 })
    .map(rfcEncode)
    .filter((s) => s !== '.' && s !== '..');
  fc.assert(
    fc.property(
      fc.constantFrom('GET', 'POST', 'post', 'Put'),
      fc.constantFrom('http', 'https', 'HTTPS'),
      fc.constantFrom('example.com', 'API.Example.NET', '127.0.0.1'),
      fc.option(fc.constantFrom(80, 443, 8080, 4567), { nil: undefined }),
      fc.array(segment, { maxLength: 3 }),
      pairs,
      pairs,
      fc.option(text, { nil: undefined }),
      text,
      (method, scheme, host, port, segments, query, form, tokenSecret, secret) => {
        const path = `/${segments.join('/')}`;
        const search = query.length ? `?${query.map(([n, v]) => `${rfcEncode(n)}=${rfcEncode(v)}`).join('&')}` : '';
        const url = `${scheme}://${host}${port === undefined ? '' : `:${port}`}${path}${search}`;
        const credentials: SigningCredentials = {
          signatureMethod: 'HMAC-SHA1',
          consumerKey: 'ck',
          consumerSecret: secret,
          token: 'tok',
          tokenSecret,
        };
        const d = signRequest({ method, url, form, nonce: 'nonce', timestamp: '1700000000' }, credentials);
        const oauth: [string, string][] = [
          ['oauth_consumer_key', 'ck'],
          ['oauth_nonce', 'nonce'],
          ['oauth_signature_method', 'HMAC-SHA1'],
          ['oauth_timestamp', '1700000000'],
          ['oauth_token', 'tok'],
          ['oauth_version', '1.0'],
        ];
        const expected = rfcBaseString(method, { scheme, host, port, path }, [...query, ...form, ...oauth]);
        assert.equal(d.baseString, expected);
        const key = `${rfcEncode(secret)}&${rfcEncode(tokenSecret ?? '')}`;
        assert.equal(d.signature, createHmac('sha1', key).update(expected, 'utf8').digest('base64'));
        assert.deepEqual(verifyRequest({ method, url, form, authorization: d.authorization }, { consumerSecret: secret, tokenSecret }), {
          ok: true,
          consumerKey: 'ck',
        });
      },
    ),
    { numRuns: 300 },
  );
});

function rsaKeys(options: { type: 'pkcs1' | 'pkcs8'; passphrase?: string }) {
  const { publicKey, privateKey } = generateKeyPairSync('rsa', {
    modulusLength: 2048,
    publicKeyEncoding: { type: 'spki', format: 'pem' },
    privateKeyEncoding: options.passphrase
      ? { type: options.type, format: 'pem', cipher: 'aes-256-cbc', passphrase: options.passphrase }
      : { type: options.type, format: 'pem' },
  });
  return { publicKey, privateKey };
}

test('RSA-SHA256 (RSASSA-PKCS1-v1_5) verifies with the public key, for PKCS#1, PKCS#8 and encrypted keys', () => {
  const cases = [
    { label: 'PKCS#1', type: 'pkcs1' as const, header: '-----BEGIN RSA PRIVATE KEY-----' },
    { label: 'PKCS#8', type: 'pkcs8' as const, header: '-----BEGIN PRIVATE KEY-----' },
    { label: 'encrypted PKCS#8', type: 'pkcs8' as const, passphrase: 'correct horse', header: '-----BEGIN ENCRYPTED PRIVATE KEY-----' },
  ];
  for (const c of cases) {
    const { publicKey, privateKey } = rsaKeys(c);
    assert.ok(privateKey.startsWith(c.header), c.label);
    const credentials: SigningCredentials = {
      signatureMethod: 'RSA-SHA256',
      consumerKey: 'merchant',
      privateKeyPem: privateKey,
      passphrase: c.passphrase,
    };
    const input = {
      method: 'POST',
      url: 'https://gw.example/api/v4/create-recurring-payments/42/',
      form: [['payload', 'YTtiDQo=']] as [string, string][],
    };
    const d = signRequest(input, credentials);
    assert.match(d.baseString, /oauth_signature_method%3DRSA-SHA256/);
    assert.ok(cryptoVerify('sha256', Buffer.from(d.baseString), publicKey, Buffer.from(d.signature, 'base64')), c.label);
    assert.equal(d.signatureHex.length, 512, '2048-bit signature');
    assert.deepEqual(verifyRequest({ ...input, authorization: d.authorization }, { rsaPublicKeyPem: publicKey }), {
      ok: true,
      consumerKey: 'merchant',
    });
    const tampered = verifyRequest(
      { ...input, form: [['payload', 'YTtjDQo=']], authorization: d.authorization },
      { rsaPublicKeyPem: publicKey },
    );
    assert.equal(tampered.ok, false);
  }
});

test('RSA key problems are reported without the key or the passphrase', () => {
  const { privateKey } = rsaKeys({ type: 'pkcs8', passphrase: 'sekrit-pass' });
  const wrong = checkSigningCredentials({
    signatureMethod: 'RSA-SHA256',
    consumerKey: 'k',
    privateKeyPem: privateKey,
    passphrase: 'not-it',
  });
  const missing = checkSigningCredentials({ signatureMethod: 'RSA-SHA256', consumerKey: 'k', privateKeyPem: privateKey });
  const garbage = checkSigningCredentials({ signatureMethod: 'RSA-SHA256', consumerKey: 'k', privateKeyPem: 'hello' });
  for (const r of [wrong, missing, garbage]) {
    assert.equal(r.ok, false);
    if (!r.ok) {
      assert.doesNotMatch(r.reason, /sekrit|not-it|BEGIN/);
    }
  }
  assert.ok(!wrong.ok && /passphrase/.test(wrong.reason));
  assert.ok(!missing.ok && /passphrase/.test(missing.reason));
  assert.throws(
    () =>
      signRequest(
        { method: 'POST', url: 'https://x.example/' },
        { signatureMethod: 'RSA-SHA256', consumerKey: 'k', privateKeyPem: 'hello' },
      ),
    /SigningKeyError|Cannot sign/,
  );
});

test('verifyRequest rejects a wrong secret, a wrong method for the keys, and a non-OAuth header', () => {
  const d = signRequest(twitter.input, twitter.credentials);
  const req = { method: 'POST', url: twitter.input.url, form: twitter.input.form, authorization: d.authorization };
  assert.deepEqual(verifyRequest(req, { consumerSecret: 'wrong', tokenSecret: twitter.credentials.tokenSecret }), {
    ok: false,
    reason: 'signature mismatch',
  });
  assert.equal(verifyRequest(req, { rsaPublicKeyPem: 'x' }).ok, false);
  assert.equal(verifyRequest({ ...req, authorization: 'Basic abc' }, { consumerSecret: 'x' }).ok, false);
  assert.equal(parseAuthorizationHeader('Bearer x'), undefined);
});

test('where oauth-1.0a alone would deviate from RFC 5849: raw = in a query value, a name in both query and body, fragments', () => {
  const credentials: SigningCredentials = { signatureMethod: 'HMAC-SHA1', consumerKey: 'k', consumerSecret: 's' };
  const d = signRequest(
    {
      method: 'POST',
      url: 'https://h.example/p?a=b=c&n=1#frag',
      form: [
        ['n', '2'],
        ['a%20', 'x+y'],
      ],
      nonce: 'n',
      timestamp: '1',
    },
    credentials,
  );
  const expected = rfcBaseString('POST', { scheme: 'https', host: 'h.example', path: '/p' }, [
    ['a', 'b=c'],
    ['n', '1'],
    ['n', '2'],
    ['a%20', 'x+y'],
    ['oauth_consumer_key', 'k'],
    ['oauth_nonce', 'n'],
    ['oauth_signature_method', 'HMAC-SHA1'],
    ['oauth_timestamp', '1'],
    ['oauth_version', '1.0'],
  ]);
  assert.equal(d.baseString, expected);
});

test('an Authorization header with a trailing comma or odd spacing still parses', () => {
  assert.deepEqual(parseAuthorizationHeader('OAuth realm="",oauth_nonce="a%2Fb" ,  oauth_version = "1.0", '), {
    realm: '',
    params: { oauth_nonce: 'a/b', oauth_version: '1.0' },
  });
});

test('a parameter named __proto__ is signed, in the query and in the form body, and verifies', () => {
  const credentials: SigningCredentials = { signatureMethod: 'HMAC-SHA1', consumerKey: 'ck', consumerSecret: 's' };
  const d = signRequest(
    {
      method: 'POST',
      url: 'https://h.example/p?__proto__=q',
      form: [
        ['__proto__', 'x'],
        ['constructor', 'y'],
      ],
      nonce: 'n',
      timestamp: '1',
    },
    credentials,
  );
  assert.ok(d.baseString.includes('__proto__%3Dq%26__proto__%3Dx'), d.baseString);
  assert.ok(d.baseString.includes('constructor%3Dy'), d.baseString);
  const without = signRequest(
    { method: 'POST', url: 'https://h.example/p', form: [['constructor', 'y']], nonce: 'n', timestamp: '1' },
    credentials,
  );
  assert.notEqual(d.signature, without.signature);
  const v = verifyRequest(
    {
      method: 'POST',
      url: 'https://h.example/p?__proto__=q',
      form: [
        ['__proto__', 'x'],
        ['constructor', 'y'],
      ],
      authorization: d.authorization,
    },
    { consumerSecret: 's' },
  );
  assert.ok(v.ok, JSON.stringify(v));
  const tampered = verifyRequest(
    {
      method: 'POST',
      url: 'https://h.example/p?__proto__=q',
      form: [
        ['__proto__', 'changed'],
        ['constructor', 'y'],
      ],
      authorization: d.authorization,
    },
    { consumerSecret: 's' },
  );
  assert.equal(tampered.ok, false);
});
