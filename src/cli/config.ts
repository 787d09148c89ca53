import { readFileSync } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';
import {
  baseUrlProblem,
  CliConfigSchema,
  findEnvironment,
  formatZodIssues,
  LOCAL_ENVIRONMENT,
  type Environment,
  type GatewayConfig,
  type PathTemplates,
} from '../core/gateway';
import { readJsonText } from '../core/gateway/jsonPosition';
import { checkTrust, realPath, userConfigDir } from './trust';
import type { SigningCredentials } from '../core/oauth';
import type { CliContext } from './context';
import {
  defaultStateDir,
  loadOrCreateDemoMerchant,
  readRunningGateway,
  readStateLock,
  startLocalGateway,
  StateDirLockedError,
  type DemoMerchant,
} from '../local-gateway';

// Where a CLI request goes and with which secrets: paygate.config.json (cwd or --config) for environments and
// paths, environment variables for secrets, and the local gateway with its demo merchant when nothing is set.

export const CONFIG_FILE = 'paygate.config.json';
export const SECRET_ENV = {
  consumerSecret: 'PAYGATE_CONSUMER_SECRET',
  rsaKeyFile: 'PAYGATE_RSA_KEY_FILE',
  rsaKeyPassphrase: 'PAYGATE_RSA_KEY_PASSPHRASE',
} as const;

export type Result<T> = { ok: true; value: T } | { ok: false; message: string };

/**
 * Reads --config FILE, else ./paygate.config.json if present and trusted (see trust.ts), else the user's
 * own `$XDG_CONFIG_HOME/paygate/paygate.config.json` (or ~/.config/paygate/…), else the defaults
 * (environment local). An untrusted or changed ./paygate.config.json is an error: nothing may be sent.
 */
export function loadCliConfig(
  cwd: string,
  configPath?: string,
  env: Record<string, string | undefined> = process.env,
): Result<{ config: GatewayConfig; file?: string }> {
  let given: string | undefined;
  if (configPath !== undefined) given = isAbsolute(configPath) ? configPath : resolve(cwd, configPath);
  const local = join(cwd, CONFIG_FILE);
  const own = join(userConfigDir(env), CONFIG_FILE);
  const candidates = given !== undefined ? [given] : [local, own];
  for (const file of candidates) {
    let bytes: Buffer;
    try {
      bytes = readFileSync(file);
    } catch (err) {
      if (given === undefined && (err as NodeJS.ErrnoException).code === 'ENOENT') continue;
      return {
        ok: false,
        message: `${configPath ?? file}: cannot read: ${(err as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (err as Error).message}`,
      };
    }
    // The bytes checked are the bytes used: the file cannot change between the check and the parse.
    if (given === undefined && file === local && realPath(local) !== realPath(own)) {
      const trust = checkTrust(env, local, bytes);
      if (!trust.trusted) return { ok: false, message: trust.message };
    }
    const read = readJsonText(bytes.toString('utf8'));
    if (!read.ok) return { ok: false, message: `${file}:${read.line ?? 1}:${read.column ?? 1}: invalid JSON: ${read.message}` };
    const r = CliConfigSchema.safeParse(read.value);
    if (!r.success) return { ok: false, message: `${file}: ${formatZodIssues(r.error)}` };
    return { ok: true, value: { config: r.data, file } };
  }
  return { ok: true, value: { config: CliConfigSchema.parse({}) } };
}

export interface TargetOverrides {
  env?: string;
  baseUrl?: string;
  reportBaseUrl?: string;
  endpointId?: string;
  consumerKey?: string;
}

/** The environment a command talks to, and how to let go of it (an in-process local gateway is stopped). */
export interface Target {
  environment: Environment;
  paths: PathTemplates;
  timeoutMs: number;
  /** The demo merchant when the environment is the local gateway. */
  merchant?: DemoMerchant;
  /** Set when this command started the local gateway itself. */
  startedGateway: boolean;
  release(): Promise<void>;
}

function checkUrl(value: string, option: string): string | undefined {
  // Never echoes a password a URL may carry.
  const problem = baseUrlProblem(value);
  return problem === undefined ? undefined : `${option} ${problem}`;
}

/**
 * Resolves the environment. `local` uses the demo merchant of the default state directory and a running
 * `paygate gateway` ({stateDir}/gateway.json), else starts one in-process for this command only.
 */
