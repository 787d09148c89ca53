// Where the two operations live. Paths come from settings / paygate.config.json because the spec says
// they may change; DEFAULT_PATHS is the one place the spec's current paths are written down.

export interface Environment {
  name: string;
  /** Recurring-payments base address, including the service's own path prefix. */
  baseUrl: string;
  /** Custom-report base address, including the service's own path prefix. */
  reportBaseUrl: string;
  endpointId: string;
  consumerKey: string;
  production: boolean;
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

/** Appends a path template to a base URL, filling `{name}` placeholders (percent-encoded). */
export function operationUrl(baseUrl: string, template: string, vars: Record<string, string> = {}): string {
  const path = template.replace(/\{([A-Za-z_][\w-]*)\}/g, (whole, name: string) =>
    vars[name] === undefined ? whole : encodeURIComponent(vars[name]),
  );
  const base = baseUrl.replace(/\/+$/, '');
  return `${base}${path.startsWith('/') ? '' : '/'}${path}`;
}

export function createRecurringPaymentsUrl(environment: Environment, paths: PathTemplates = DEFAULT_PATHS): string {
  return operationUrl(environment.baseUrl, paths.createRecurringPayments, { endpointId: environment.endpointId, endpoint_id: environment.endpointId });
}

export function customReportUrl(environment: Environment, paths: PathTemplates = DEFAULT_PATHS): string {
  return operationUrl(environment.reportBaseUrl, paths.customReport, { endpointId: environment.endpointId, endpoint_id: environment.endpointId });
}
