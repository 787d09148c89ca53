import { hostname } from 'node:os';
import { resolve } from 'node:path';
import { createRecurringPayments } from '../../core/gateway';
import type { LedgerStore } from '../../core/ledger';
import { checkSigningCredentials } from '../../core/oauth';
import { submitBatch } from '../../core/submit/submitBatch';
import { loadCliConfig } from '../config';
import type { CliContext } from '../context';
import { createCredentials } from '../credentials';
import { readInput } from '../io';
import { LedgerUrlError, openLedger } from '../ledger';
import { ourWords, said } from '../../core/output';
import { inputError } from '../output';
import { localGatewayRef, resolveTarget } from '../target';
import { reportResult } from './report';
import { UsageError, whatIsSent, type CliTarget, type PartsRun, type SubmitOptions } from './types';

// One file of `paygate submit`: the core's submit use case with the terminal's target, prompts and send.

/** Config, environment, overrides and signing credentials; a usage message when any is missing or wrong. */
async function cliTarget(o: SubmitOptions, ctx: CliContext): Promise<{ ok: true; value: CliTarget } | { ok: false; refusal: string }> {
  const config = loadCliConfig(ctx.cwd, o.config, ctx.env);
  if (!config.ok) return { ok: false, refusal: config.message };
  const overrides = { env: o.env, baseUrl: o.baseUrl, endpointId: o.endpointId, consumerKey: o.consumerKey };
  const target = await resolveTarget(config.value.config, overrides, 'create', { env: ctx.env, command: 'paygate submit' });
  if (!target.ok) return { ok: false, refusal: target.message };
  const t = target.value;
  const credentials = createCredentials(ctx, t, o.rsaKey);
  const usable = credentials.ok ? checkSigningCredentials(credentials.value) : undefined;
  if (!credentials.ok || !usable?.ok) {
    await t.release();
    return { ok: false, refusal: credentials.ok ? `cannot sign: ${usable?.ok === false ? usable.reason : ''}` : credentials.message };
  }
  return { ok: true, value: { ...t, signatureMethod: credentials.value.signatureMethod, credentials: credentials.value } };
}

/**
 * The core's submit use case with the terminal's prompts and words: lint gate → target → resend guard →
 * confirmation → ledger "sending" (on disk) → one POST → ledger completed → answer. Returns the exit code.
 * The logic behind `paygate submit`, for any argument parser.
 */
export async function submitFile(file: string, o: SubmitOptions, ctx: CliContext, parts?: PartsRun): Promise<number> {
  const input = await readInput(file, ctx);
  if (!input.ok) return inputError(ctx, 'paygate submit', input.message);
  let ledger: LedgerStore;
  try {
    ledger = openLedger(ctx, o.state, o.ledger);
  } catch (err) {
    if (err instanceof LedgerUrlError) return inputError(ctx, 'paygate submit', `${err.message}; nothing was sent`);
    throw err;
  }
  const result = await submitBatch(input.text, input.name, {
    face: 'cli',
    pid: process.pid,
    host: hostname(),
    ledger,
    file: file === '-' ? input.name : resolve(ctx.cwd, file),
    target: () => cliTarget(o, ctx),
    localGateway: async (t) => {
      if (!t.local) return undefined;
      const ref = await localGatewayRef(t.local);
      if (!ref.ok) throw new Error(ref.message);
      return ref.value;
    },
    allowResend: o.allowResend === true,
    allowSamePayer: o.allowSamePayer === true,
    // A run of parts never sends again a part the ledger records as accepted, --allow-resend or not.
    keepAccepted: parts !== undefined,
    confirmSend: async (t, prepared) => {
      if (!t.environment.production || o.yes === true) return true;
      // A run of parts is asked once, at its first send.
      if (parts?.confirmed !== undefined) return parts.confirmed;
      if (!ctx.interactive)
        throw new UsageError(`"${t.environment.name}" is a production environment: pass --yes to submit without a terminal to confirm on`);
      // Asked on the terminal past the floor: a Said, each value checked alone where it is written (../context.ts).
      const more = ourWords(parts ? ' and the files after it' : '');
      const yes = await ctx.confirm(said`Submit ${whatIsSent(input.name, prepared.rowCount, t)}${more} — a PRODUCTION environment?`);
      if (parts) parts.confirmed = yes;
      return yes;
    },
    send: (t, prepared) =>
      createRecurringPayments({
        environment: t.environment,
        paths: t.paths,
        payload: prepared.payload,
        credentials: t.credentials,
        timeoutMs: t.timeoutMs,
      }),
  });
  return reportResult(result, input.name, ledger, o, ctx, parts);
}
