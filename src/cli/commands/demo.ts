import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import type { CliContext } from '../context';
import { displayPosition } from '../io';
import { exitCodeFor, field, formatTable, inputError, outcomeText, usageError } from '../output';
import { exits, Option, paygateCommand, runCommand } from '../parser';
import { formatGatewayDate } from '../../core/dates';
import { createRecurringPayments, parseReportTemplate, prepareSubmission, runCustomReport } from '../../core/gateway';
import { lint } from '../../core/rules/lint';
import { batchRows, reconcileText } from '../../core/reconcile';
import { findOrStartLocalGateway, type LocalGatewayUse } from '../../local-gateway';
import { formatReconcileText, reportRunLabel } from '../format/reconcile';

export interface DemoOptions {
  examples?: string;
  state?: string;
  days: string;
  port?: string;
}

export function demoCommand(ctx: CliContext) {
  return paygateCommand(
    {
      name: 'demo',
      summary: 'tour: local gateway, lint, submit, advance the clock, report, reconcile',
      description:
        'A tour without credentials: starts the local gateway, lints the example batches, submits examples/valid.rpcsv, ' +
        'advances the simulated clock, runs examples/transactions.report.json and prints the report, reconciles valid.rpcsv with it, then stops the gateway.',
      exits: [
        [0, 'every step went as expected'],
        [1, 'a step did not'],
        [2, 'usage error'],
      ],
    },
    ctx,
  )
    .option('--examples <DIR>', 'the examples folder (default ./examples, else the one shipped with paygate)')
    .option('--state <DIR>', "keep the gateway's state here (default: a temporary folder, removed afterwards)")
    .addOption(new Option('--days <N>', 'days to advance the clock').default('35', '35'))
    .option('--port <N>', "the local gateway's port on 127.0.0.1 (default 0: any free port)")
    .action(exits((o) => tour(o, ctx)));
}

export const runDemo = (args: string[], ctx: CliContext) => runCommand(demoCommand, args, ctx);

function examplesDir(ctx: CliContext, given: string | undefined): string | undefined {
  const candidates = given !== undefined ? [resolve(ctx.cwd, given)] : [resolve(ctx.cwd, 'examples'), resolve(__dirname, '..', 'examples')];
  return candidates.find((d) => existsSync(join(d, 'valid.rpcsv')));
}

