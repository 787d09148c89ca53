import * as z from './zod';
import { described } from './zod';
import { baseUrlProblem, DEFAULT_PATHS, LOCAL_ENVIRONMENT, type Environment, type PathTemplates } from './environments';

// One schema for `paygate.*` settings entries and for the CLI's paygate.config.json, so both faces read
// environments identically. Secrets are deliberately absent: they live in SecretStorage / env variables.

const httpUrl = () =>
  z.string().check(
    z.refine((s) => {
      try {
        const u = new URL(s);
        return u.protocol === 'https:' || u.protocol === 'http:';
      } catch {
        return false;
      }
    }, 'must be an http(s) URL'),
  );

export const EnvironmentSchema = z
  .object({
    name: z.string().check(
      z.minLength(1),
      z.refine((n) => n !== LOCAL_ENVIRONMENT, `"${LOCAL_ENVIRONMENT}" is the built-in local gateway and cannot be redefined`),
    ),
    baseUrl: described(httpUrl(), { description: 'Recurring-payments base address, including the service path prefix.' }),
    reportBaseUrl: described(httpUrl(), { description: 'Custom-report base address, including the service path prefix.' }),
    endpointId: z.string().check(z.minLength(1)),
    consumerKey: z.string().check(z.minLength(1)),
    production: z._default(z.optional(z.boolean()), false),
    maxPayloadBytes: described(
      z.optional(z.number().check(z.positive(), z.refine(Number.isSafeInteger, 'must be a whole number of bytes'))),
      { description: "The gateway's largest create payload for this environment, in bytes of Base64 (as sent)." },
    ),
    approvals: described(
      z.optional(
        z.number().check(
          z.positive(),
          z.refine((n) => Number.isInteger(n) && n <= 20, 'must be a whole number from 1 to 20'),
        ),
      ),
      {
        description:
          'Maker-checker: how many members other than the submitter must approve a batch (paygate approve) before it is sent here. Needs the team ledger.',
      },
    ),
  })
  .check(
    z.superRefine((e, ctx) => {
      // Named for the environment, and never quoting a password a URL may hold.
      for (const key of ['baseUrl', 'reportBaseUrl'] as const) {
        const problem = baseUrlProblem(e[key]);
        if (problem) ctx.addIssue({ code: 'custom', path: [key], message: `environment "${e.name}": ${key} ${problem}`, input: e[key] });
      }
      if (e.endpointId === '.' || e.endpointId === '..') {
        ctx.addIssue({
          code: 'custom',
          path: ['endpointId'],
          message: `environment "${e.name}": endpointId "${e.endpointId}" cannot be a path segment`,
          input: e.endpointId,
        });
      }
    }),
  );

export const PathTemplatesSchema = z.object({
  createRecurringPayments: z._default(z.string().check(z.minLength(1)), DEFAULT_PATHS.createRecurringPayments),
  customReport: z._default(z.string().check(z.minLength(1)), DEFAULT_PATHS.customReport),
});

export const CliConfigSchema = z
  .object({
    environments: z._default(z.array(EnvironmentSchema), []),
    environment: z._default(z.string().check(z.minLength(1)), LOCAL_ENVIRONMENT),
    paths: z._default(PathTemplatesSchema, DEFAULT_PATHS),
    requestTimeoutSeconds: z._default(z.number().check(z.positive()), 60),
  })
  .check(
    z.superRefine((c, ctx) => {
      const seen = new Set<string>();
      c.environments.forEach((e, i) => {
        if (seen.has(e.name))
          ctx.addIssue({ code: 'custom', path: ['environments', i, 'name'], message: `environment "${e.name}" is defined twice` });
        seen.add(e.name);
      });
    }),
  );

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

export function formatZodIssues(error: z.$ZodError): string {
  return error.issues.map((i) => (i.path.length ? `${i.path.join('.')}: ${i.message}` : i.message)).join('; ');
}
