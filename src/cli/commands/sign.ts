import { FileRefused, readRegularFileSync } from '../../core/regularFile';
import { resolve } from 'node:path';
import { SECRET_ENV } from '../credentials';
import type { CliContext } from '../context';
import { field, inputError, jsonOut, usageError } from '../output';
import { joinLaid, laid, maskText, vet, vouched } from '../../core/output';
import { choiceOption, collect, exits, paygateCommand } from '../parser';
import { checkSigningCredentials, signRequest, type SigningCredentials } from '../../core/oauth';

export interface SignOptions {
  method: string;
  url: string;
  consumerKey: string;
  consumerSecret?: string;
  rsaKey?: string;
  signatureMethod?: 'HMAC-SHA1' | 'RSA-SHA256';
  token?: string;
  tokenSecret?: string;
  param?: string[];
  timestamp?: string;
  nonce?: string;
  realm?: string;
  format: 'text' | 'json';
}

export function signCommand(ctx: CliContext) {
  return paygateCommand(
    {
      name: 'sign',
      summary: 'compute an OAuth 1.0a signature (base string, Base64/hex value, header)',
      description:
        'Computes an OAuth 1.0a signature (debug form): the base string, the signature in Base64 and hex, and the ' +
        'Authorization header. Nothing is sent.',
      exits: [
        [0, 'signed'],
        [2, 'usage error'],
      ],
    },
    ctx,
  )
    .requiredOption('--method <M>', 'HTTP method of the request')
    .requiredOption('--url <URL>', 'the request URL; its query parameters are signed')
    .requiredOption('--consumer-key <K>', 'oauth_consumer_key')
    .option('--consumer-secret <S>', `HMAC-SHA1 secret (default $${SECRET_ENV.consumerSecret})`)
    .option(
      '--rsa-key <PEMFILE>',
      `RSA-SHA256 private key, PKCS#1 or PKCS#8 PEM (default $${SECRET_ENV.rsaKeyFile}; passphrase from $${SECRET_ENV.rsaKeyPassphrase})`,
    )
    .addOption(
      choiceOption('--signature-method <METHOD>', 'default: RSA-SHA256 with an RSA key and no consumer secret, else HMAC-SHA1', [
        'HMAC-SHA1',
        'RSA-SHA256',
      ]),
    )
    .option('--token <T>', 'oauth_token')
    .option('--token-secret <TS>', 'token secret (HMAC-SHA1)')
    .option(
      '--param <name=value>',
      'a form body parameter (decoded value); repeat for more. A JSON body is never part of the signature: leave it out.',
      collect,
    )
    .option('--timestamp <T>', 'fixed oauth_timestamp (default: now)')
    .option('--nonce <N>', 'fixed oauth_nonce (default: a random nonce)')
    .option('--realm <R>', 'put realm="R" first in the header (--realm "" gives realm="", as the report sample)')
    .addOption(
      choiceOption('--format <FORMAT>', 'json: {"baseString","signature","signatureHex","authorization"}', ['text', 'json']).default(
        'text',
      ),
    )
    .action(exits((o) => signDebug(o, ctx)));
}

export async function signDebug(v: SignOptions, ctx: CliContext): Promise<number> {
  const usage = (message: string) => usageError(ctx, 'paygate sign', message);
  const { method, url, consumerKey } = v;
  if (!method || !url) return usage('--method and --url must not be empty');
  try {
    new URL(url);
  } catch {
    return usage(`--url must be an absolute URL, not "${url}"`);
  }
  if (!/^[A-Za-z]+$/.test(method)) return usage(`--method must be an HTTP method, not "${method}"`);
  const form: [string, string][] = [];
  for (const p of v.param ?? []) {
    const eq = p.indexOf('=');
    if (eq <= 0) return usage(`--param must be name=value, not "${p}"`);
    form.push([p.slice(0, eq), p.slice(eq + 1)]);
  }
  for (const [option, pattern] of [
    ['timestamp', /^\d+$/],
    ['nonce', /^.+$/s],
  ] as const) {
    const value = v[option];
    if (value !== undefined && !pattern.test(value)) return usage(`--${option} "${value}" is not valid`);
  }

  const keyFile = v.rsaKey ?? (ctx.env[SECRET_ENV.rsaKeyFile] || undefined);
  const secret = v.consumerSecret ?? ctx.env[SECRET_ENV.consumerSecret];
  const signatureMethod = v.signatureMethod ?? (keyFile !== undefined && v.consumerSecret === undefined ? 'RSA-SHA256' : 'HMAC-SHA1');
  let credentials: SigningCredentials;
  if (signatureMethod === 'RSA-SHA256') {
    if (keyFile === undefined) return usage(`RSA-SHA256 needs --rsa-key PEMFILE (or $${SECRET_ENV.rsaKeyFile})`);
    let pem: string;
    try {
      pem = readRegularFileSync(resolve(ctx.cwd, keyFile), keyFile).toString('utf8');
    } catch (err) {
      if (err instanceof FileRefused && err.code !== 'ENOENT') return inputError(ctx, 'paygate sign', err.message);
      return inputError(
        ctx,
        'paygate sign',
        `${keyFile}: cannot read the RSA private key: ${(err as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (err as Error).message}`,
      );
    }
    credentials = {
      signatureMethod: 'RSA-SHA256',
      consumerKey,
      privateKeyPem: pem,
      passphrase: ctx.env[SECRET_ENV.rsaKeyPassphrase] || undefined,
      token: v.token,
    };
    const usable = checkSigningCredentials(credentials);
    if (!usable.ok) return inputError(ctx, 'paygate sign', `${keyFile}: ${usable.reason}`);
  } else {
    if (secret === undefined) return usage(`HMAC-SHA1 needs --consumer-secret S (or $${SECRET_ENV.consumerSecret})`);
    credentials = { signatureMethod: 'HMAC-SHA1', consumerKey, consumerSecret: secret, token: v.token, tokenSecret: v.tokenSecret };
  }

  const d = signRequest({ method, url, form, realm: v.realm, timestamp: v.timestamp, nonce: v.nonce }, credentials);
  // The signature is over the real values; what is printed passes the boundary like every output: a card
  // number in a parameter is masked and a labelled CVV hidden in the base string (same length, so its
  // layout can still be compared with another's).
  const baseString = field(maskText(d.baseString));
  const authorization = field(maskText(d.authorization));
  if (v.format === 'json') {
    ctx.stdout(jsonOut({ baseString, signature: d.signature, signatureHex: d.signatureHex, authorization }));
  } else {
    // Laid out from its values (core/output/laid.ts): the floor does not read it again.
    ctx.stdout(
      vouched(
        joinLaid(
          [
            laid`Signature method:   ${vet.text(credentials.signatureMethod)}\nBase string:\n  ${baseString}\n`,
            laid`Signature (Base64): ${vet.text(d.signature)}\nSignature (hex):    ${vet.text(d.signatureHex)}\n`,
            laid`Authorization: ${authorization}\n`,
          ],
          '',
        ),
      ),
    );
  }
  return 0;
}
