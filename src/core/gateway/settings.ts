import { z } from 'zod';
import { baseUrlProblem, DEFAULT_PATHS, LOCAL_ENVIRONMENT, type Environment, type PathTemplates } from './environments';

// One schema for `paygate.*` settings entries and for the CLI's paygate.config.json, so both faces read
// environments identically. Secrets are deliberately absent: they live in SecretStorage / env variables.

const httpUrl = z.string().refine((s) => {
  try {
    const u = new URL(s);
    return u.protocol === 'https:' || u.protocol === 'http:';
  } catch {
    return false;
  }
}, 'must be an http(s) URL');

export const EnvironmentSchema = z.object({
  name: z.string().min(1).refine((n) => n !== LOCAL_ENVIRONMENT, `"${LOCAL_ENVIRONMENT}" is the built-in local gateway and cannot be redefined`),
  baseUrl: httpUrl.describe('Recurring-payments base address, including the service path prefix.'),
  reportBaseUrl: httpUrl.describe('Custom-report base address, including the service path prefix.'),
  endpointId: z.string().min(1),
  consumerKey: z.string().min(1),
  production: z.boolean().optional().default(false),
}).superRefine((e, ctx) => {
  // Named for the environment, and never quoting a password a URL may hold.
  for (const key of ['baseUrl', 'reportBaseUrl'] as const) {
    const problem = baseUrlProblem(e[key]);
    if (problem) ctx.addIssue({ code: 'custom', path: [key], message: `environment "${e.name}": ${key} ${problem}` });
  }
  if (e.endpointId === '.' || e.endpointId === '..') ctx.addIssue({ code: 'custom', path: ['endpointId'], message: `environment "${e.name}": endpointId "${e.endpointId}" cannot be a path segment` });
});

export const PathTemplatesSchema = z.object({
  createRecurringPayments: z.string().min(1).default(DEFAULT_PATHS.createRecurringPayments),
  customReport: z.string().min(1).default(DEFAULT_PATHS.customReport),
});

export const CliConfigSchema = z.object({
  environments: z.array(EnvironmentSchema).default([]),
  environment: z.string().min(1).default(LOCAL_ENVIRONMENT),
  paths: PathTemplatesSchema.default(DEFAULT_PATHS),
  requestTimeoutSeconds: z.number().positive().default(60),
}).superRefine((c, ctx) => {
  const seen = new Set<string>();
  c.environments.forEach((e, i) => {
    if (seen.has(e.name)) ctx.addIssue({ code: 'custom', path: ['environments', i, 'name'], message: `environment "${e.name}" is defined twice` });
    seen.add(e.name);
  });
});

export type GatewayConfig = z.output<typeof CliConfigSchema>;

export function findEnvironment(environments: readonly Environment[], name: string): Environment | undefined {
  return environments.find((e) => e.name === name);
}

/** Reads the settings' `paygate.environments` array, keeping the valid entries and naming the broken ones. */
export function parseEnvironments(value: unknown): { environments: Environment[]; problems: string[] } {
  const environments: Environment[] = [];
  const problems: string[] = [];
  if (!Array.isArray(value)) return { environments, problems: value === undefined ? [] : ['paygate.environments must be an array'] };
  value.forEach((entry, i) => {
    const r = EnvironmentSchema.safeParse(entry);
    if (r.success) environments.push(r.data);
    else problems.push(`paygate.environments[${i}]: ${formatZodIssues(r.error)}`);
  });
  return { environments, problems };
}

export function parsePathTemplates(value: unknown): PathTemplates {
  const r = PathTemplatesSchema.safeParse(value ?? {});
  return r.success ? r.data : { ...DEFAULT_PATHS };
}

export function formatZodIssues(error: z.ZodError): string {
  return error.issues.map((i) => (i.path.length ? `${i.path.join('.')}: ${i.message}` : i.message)).join('; ');
}
