import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Command } from '../command';
import { parseCommandArgs, oneOf, stringValue, stringValues } from '../args';
import { processContext, SECRET_ENV, type CliContext } from '../config';
import { checkSigningCredentials, signRequest, type SigningCredentials } from '../../core/oauth';

const HELP = `Usage: paygate sign --method M --url URL --consumer-key K (--consumer-secret S | --rsa-key PEMFILE)
                    --signature-method HMAC-SHA1|RSA-SHA256 [--token T --token-secret TS]
                    [--param name=value]... [--timestamp T] [--nonce N] [--realm R] [--format text|json]

Computes an OAuth 1.0a signature (debug form): the base string, the signature in Base64 and hex, and the
Authorization header. Nothing is sent.

Options:
  --param name=value   a form body parameter (decoded value); repeat for more. Query parameters come from --url.
                       A JSON body is never part of the signature: leave it out.
  --consumer-secret S  HMAC-SHA1 secret (default $PAYGATE_CONSUMER_SECRET)
  --rsa-key PEMFILE    RSA-SHA256 private key, PKCS#1 or PKCS#8 PEM (default $PAYGATE_RSA_KEY_FILE;
                       passphrase from $PAYGATE_RSA_KEY_PASSPHRASE)
  --signature-method   default: RSA-SHA256 with a key, else HMAC-SHA1
  --realm R            put realm="R" first in the header (--realm "" gives realm="", as the report sample)
  --timestamp T, --nonce N   fixed values (default: now and a random nonce)
  --format text|json   json: {"baseString","signature","signatureHex","authorization"}
  -h, --help           this help

Exit status: 0 signed, 2 usage error.`;

export async function runSign(args: string[], ctx: CliContext): Promise<number> {
  const usage = (message: string) => {
    ctx.stderr(`paygate sign: ${message}\n`);
    return 2;
  };
  const parsed = parseCommandArgs(args, {
    method: { type: 'string' }, url: { type: 'string' }, 'consumer-key': { type: 'string' }, 'consumer-secret': { type: 'string' },
    'rsa-key': { type: 'string' }, 'signature-method': { type: 'string' }, token: { type: 'string' }, 'token-secret': { type: 'string' },
    param: { type: 'string', multiple: true }, timestamp: { type: 'string' }, nonce: { type: 'string' }, realm: { type: 'string' },
    format: { type: 'string' }, help: { type: 'boolean', short: 'h' },
  }, false);
  if (!parsed.ok) return usage(`${parsed.message}\n${HELP}`);
  const v = parsed.values;
  if (v.help) {
    ctx.stdout(`${HELP}\n`);
    return 0;
  }
  const format = oneOf(stringValue(v, 'format'), ['text', 'json'] as const, '--format', 'text');
  if (!format.ok) return usage(format.message);
  const method = stringValue(v, 'method');
  const url = stringValue(v, 'url');
  const consumerKey = stringValue(v, 'consumer-key');
  if (!method || !url || consumerKey === undefined) return usage(`--method, --url and --consumer-key are required\n${HELP}`);
  try {
    new URL(url);
  } catch {
    return usage(`--url must be an absolute URL, not "${url}"`);
  }
  if (!/^[A-Za-z]+$/.test(method)) return usage(`--method must be an HTTP method, not "${method}"`);
  const form: [string, string][] = [];
  for (const p of stringValues(v, 'param')) {
    const eq = p.indexOf('=');
    if (eq <= 0) return usage(`--param must be name=value, not "${p}"`);
    form.push([p.slice(0, eq), p.slice(eq + 1)]);
  }
  for (const [option, pattern] of [['timestamp', /^\d+$/], ['nonce', /^.+$/s]] as const) {
    const value = stringValue(v, option);
    if (value !== undefined && !pattern.test(value)) return usage(`--${option} "${value}" is not valid`);
  }

  const keyFile = stringValue(v, 'rsa-key') ?? (ctx.env[SECRET_ENV.rsaKeyFile] || undefined);
  const secret = stringValue(v, 'consumer-secret') ?? ctx.env[SECRET_ENV.consumerSecret];
  const chosen = oneOf(stringValue(v, 'signature-method'), ['HMAC-SHA1', 'RSA-SHA256'] as const, '--signature-method', keyFile !== undefined && stringValue(v, 'consumer-secret') === undefined ? 'RSA-SHA256' : 'HMAC-SHA1');
  if (!chosen.ok) return usage(chosen.message);
  let credentials: SigningCredentials;
  if (chosen.value === 'RSA-SHA256') {
    if (keyFile === undefined) return usage(`RSA-SHA256 needs --rsa-key PEMFILE (or $${SECRET_ENV.rsaKeyFile})`);
    let pem: string;
    try {
      pem = readFileSync(resolve(ctx.cwd, keyFile), 'utf8');
    } catch (err) {
      return usage(`${keyFile}: cannot read the RSA private key: ${(err as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (err as Error).message}`);
    }
    credentials = { signatureMethod: 'RSA-SHA256', consumerKey, privateKeyPem: pem, passphrase: ctx.env[SECRET_ENV.rsaKeyPassphrase] || undefined, token: stringValue(v, 'token') };
    const usable = checkSigningCredentials(credentials);
    if (!usable.ok) return usage(`${keyFile}: ${usable.reason}`);
  } else {
    if (secret === undefined) return usage(`HMAC-SHA1 needs --consumer-secret S (or $${SECRET_ENV.consumerSecret})`);
    credentials = { signatureMethod: 'HMAC-SHA1', consumerKey, consumerSecret: secret, token: stringValue(v, 'token'), tokenSecret: stringValue(v, 'token-secret') };
  }

  const d = signRequest({ method, url, form, realm: stringValue(v, 'realm'), timestamp: stringValue(v, 'timestamp'), nonce: stringValue(v, 'nonce') }, credentials);
  if (format.value === 'json') {
    ctx.stdout(`${JSON.stringify({ baseString: d.baseString, signature: d.signature, signatureHex: d.signatureHex, authorization: d.authorization })}\n`);
  } else {
    ctx.stdout(
      `Signature method:   ${credentials.signatureMethod}\n` +
        `Base string:\n  ${d.baseString}\n` +
        `Signature (Base64): ${d.signature}\n` +
        `Signature (hex):    ${d.signatureHex}\n` +
        `Authorization: ${d.authorization}\n`,
    );
  }
  return 0;
}

export const sign: Command = {
  summary: 'compute an OAuth 1.0a signature: base string, signature (Base64, hex), header',
  run: (args) => runSign(args, processContext()),
};