export async function tour(values: DemoOptions, ctx: CliContext): Promise<number> {
  const days = Number(values.days);
  if (!Number.isInteger(days) || days < 1 || days > 3660) {
    return usageError(ctx, 'paygate demo', '--days must be a whole number from 1 to 3660');
  }
  const port = values.port === undefined ? 0 : Number(values.port);
  if (!/^\d+$/.test(values.port ?? '0') || port > 65535) return usageError(ctx, 'paygate demo', '--port must be a number from 0 to 65535');
  const dir = examplesDir(ctx, values.examples);
  if (!dir) {
    return inputError(
      ctx,
      'paygate demo',
      'no examples folder with valid.rpcsv found (run it from the repository, or pass --examples DIR)',
    );
  }
  const givenState = values.state;
  const stateDir = givenState !== undefined ? resolve(ctx.cwd, givenState) : mkdtempSync(join(tmpdir(), 'paygate-demo-'));
  const show = (p: string) => {
    const r = relative(ctx.cwd, p);
    return field(r === '' || r.startsWith('..') ? p : r);
  };
  const step = (n: number, title: string) => ctx.stdout(`\n== ${n}. ${title}\n`);
  let ok = true;

  step(1, 'Start the local gateway');
  let gw: LocalGatewayUse;
  try {
    // The one finding module, as the editor and every command: with --state DIR of a running gateway, that one.
    gw = await findOrStartLocalGateway({ stateDir, port, runBy: 'paygate demo', client: { face: 'cli', label: 'paygate demo' } });
  } catch (err) {
    ctx.stderr(`paygate demo: the local gateway cannot start: ${field((err as Error).message)}\n`);
    return 1;
  }
  try {
    const by = gw.kind === 'running' ? ` (already running: ${gw.runBy ?? 'process'} ${gw.pid})` : '';
    ctx.stdout(
      `Listening on ${gw.origin}${by} — simulated date ${formatGatewayDate(await gw.today())}\n  create: ${gw.environment.baseUrl}\n  report: ${gw.environment.reportBaseUrl}\n  demo merchant: ${gw.merchant.consumerKey}, endpoint ${gw.merchant.endpointId} (keys in ${show(stateDir)})\n`,
    );

    step(2, `Lint ${show(dir)}/`);
    const files = readdirSync(dir)
      .filter((f) => /\.(rpcsv|csv)$/i.test(f))
      .sort();
    for (const f of files) {
      const text = await readFile(join(dir, f), 'utf8');
      const r = lint(text);
      const errors = r.diagnostics.filter((d) => d.severity === 'error');
      const warnings = r.diagnostics.filter((d) => d.severity === 'warning');
      ctx.stdout(`${show(join(dir, f))}: ${r.batch.rows.length} row(s), ${errors.length} error(s), ${warnings.length} warning(s)\n`);
      for (const d of r.diagnostics.slice(0, 6)) {
        const p = displayPosition(d.range.start, r.batch.csv.bom);
        ctx.stdout(`  ${p.line}:${p.column} ${d.severity} ${d.code} ${field(d.message)}\n`);
      }
      if (r.diagnostics.length > 6) ctx.stdout(`  … and ${r.diagnostics.length - 6} more ('paygate lint ${show(join(dir, f))}')\n`);
    }

    step(3, 'Submit valid.rpcsv (RSA-SHA256, signed with the demo merchant key)');
    const validPath = join(dir, 'valid.rpcsv');
    const valid = prepareSubmission(await readFile(validPath, 'utf8'));
    if (valid.errors.length > 0) {
      ctx.stdout('valid.rpcsv has lint errors; the CLI would not send it.\n');
      ok = false;
    } else {
      const created = await createRecurringPayments({
        environment: gw.environment,
        payload: valid.payload,
        credentials: { signatureMethod: 'RSA-SHA256', consumerKey: gw.merchant.consumerKey, privateKeyPem: gw.merchant.rsaPrivateKeyPem },
      });
      ctx.stdout(outcomeText(created, `${show(validPath)} (${valid.rowCount} rows) to local, endpoint ${gw.environment.endpointId}`));
      if (exitCodeFor(created) !== 0) ok = false;
    }

    step(4, `Advance the simulated clock ${days} days`);
    const sentOn = await gw.today();
    const advanced = await gw.advanceDays(days);
    const approved = advanced.charges.filter((c) => c.status === 'approved').length;
    ctx.stdout(
      `${advanced.from} → ${advanced.today}: ${advanced.charges.length} charge(s) (${approved} approved, ${advanced.charges.length - approved} declined), ${advanced.stopped.length} payment(s) stopped\n`,
    );

    step(5, 'Run the report transactions.report.json (HMAC-SHA1, realm="")');
    const templatePath = join(dir, 'transactions.report.json');
    const parsedTemplate = parseReportTemplate(await readFile(templatePath, 'utf8'));
    if (!parsedTemplate.ok) {
      for (const p of parsedTemplate.problems)
        ctx.stdout(`${show(templatePath)}${p.line !== undefined ? `:${p.line}:${p.column}` : ''}: ${field(p.message)}\n`);
      ok = false;
    } else {
      const report = await runCustomReport({
        environment: gw.environment,
        template: parsedTemplate.template,
        credentials: { signatureMethod: 'HMAC-SHA1', consumerKey: gw.merchant.consumerKey, consumerSecret: gw.merchant.consumerSecret },
      });
      if (report.outcome === 'report' && report.format === 'csv') {
        ctx.stdout(`${formatTable(report.columns, report.rows)}${report.rows.length} row(s)\n`);
        step(6, 'Reconcile valid.rpcsv with the report (paygate reconcile)');
        const rows = batchRows(show(validPath), await readFile(validPath, 'utf8'));
        const result = reconcileText(rows, report.text, { today: sentOn, delimiter: parsedTemplate.template.reportCsvDelimiter });
        ctx.stdout(
          'error' in result
            ? `The report cannot be reconciled: ${field(result.error)}\n`
            : formatReconcileText(result, reportRunLabel('transactions.report.json')),
        );
      } else {
        ctx.stdout(outcomeText(report, show(templatePath)));
        ok = false;
      }
    }
  } finally {
    step(7, gw.kind === 'started' ? 'Stop the local gateway' : 'Let go of the local gateway');
    await gw.release();
    if (givenState === undefined) rmSync(stateDir, { recursive: true, force: true });
    if (gw.kind === 'running') ctx.stdout(`It keeps running (${gw.runBy ?? 'process'} ${gw.pid}); state in ${show(stateDir)}.\n`);
    else ctx.stdout(givenState === undefined ? 'Stopped; temporary state removed.\n' : `Stopped; state kept in ${show(stateDir)}.\n`);
  }
  ctx.stdout(
    ok
      ? '\nDone. Next: `paygate gateway` to keep a gateway running, `paygate submit FILE`, `paygate report TEMPLATE`.\n'
      : '\nA step did not go as expected (see above).\n',
  );
  return ok ? 0 : 1;
}
