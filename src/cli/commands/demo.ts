import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import type { CliContext } from '../context';
import { displayPosition } from '../io';
import { exitCodeFor, field, formatTable, inputError, outcomeText, saidOut, usageError } from '../output';
import { exits, Option, paygateCommand } from '../parser';
import { laid, ourWords, said, typed, vet, vouched, type Part, type Said } from '../../core/output';
import { formatGatewayDate, type CalendarDate } from '../../core/dates';
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

function examplesDir(ctx: CliContext, given: string | undefined): string | undefined {
  const candidates = given !== undefined ? [resolve(ctx.cwd, given)] : [resolve(ctx.cwd, 'examples'), resolve(__dirname, '..', 'examples')];
  return candidates.find((d) => existsSync(join(d, 'valid.rpcsv')));
}

/** What every step of the tour shares. */
interface Tour {
  ctx: CliContext;
  gw: LocalGatewayUse;
  /** The examples folder. */
  dir: string;
  /** A path as the user reads it (relative to the working directory when inside it). */
  where: (path: string) => string;
  /** That path as a value of a line (free text). */
  show: (path: string) => Part;
  step: (n: number, title: Said) => void;
}

type TourOptions = { days: number; port: number; dir: string; givenState?: string; stateDir: string };

/** The tour's options checked, or the exit code of a usage or input error (already reported). */
function tourOptions(values: DemoOptions, ctx: CliContext): TourOptions | number {
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
  return { days, port, dir, givenState, stateDir };
}

export async function tour(values: DemoOptions, ctx: CliContext): Promise<number> {
  const o = tourOptions(values, ctx);
  if (typeof o === 'number') return o;
  const where = (p: string) => {
    const r = relative(ctx.cwd, p);
    return r === '' || r.startsWith('..') ? p : r;
  };
  const show = (p: string) => typed.text(where(p));
  const step = (n: number, title: Said) => ctx.stdout(saidOut(said`\n== ${typed.count(n)}. ${title}\n`));

  step(1, ourWords('Start the local gateway'));
  let gw: LocalGatewayUse;
  try {
    // The one finding module, as the editor and every command: with --state DIR of a running gateway, that one.
    gw = await findOrStartLocalGateway({
      stateDir: o.stateDir,
      port: o.port,
      runBy: 'paygate demo',
      client: { face: 'cli', label: 'paygate demo' },
    });
  } catch (err) {
    ctx.stderr(saidOut(said`paygate demo: the local gateway cannot start: ${typed.text((err as Error).message)}\n`));
    return 1;
  }
  const t: Tour = { ctx, gw, dir: o.dir, where, show, step };
  let ok = true;
  try {
    await showGateway(t, o.stateDir);
    await lintExamples(t);
    ok = (await submitValid(t)) && ok;
    const sentOn = await t.gw.today();
    await advanceClock(t, o.days);
    ok = (await reportAndReconcile(t, sentOn)) && ok;
  } finally {
    await letGo(t, o);
  }
  ctx.stdout(
    saidOut(
      ourWords(
        ok
          ? '\nDone. Next: `paygate gateway` to keep a gateway running, `paygate submit FILE`, `paygate report TEMPLATE`.\n'
          : '\nA step did not go as expected (see above).\n',
      ),
    ),
  );
  return ok ? 0 : 1;
}

async function showGateway({ ctx, gw, show }: Tour, stateDir: string): Promise<void> {
  const by = gw.kind === 'running' ? said` (already running: ${typed.text(gw.runBy ?? 'process')} ${typed.count(gw.pid)})` : ourWords('');
  const m = gw.merchant;
  ctx.stdout(
    saidOut(
      said`Listening on ${typed.text(gw.origin)}${by} — simulated date ${typed.date(formatGatewayDate(await gw.today()))}
  create: ${typed.text(gw.environment.baseUrl)}
  report: ${typed.text(gw.environment.reportBaseUrl)}
  demo merchant: ${typed.text(m.consumerKey)}, endpoint ${typed.text(m.endpointId)} (keys in ${show(stateDir)})\n`,
    ),
  );
}

/** Step 2: every example's problems, the first six of each. */
async function lintExamples({ ctx, dir, show, step }: Tour): Promise<void> {
  step(2, said`Lint ${show(dir)}/`);
  const files = readdirSync(dir)
    .filter((f) => /\.(rpcsv|csv)$/i.test(f))
    .sort();
  for (const f of files) {
    const text = await readFile(join(dir, f), 'utf8');
    const r = lint(text);
    const errors = r.diagnostics.filter((d) => d.severity === 'error');
    const warnings = r.diagnostics.filter((d) => d.severity === 'warning');
    const counts = said`${typed.count(r.batch.rows.length)} row(s), ${typed.count(errors.length)} error(s), ${typed.count(warnings.length)} warning(s)`;
    ctx.stdout(saidOut(said`${show(join(dir, f))}: ${counts}\n`));
    for (const d of r.diagnostics.slice(0, 6)) {
      const p = displayPosition(d.range.start, r.batch.csv.bom);
      ctx.stdout(
        saidOut(said`  ${typed.count(p.line)}:${typed.count(p.column)} ${ourWords(d.severity)} ${typed.text(d.code)} ${d.message}\n`),
      );
    }
    if (r.diagnostics.length > 6)
      ctx.stdout(saidOut(said`  … and ${typed.count(r.diagnostics.length - 6)} more ('paygate lint ${show(join(dir, f))}')\n`));
  }
}