export async function resolveTarget(config: GatewayConfig, o: TargetOverrides, needs: 'create' | 'report'): Promise<Result<Target>> {
  for (const [value, option] of [
    [o.baseUrl, '--base-url'],
    [o.reportBaseUrl, '--report-base-url'],
  ] as const) {
    const problem = value === undefined ? undefined : checkUrl(value, option);
    if (problem) return { ok: false, message: problem };
  }
  const name = o.env ?? config.environment;
  const timeoutMs = config.requestTimeoutSeconds * 1000;
  const paths = config.paths;
  if (name !== LOCAL_ENVIRONMENT) {
    const found = findEnvironment(config.environments, name);
    if (!found) {
      const known = [LOCAL_ENVIRONMENT, ...config.environments.map((e) => e.name)].join(', ');
      return { ok: false, message: `unknown environment "${name}" (known: ${known}; environments are defined in ${CONFIG_FILE})` };
    }
    const environment: Environment = {
      ...found,
      baseUrl: o.baseUrl ?? found.baseUrl,
      reportBaseUrl: o.reportBaseUrl ?? found.reportBaseUrl,
      endpointId: o.endpointId ?? found.endpointId,
      consumerKey: o.consumerKey ?? found.consumerKey,
    };
    return { ok: true, value: { environment, paths, timeoutMs, startedGateway: false, release: async () => undefined } };
  }

  const stateDir = defaultStateDir();
  const given = needs === 'create' ? o.baseUrl : o.reportBaseUrl;
  let baseUrl = o.baseUrl;
  let reportBaseUrl = o.reportBaseUrl;
  let release = async () => undefined as void;
  let startedGateway = false;
  if (given === undefined) {
    const local = await localGatewayFor(stateDir, paths);
    if (!local.ok) return local;
    baseUrl ??= local.value.baseUrl;
    reportBaseUrl ??= local.value.reportBaseUrl;
    release = local.value.release;
    startedGateway = local.value.started;
  }
  // Read after the gateway is there: a gateway makes the keys under its lock, so two first runs in
  // parallel cannot each make (and sign with) a key pair of their own.
  let merchant: DemoMerchant;
  try {
    merchant = loadOrCreateDemoMerchant(stateDir);
  } catch (err) {
    await release();
    return { ok: false, message: `cannot prepare the local gateway's demo merchant in ${stateDir}: ${(err as Error).message}` };
  }
  const environment: Environment = {
    name: LOCAL_ENVIRONMENT,
    baseUrl: baseUrl ?? reportBaseUrl!,
    reportBaseUrl: reportBaseUrl ?? baseUrl!,
    endpointId: o.endpointId ?? merchant.endpointId,
    consumerKey: o.consumerKey ?? merchant.consumerKey,
    production: false,
  };
  return { ok: true, value: { environment, paths, timeoutMs, merchant, startedGateway, release } };
}

/** How long a command waits for another command's own (one-shot) local gateway to finish. */
export const ONE_SHOT_WAIT_MS = 60_000;
const POLL_MS = 100;

/**
 * The local gateway on `stateDir`: a running `paygate gateway` (or editor) is used; another command's
 * one-shot gateway is waited for (it stops when that command ends, possibly in the middle of ours);
 * else one is started for this command only. Its callbacks are not waited for when it stops.
 */
async function localGatewayFor(
  stateDir: string,
  paths: PathTemplates,
): Promise<Result<{ baseUrl: string; reportBaseUrl: string; started: boolean; release(): Promise<void> }>> {
  const deadline = Date.now() + ONE_SHOT_WAIT_MS;
  for (;;) {
    const running = readRunningGateway(stateDir);
    if (running && running.kind !== 'oneShot')
      return {
        ok: true,
        value: { baseUrl: running.baseUrl, reportBaseUrl: running.reportBaseUrl, started: false, release: async () => undefined },
      };
    if (!running) {
      try {
        const gw = await startLocalGateway({ stateDir, port: 0, paths, oneShot: true });
        return { ok: true, value: { baseUrl: gw.baseUrl, reportBaseUrl: gw.reportBaseUrl, started: true, release: () => gw.close() } };
      } catch (err) {
        if (!(err instanceof StateDirLockedError))
          return { ok: false, message: `cannot start the local gateway on ${stateDir}: ${(err as Error).message}` };
      }
    }
    if (Date.now() > deadline) {
      const holder = readStateLock(stateDir);
      return {
        ok: false,
        message: `the local gateway's state directory ${stateDir} stayed in use for ${ONE_SHOT_WAIT_MS / 1000} s${holder ? ` (process ${holder.pid}, started ${holder.startedAt})` : ''}; start \`paygate gateway\` to share one gateway between commands`,
      };
    }
    await new Promise((r) => setTimeout(r, POLL_MS));
  }
}

function readKeyFile(cwd: string, file: string, source: string): Result<string> {
  try {
    return { ok: true, value: readFileSync(resolve(cwd, file), 'utf8') };
  } catch (err) {
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
  if (target.merchant)
    return { ok: true, value: { signatureMethod: 'RSA-SHA256', consumerKey, privateKeyPem: target.merchant.rsaPrivateKeyPem } };
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
  const secret = secretOption ?? (ctx.env[SECRET_ENV.consumerSecret] || undefined) ?? target.merchant?.consumerSecret;
  if (secret === undefined) {
    return {
      ok: false,
      message: `no consumer secret for environment "${target.environment.name}": set $${SECRET_ENV.consumerSecret} (or pass --consumer-secret)`,
    };
  }
  return { ok: true, value: { signatureMethod: 'HMAC-SHA1', consumerKey, consumerSecret: secret } };
}
