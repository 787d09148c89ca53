import { FileRefused, readRegularFileSync } from '../core/regularFile';
import { resolve } from 'node:path';
import type { SigningCredentials } from '../core/oauth';
import { demoMerchantCredentials } from '../local-gateway';
import type { Result } from './config';
import type { CliContext } from './context';
import type { Target } from './target';

// Which secrets sign a CLI request: options, then environment variables, then the local demo merchant's.

export const SECRET_ENV = {
  consumerSecret: 'PAYGATE_CONSUMER_SECRET',
  rsaKeyFile: 'PAYGATE_RSA_KEY_FILE',
  rsaKeyPassphrase: 'PAYGATE_RSA_KEY_PASSPHRASE',
} as const;

function readKeyFile(cwd: string, file: string, source: string): Result<string> {
  try {
    return { ok: true, value: readRegularFileSync(resolve(cwd, file), file).toString('utf8') };
  } catch (err) {
    if (err instanceof FileRefused && err.code === undefined) return { ok: false, message: `${err.message} (${source})` };
    const code = (err as NodeJS.ErrnoException).code;
    return {
      ok: false,
      message: `${file} (${source}): cannot read the RSA private key: ${code === 'ENOENT' ? 'no such file' : (code ?? (err as Error).message)}`,
    };
  }
}

/**
 * Credentials for the create operation: --rsa-key, else $PAYGATE_RSA_KEY_FILE (RSA-SHA256, as the create
 * sample); else the local demo merchant's key; else $PAYGATE_CONSUMER_SECRET (HMAC-SHA1).
 */
export function createCredentials(ctx: CliContext, target: Target, rsaKeyOption: string | undefined): Result<SigningCredentials> {
  const consumerKey = target.environment.consumerKey;
  const passphrase = ctx.env[SECRET_ENV.rsaKeyPassphrase] || undefined;
  const keyFile = rsaKeyOption ?? (ctx.env[SECRET_ENV.rsaKeyFile] || undefined);
  if (keyFile !== undefined) {
    const pem = readKeyFile(ctx.cwd, keyFile, rsaKeyOption !== undefined ? '--rsa-key' : `$${SECRET_ENV.rsaKeyFile}`);
    if (!pem.ok) return pem;
    return { ok: true, value: { signatureMethod: 'RSA-SHA256', consumerKey, privateKeyPem: pem.value, passphrase } };
  }
  if (target.merchant) return { ok: true, value: demoMerchantCredentials(target.merchant, 'create', consumerKey) };
  const secret = ctx.env[SECRET_ENV.consumerSecret];
  if (secret) return { ok: true, value: { signatureMethod: 'HMAC-SHA1', consumerKey, consumerSecret: secret } };
  return {
    ok: false,
    message: `no signing key for environment "${target.environment.name}": pass --rsa-key PEMFILE or set $${SECRET_ENV.rsaKeyFile} (and $${SECRET_ENV.rsaKeyPassphrase} if it is encrypted)`,
  };
}

/** Credentials for the report operation (HMAC-SHA1): --consumer-secret, else $PAYGATE_CONSUMER_SECRET, else the demo merchant's. */
export function reportCredentials(ctx: CliContext, target: Target, secretOption: string | undefined): Result<SigningCredentials> {
  const consumerKey = target.environment.consumerKey;
  const secret = secretOption ?? (ctx.env[SECRET_ENV.consumerSecret] || undefined);
  if (secret === undefined && target.merchant) return { ok: true, value: demoMerchantCredentials(target.merchant, 'report', consumerKey) };
  if (secret === undefined) {
    return {
      ok: false,
      message: `no consumer secret for environment "${target.environment.name}": set $${SECRET_ENV.consumerSecret} (or pass --consumer-secret)`,
    };
  }
  return { ok: true, value: { signatureMethod: 'HMAC-SHA1', consumerKey, consumerSecret: secret } };
}
