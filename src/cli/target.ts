import {
  baseUrlProblem,
  findEnvironment,
  LOCAL_ENVIRONMENT,
  type Environment,
  type GatewayConfig,
  type PathTemplates,
} from '../core/gateway';
import type { LocalGatewayRef } from '../core/ledger';
import { loadOrCreateDemoMerchant, localGatewayRef as refOf, type DemoMerchant, type LocalGatewayUse } from '../local-gateway';
import { CONFIG_FILE, type Result } from './config';
import type { CliContext } from './context';
import { localGatewayFor, localStateDir } from './localGateway';

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
  /** The local gateway the environment `local` talks to (absent when --base-url points elsewhere). */
  local?: LocalGatewayUse;
  release(): Promise<void>;
}

function checkUrl(value: string, option: string): string | undefined {
  // Never echoes a password a URL may carry.
  const problem = baseUrlProblem(value);
  return problem === undefined ? undefined : `${option} ${problem}`;
}

/**
 * Resolves the environment. `local` uses the demo merchant of the local gateway's state directory and the
 * gateway running there ({stateDir}/gateway.json: `paygate gateway`, an editor), else starts one in-process
 * for this command only. `command` names the command in the gateway's client list ("paygate submit").
 */
export async function resolveTarget(
  config: GatewayConfig,
  o: TargetOverrides,
  needs: 'create' | 'report',
  ctx: Pick<CliContext, 'env'> & { command: string },
): Promise<Result<Target>> {
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

  const stateDir = localStateDir(ctx);
  const given = needs === 'create' ? o.baseUrl : o.reportBaseUrl;
  let baseUrl = o.baseUrl;
  let reportBaseUrl = o.reportBaseUrl;
  let release = async () => undefined as void;
  let local: LocalGatewayUse | undefined;
  if (given === undefined) {
    const found = await localGatewayFor(stateDir, paths, ctx.command);
    if (!found.ok) return found;
    local = found.value;
    baseUrl ??= local.environment.baseUrl;
    reportBaseUrl ??= local.environment.reportBaseUrl;
    release = local.release;
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
  return {
    ok: true,
    value: { environment, paths, timeoutMs, merchant, startedGateway: local?.kind === 'started', ...(local ? { local } : {}), release },
  };
}

/** The ledger's words for the local gateway a send goes to; an error when it does not answer. */
export async function localGatewayRef(local: LocalGatewayUse): Promise<Result<LocalGatewayRef>> {
  try {
    return { ok: true, value: await refOf(local) };
  } catch (err) {
    return { ok: false, message: `the local gateway at ${local.origin} did not say its date: ${(err as Error).message}` };
  }
}
