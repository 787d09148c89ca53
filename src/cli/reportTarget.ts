import type { SigningCredentials } from '../core/oauth';
import { loadCliConfig } from './config';
import type { CliContext } from './context';
import { reportCredentials } from './credentials';
import { resolveTarget, type Target } from './target';

// Where a report runs from the terminal (`paygate report`, `paygate reconcile --template`): the config's
// environment, and the consumer secret from the option, the environment or the local gateway's merchant.

export type CliReportTarget = Target & { credentials: SigningCredentials };

export interface ReportTargetOptions {
  config?: string;
  env?: string;
  reportBaseUrl?: string;
  consumerKey?: string;
  consumerSecret?: string;
}

/** The target of the report use case (core/report/runReport.ts), or the message that says why there is none. */
export async function reportTarget(
  ctx: CliContext,
  o: ReportTargetOptions,
  command: string,
): Promise<{ ok: true; value: CliReportTarget } | { ok: false; refusal: string }> {
  const config = loadCliConfig(ctx.cwd, o.config, ctx.env);
  if (!config.ok) return { ok: false, refusal: config.message };
  const options = { env: o.env, reportBaseUrl: o.reportBaseUrl, consumerKey: o.consumerKey };
  const target = await resolveTarget(config.value.config, options, 'report', { env: ctx.env, command });
  if (!target.ok) return { ok: false, refusal: target.message };
  const credentials = reportCredentials(ctx, target.value, o.consumerSecret);
  if (credentials.ok) return { ok: true, value: { ...target.value, credentials: credentials.value } };
  await target.value.release();
  return { ok: false, refusal: credentials.message };
}
