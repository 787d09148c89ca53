import { errorMessage } from '../errorMessage';
// Where the two operations live. Paths come from settings / paygate.config.json because the gateway's API
// description says they may change; DEFAULT_PATHS is the one place today's paths are written down.

export interface Environment {
  name: string;
  /** Recurring-payments base address, including the service's own path prefix. */
  baseUrl: string;
  /** Custom-report base address, including the service's own path prefix. */
  reportBaseUrl: string;
  endpointId: string;
  consumerKey: string;
  production: boolean;
  /** The gateway's largest create payload here, in Base64 characters; absent: DEFAULT_MAX_PAYLOAD_BYTES. */
  maxPayloadBytes?: number;
  /** Maker-checker: approvals by other members a batch needs before it is sent here (core/ledger/approvals.ts). */
  approvals?: number;
}

export interface PathTemplates {
  createRecurringPayments: string;
  customReport: string;
}

export const DEFAULT_PATHS: PathTemplates = {
  createRecurringPayments: '/api/v4/create-recurring-payments/{endpointId}/',
  customReport: '/services/v2/rpt-engine',
};

/** The built-in environment's name: the embedded local gateway. */
export const LOCAL_ENVIRONMENT = 'local';

/** A base URL or endpoint id that cannot be used: named for the environment, never quoting a password. */
export class GatewaySettingsError extends Error {
  override name = 'GatewaySettingsError';
}

/** The URL with any user:password@ part removed, for messages. */
export function redactUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.username === '' && u.password === '') return u.href;
    u.username = '';
    u.password = '';
    return u.href;
  } catch {
    // Not a URL: drop anything between the scheme and an @ so a password cannot slip through.
    return url.replace(/^([a-z][a-z0-9+.-]*:\/\/)[^/@]*@/i, '$1');
  }
}

/**
 * Why a base URL cannot carry requests, or undefined when it can. A fragment would swallow the operation
 * path; credentials in a URL are a secret in the settings and are never sent this way.
 */
export function baseUrlProblem(url: string): string | undefined {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return `is not a URL ("${redactUrl(url)}")`;
  }
  if (u.protocol !== 'https:' && u.protocol !== 'http:') return `must be an http(s) URL, not ${u.protocol}`;
  if (u.username !== '' || u.password !== '')
    return `must not contain a user name or password (${redactUrl(url)}); secrets are kept in the secret store or environment variables`;
  if (u.hash !== '' || url.includes('#')) return `must not contain a #fragment (${redactUrl(url)}): the operation path would be lost in it`;
  return undefined;
}

function checkedBase(baseUrl: string, what: string, environmentName: string | undefined): URL {
  const problem = baseUrlProblem(baseUrl);
  if (problem)
    throw new GatewaySettingsError(`${environmentName !== undefined ? `environment "${environmentName}": ` : ''}${what} ${problem}`);
  return new URL(baseUrl);
}

function pathSegment(value: string, name: string, environmentName: string | undefined): string {
  // WHATWG URL resolves "." and ".." (even percent-encoded) as dot segments, so they cannot be one segment.
  if (value === '' || value === '.' || value === '..') {
    throw new GatewaySettingsError(
      `${environmentName !== undefined ? `environment "${environmentName}": ` : ''}${name} "${value}" cannot be a path segment`,
    );
  }
  return encodeURIComponent(value);
}

/**
 * The operation URL: the template's path appended to the base URL's path (its own prefix kept), the
 * base URL's query kept (and so signed as query parameters), each `{name}` one encoded path segment.
 * Built with WHATWG URL, which is also what the HTTP client puts on the wire. Throws GatewaySettingsError.
 */
export function operationUrl(
  baseUrl: string,
  template: string,
  vars: Record<string, string> = {},
  environmentName?: string,
  what = 'base URL',
): string {
  const base = checkedBase(baseUrl, what, environmentName);
  const q = template.indexOf('?');
  const pathTemplate = q < 0 ? template : template.slice(0, q);
  const path = pathTemplate.replace(/\{([A-Za-z_][\w-]*)\}/g, (whole, name: string) =>
    vars[name] === undefined ? whole : pathSegment(vars[name], name, environmentName),
  );
  const url = new URL(base.href);
  url.pathname = `${base.pathname.replace(/\/+$/, '')}${path.startsWith('/') ? '' : '/'}${path}`;
  if (q >= 0) {
    for (const [name, value] of new URLSearchParams(template.slice(q + 1))) url.searchParams.append(name, value);
  }
  return url.href;
}

export function createRecurringPaymentsUrl(environment: Environment, paths: PathTemplates = DEFAULT_PATHS): string {
  const vars = { endpointId: environment.endpointId, endpoint_id: environment.endpointId };
  return operationUrl(environment.baseUrl, paths.createRecurringPayments, vars, environment.name, 'baseUrl');
}

/**
 * A create URL as the guard compares targets (two environments with the same base URL and endpoint are the
 * same target): WHATWG URL's reading (scheme and host in lower case, the scheme's default port dropped, dot
 * segments resolved), the path's trailing slashes dropped. Undefined when it is no URL.
 */
export function targetUrl(url: string): string | undefined {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return undefined;
  }
  return `${u.protocol}//${u.host}${u.pathname.replace(/\/+$/, '')}${u.search}`;
}

/** An environment's create URL as the guard compares targets (targetUrl); undefined when it cannot be built. */
export function environmentTargetUrl(environment: Environment, paths: PathTemplates = DEFAULT_PATHS): string | undefined {
  try {
    return targetUrl(createRecurringPaymentsUrl(environment, paths));
  } catch {
    return undefined;
  }
}

export function customReportUrl(environment: Environment, paths: PathTemplates = DEFAULT_PATHS): string {
  const vars = { endpointId: environment.endpointId, endpoint_id: environment.endpointId };
  return operationUrl(environment.reportBaseUrl, paths.customReport, vars, environment.name, 'reportBaseUrl');
}

/** Every reason this environment's URLs cannot be built, for settings checks before anything is sent. */
export function environmentProblems(
  environment: Environment,
  paths: PathTemplates = DEFAULT_PATHS,
  operation?: 'create' | 'report',
): string[] {
  const problems: string[] = [];
  for (const [op, build] of [
    ['create', createRecurringPaymentsUrl],
    ['report', customReportUrl],
  ] as const) {
    if (operation !== undefined && operation !== op) continue;
    try {
      build(environment, paths);
    } catch (err) {
      problems.push(errorMessage(err));
    }
  }
  return problems;
}
