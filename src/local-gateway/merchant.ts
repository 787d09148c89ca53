// The demo merchant: the one account of the local gateway, so a new user can sign and submit without
// any credential of a real gateway. Its keys are made on first run in the user's state directory
// (never in the repository) and are readable by the user alone.

import { generateKeyPairSync, randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { SigningCredentials } from '../core/oauth';
import type { DemoMerchant } from './types';

export const DEMO_CONSUMER_KEY = 'demo-merchant';
export const DEMO_ENDPOINT_ID = '1001';
export const DEMO_MERCHANT_NAME = 'Demo Merchant';
/** The currency of the demo merchant's project: the gateway requires every amount's currency to equal it. */
export const DEMO_PROJECT_CURRENCY = 'EUR';

export const MERCHANT_FILE = 'merchant.json';
export const PRIVATE_KEY_FILE = 'merchant-rsa-private.pem';
export const PUBLIC_KEY_FILE = 'merchant-rsa-public.pem';

/** The demo merchant's callback control key, read from (or made in) `stateDir` without starting a gateway. */
export function demoControlKey(stateDir: string): string | undefined {
  return parseMerchantFile(readIfExists(path.join(stateDir, MERCHANT_FILE)))?.controlKey;
}

export const STATE_DIR_ENV = 'PAYGATE_STATE_DIR';

/** defaultStateDir's chain in words, for help texts (docs/local-gateway.md says it once, for people). */
export const DEFAULT_STATE_DIR_WORDS = '$PAYGATE_STATE_DIR, else $XDG_STATE_HOME/paygate/gateway, else ~/.local/state/paygate/gateway';

/**
 * The local gateway's state directory when nobody names one (DEFAULT_STATE_DIR_WORDS). The same for the CLI,
 * the editor and `npm start`, so they find the same local gateway (docs/local-gateway.md).
 */
export function defaultStateDir(env: Record<string, string | undefined> = process.env, home: string = os.homedir()): string {
  const explicit = env[STATE_DIR_ENV];
  if (explicit) return path.resolve(explicit);
  const xdg = env.XDG_STATE_HOME;
  // The XDG spec ignores a relative XDG_STATE_HOME.
  if (xdg && path.isAbsolute(xdg)) return path.join(xdg, 'paygate', 'gateway');
  return path.join(home, '.local', 'state', 'paygate', 'gateway');
}

export function ensureStateDir(stateDir: string): void {
  fs.mkdirSync(stateDir, { recursive: true, mode: 0o700 });
}

/** Writes a private file atomically: another process never sees half a key. */
export function writePrivateFile(file: string, data: string): void {
  const tmp = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  fs.writeFileSync(tmp, data, { mode: 0o600, flag: 'wx' });
  fs.renameSync(tmp, file);
}

function readIfExists(file: string): string | undefined {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
}

interface MerchantFile {
  consumerKey: string;
  endpointId: string;
  consumerSecret: string;
  /** Signs the callbacks' `control` field (docs/callbacks.md); added to older files on the next start. */
  controlKey?: string;
}

function parseMerchantFile(text: string | undefined): MerchantFile | undefined {
  if (text === undefined) return undefined;
  try {
    const m = JSON.parse(text) as Partial<MerchantFile>;
    if (
      typeof m.consumerKey === 'string' &&
      typeof m.endpointId === 'string' &&
      typeof m.consumerSecret === 'string' &&
      m.consumerSecret.length > 0
    ) {
      return {
        consumerKey: m.consumerKey,
        endpointId: m.endpointId,
        consumerSecret: m.consumerSecret,
        ...(typeof m.controlKey === 'string' && m.controlKey.length > 0 ? { controlKey: m.controlKey } : {}),
      };
    }
  } catch {
    // A damaged file is replaced below; the old secret is unusable anyway.
  }
  return undefined;
}

/**
 * The demo merchant's endpoint id in `stateDir` without making anything: what `local` sends to, for the
 * checks that only read (lint's already-sent). The default one when the state holds no merchant yet.
 */
export function demoEndpointId(stateDir: string): string {
  return parseMerchantFile(readIfExists(path.join(stateDir, MERCHANT_FILE)))?.endpointId ?? DEMO_ENDPOINT_ID;
}

export function loadOrCreateDemoMerchant(stateDir: string): DemoMerchant {
  ensureStateDir(stateDir);
  const merchantPath = path.join(stateDir, MERCHANT_FILE);
  const privatePath = path.join(stateDir, PRIVATE_KEY_FILE);
  const publicPath = path.join(stateDir, PUBLIC_KEY_FILE);

  let merchant = parseMerchantFile(readIfExists(merchantPath));
  if (!merchant?.controlKey) {
    merchant = {
      ...(merchant ?? {
        consumerKey: DEMO_CONSUMER_KEY,
        endpointId: DEMO_ENDPOINT_ID,
        consumerSecret: randomBytes(24).toString('base64url'),
      }),
      controlKey: randomBytes(18).toString('base64url'),
    };
    writePrivateFile(merchantPath, `${JSON.stringify(merchant, null, 2)}\n`);
  }
  const controlKey = merchant.controlKey ?? '';

  let rsaPrivateKeyPem = readIfExists(privatePath);
  let rsaPublicKeyPem = readIfExists(publicPath);
  if (!rsaPrivateKeyPem || !rsaPublicKeyPem) {
    const pair = generateKeyPairSync('rsa', {
      modulusLength: 2048,
      publicKeyEncoding: { type: 'spki', format: 'pem' },
      privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
    });
    writePrivateFile(privatePath, pair.privateKey);
    writePrivateFile(publicPath, pair.publicKey);
    rsaPrivateKeyPem = pair.privateKey;
    rsaPublicKeyPem = pair.publicKey;
  }
  return { ...merchant, controlKey, rsaPrivateKeyPem, rsaPublicKeyPem };
}

/**
 * How a client signs for the demo merchant: the create sample signs with RSA-SHA256 and the report
 * operation states HMAC-SHA1, so the demo merchant has both. `consumerKey` is the key the request names
 * (an override may name another, which the local gateway then refuses).
 */
export function demoMerchantCredentials(
  merchant: DemoMerchant,
  operation: 'create' | 'report',
  consumerKey = merchant.consumerKey,
): SigningCredentials {
  return operation === 'create'
    ? { signatureMethod: 'RSA-SHA256', consumerKey, privateKeyPem: merchant.rsaPrivateKeyPem }
    : { signatureMethod: 'HMAC-SHA1', consumerKey, consumerSecret: merchant.consumerSecret };
}