/** Step 3: valid.rpcsv sent to the local gateway; false when it was not accepted. */
async function submitValid({ ctx, gw, dir, show, step }: Tour): Promise<boolean> {
  step(3, ourWords('Submit valid.rpcsv (RSA-SHA256, signed with the demo merchant key)'));
  const validPath = join(dir, 'valid.rpcsv');
  const valid = prepareSubmission(await readFile(validPath, 'utf8'));
  if (valid.errors.length > 0) {
    ctx.stdout(saidOut(ourWords('valid.rpcsv has lint errors; the CLI would not send it.\n')));
    return false;
  }
  const created = await createRecurringPayments({
    environment: gw.environment,
    payload: valid.payload,
    credentials: { signatureMethod: 'RSA-SHA256', consumerKey: gw.merchant.consumerKey, privateKeyPem: gw.merchant.rsaPrivateKeyPem },
  });
  ctx.stdout(
    saidOut(
      outcomeText(
        created,
        said`${show(validPath)} (${typed.count(valid.rowCount)} rows) to local, endpoint ${typed.text(gw.environment.endpointId)}`,
      ),
    ),
  );
  return exitCodeFor(created) === 0;
}

/** Step 4: the simulated clock moved, so the charges fall due. */
async function advanceClock({ ctx, gw, step }: Tour, days: number): Promise<void> {
  step(4, said`Advance the simulated clock ${typed.count(days)} days`);
  const advanced = await gw.advanceDays(days);
  const approved = advanced.charges.filter((c) => c.status === 'approved').length;
  const made = advanced.charges.length;
  ctx.stdout(
    saidOut(
      said`${typed.date(advanced.from)} → ${typed.date(advanced.today)}: ${typed.count(made)} charge(s) (${typed.count(approved)} approved, ${typed.count(made - approved)} declined), ${typed.count(advanced.stopped.length)} payment(s) stopped\n`,
    ),
  );
}

/** Steps 5 and 6: the example report run and valid.rpcsv reconciled with it; false when the report failed. */
async function reportAndReconcile({ ctx, gw, dir, where, show, step }: Tour, sentOn: CalendarDate): Promise<boolean> {
  step(5, ourWords('Run the report transactions.report.json (HMAC-SHA1, realm="")'));
  const templatePath = join(dir, 'transactions.report.json');
  const parsedTemplate = parseReportTemplate(await readFile(templatePath, 'utf8'));
  if (!parsedTemplate.ok) {
    for (const p of parsedTemplate.problems)
      ctx.stdout(
        saidOut(
          said`${show(templatePath)}${p.line !== undefined && p.column !== undefined ? said`:${typed.count(p.line)}:${typed.count(p.column)}` : ourWords('')}: ${typed.text(p.message)}\n`,
        ),
      );
    return false;
  }
  const report = await runCustomReport({
    environment: gw.environment,
    template: parsedTemplate.template,
    credentials: { signatureMethod: 'HMAC-SHA1', consumerKey: gw.merchant.consumerKey, consumerSecret: gw.merchant.consumerSecret },
  });
  if (report.outcome !== 'report' || report.format !== 'csv') {
    ctx.stdout(saidOut(outcomeText(report, said`${show(templatePath)}`)));
    return false;
  }
  // Laid out from vetted cells (core/output/laid.ts): the floor lets the table through unread.
  ctx.stdout(vouched(laid`${formatTable(report.columns, report.rows)}${vet.count(report.rows.length)} row(s)\n`));
  step(6, ourWords('Reconcile valid.rpcsv with the report (paygate reconcile)'));
  const validPath = join(dir, 'valid.rpcsv');
  const rows = batchRows(field(where(validPath)), await readFile(validPath, 'utf8'));
  const result = reconcileText(rows, report.text, { today: sentOn, delimiter: parsedTemplate.template.reportCsvDelimiter });
  ctx.stdout(
    'error' in result
      ? saidOut(said`The report cannot be reconciled: ${typed.text(result.error)}\n`)
      : vouched(formatReconcileText(result, reportRunLabel('transactions.report.json'))),
  );
  return true;
}

/** Step 7: the gateway stopped or let go, and a temporary state directory removed. */
async function letGo({ ctx, gw, show, step }: Tour, o: TourOptions): Promise<void> {
  step(7, ourWords(gw.kind === 'started' ? 'Stop the local gateway' : 'Let go of the local gateway'));
  await gw.release();
  if (o.givenState === undefined) rmSync(o.stateDir, { recursive: true, force: true });
  if (gw.kind === 'running')
    ctx.stdout(
      saidOut(said`It keeps running (${typed.text(gw.runBy ?? 'process')} ${typed.count(gw.pid)}); state in ${show(o.stateDir)}.\n`),
    );
  else
    ctx.stdout(
      saidOut(
        o.givenState === undefined ? ourWords('Stopped; temporary state removed.\n') : said`Stopped; state kept in ${show(o.stateDir)}.\n`,
      ),
    );
}
