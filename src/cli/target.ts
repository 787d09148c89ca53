import {
  baseUrlProblem,
  findEnvironment,
  LOCAL_ENVIRONMENT,
  type Environment,
  type GatewayConfig,
  type PathTemplates,
} from '../core/gateway';
import { defaultStateDir, loadOrCreateDemoMerchant, type DemoMerchant } from '../local-gateway';
import { CONFIG_FILE, type Result } from './config';
import { localGatewayFor } from './localGateway';

// Where a CLI request goes: an environment of the configuration with the command's overrides, or the
// local gateway with its demo merchant when nothing else is set.

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
