import { execFileSync } from 'node:child_process';
import { rmSync, statSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import {
  aboutFigures,
  count,
  holds,
  judged,
  MEASURE_ALIGN,
  MEASURE_HEADS,
  measureCells,
  medianOf,
  paygate,
  reportRows,
  rewrites,
  scaled,
  SIZES,
  WORK,
  writeLines,
  type Measure,
} from './scaleRun';
import { atMost, type Target } from './table';

// The query side of the scale bench (issue 40), each figure as a whole `paygate` process of the production
// CLI with default flags, beside its reference in the same run: group-by a column with a value per row
// against the currency grouping; `Amount in (…1,000 numbers…)` against a plain `Amount = 12.34`; 5,000
// nested parentheses and a flat `or` of 5,000 terms; and a FIFO or /dev/zero given as a file.

/** A message's first line as a table cell, the bench's folder left out. */
const firstLine = (text: string) => text.split('\n')[0].replaceAll(`${WORK}/`, '').replace(/\|/g, '\\|');

const row = (n: number, what: string, m: Measure, reference: Measure, note = '') =>
  `| ${count(n)} | ${what} | ${measureCells(m, reference)} | ${note} |`;

async function reports(visit: (n: number, file: string, bytes: number) => Promise<void>): Promise<void> {
  for (const n of SIZES) {
    const file = join(WORK, `report-${n}.csv`);
    await writeLines(file, reportRows(n));
    await visit(n, file, statSync(file).size);
    rmSync(file, { force: true });
  }
}

export async function queryTables(): Promise<{ group: string; inList: string; expressions: string }> {
  const loadAtStart = loadavg()[0];
  const group: string[] = [];
  const inList: string[] = [];
  const expressions: string[] = [];
  const groupTargets: Target[] = [];
  const inTargets: Target[] = [];
  const expressionTargets: Target[] = [];
  // 1,000 amounts the report holds (and some it does not), as a merchant pastes a list.
  const amounts = Array.from({ length: 1_000 }, (_, i) => `${(i * 37) % 1000}.${String((i * 7) % 1000).padStart(3, '0')}`);
  const inWhere = `Amount in (${amounts.join(', ')})`;
  const flatOr = Array.from({ length: 5_000 }, (_, i) => `Amount = ${i}.5`).join(' or ');
  const nested = `${'('.repeat(5_000)}Amount = 1${')'.repeat(5_000)}`;
  await reports(async (n, file) => {
    const currency = await medianOf(() => paygate(['query', file, '--group-by', 'Currency', '--sum', 'Amount']));
    // A value per row: past the default bound (100,000 groups) the answer is the plain refusal, exit 2.
    const byId = ['query', file, '--group-by', 'Transaction_id', '--sum', 'Amount'];
    const perRow = await medianOf(() => paygate(byId, [0, 2]));
    // The same with the bound raised to the rows: every group shown.
    const shown = await medianOf(() => paygate([...byId, '--max-groups', String(n)]));
    group.push(
      row(n, '`--group-by Currency --sum Amount` (reference)', currency, currency, '4 groups'),
      row(
        n,
        '`--group-by Transaction_id --sum Amount`',
        perRow,
        currency,
        perRow.code === 2 ? `${count(n)} groups: refused, too many to show` : `${count(n)} groups shown`,
      ),
      row(n, `\`--group-by Transaction_id --sum Amount --max-groups ${n}\``, shown, currency, `${count(n)} groups shown`),
    );
    const plain = await medianOf(() => paygate(['query', file, '--where', 'Amount = 12.34']));
    const listed = await medianOf(() => paygate(['query', file, '--where', inWhere]));
    inList.push(
      row(n, '`--where "Amount = 12.34"` (reference)', plain, plain),
      row(n, '`--where "Amount in (…1,000 numbers…)"`', listed, plain),
    );
    const flat = await medianOf(() => paygate(['query', file, '--where', flatOr]));
    const deep = await paygate(['query', file, '--where', nested], [2]);
    expressions.push(
      row(n, '`--where "Amount = 12.34"` (reference)', plain, plain),
      row(n, 'a flat `or` of 5,000 terms', flat, plain, 'answered'),
      row(n, '5,000 nested parentheses', deep, plain, `exit ${deep.code}: ${firstLine(deep.err)}`),
    );
    if (n === scaled(1_000_000)) {
      const said = perRow.code === 2 ? ' (refused)' : '';
      groupTargets.push(
        atMost(`\`--group-by\` a column of ${count(n)} values${said} ÷ the currency grouping, CPU`, perRow.cpuMs / currency.cpuMs, 4),
        atMost(`\`--group-by\` a column of ${count(n)} values${said}, peak RSS`, perRow.peak / 1e6, 1500, 'MB', 0),
        atMost(
          `\`--group-by\` a column of ${count(n)} values, every group shown, ÷ the currency grouping, CPU`,
          shown.cpuMs / currency.cpuMs,
          4,
        ),
        atMost(`\`--group-by\` a column of ${count(n)} values, every group shown, peak RSS`, shown.peak / 1e6, 1500, 'MB', 0),
      );
      inTargets.push(
        atMost(`\`Amount in (…1,000 numbers…)\` on ${count(n)} rows ÷ \`Amount = 12.34\`, CPU`, listed.cpuMs / plain.cpuMs, 2),
      );
      const place = /column 101\b/.test(deep.err) && /\b100\b/.test(deep.err);
      expressionTargets.push(
        holds(
          '5,000 nested parentheses:',
          'a refusal naming the place and the limit',
          place ? 'column 101, limit 100' : deep.err.split('\n')[0],
          place,
        ),
        holds('a flat `or` of 5,000 terms:', 'an answer', flat.code === 0 ? 'answered' : `exit ${flat.code}`, flat.code === 0),
      );
    }
  });
  const head = `| rows | command (\`paygate query REPORT …\`) | ${MEASURE_HEADS} | |\n|---:|---|${MEASURE_ALIGN}|---|`;
  const about = (what: string) =>
    `${what} on the bench's transactions report (every Transaction_id different, four currencies), each a whole process of the production CLI with default flags, median of the runs by CPU time; the reference in the same run. ${aboutFigures(loadAtStart)} ${rewrites()}`;
  return {
    group: [about('`paygate query --group-by`'), '', head, ...group, '', ...judged(groupTargets)].join('\n'),
    inList: [about('`paygate query --where` with a list of 1,000 numbers'), '', head, ...inList, '', ...judged(inTargets)].join('\n'),
    expressions: [
      about('`paygate query --where` with deep and long expressions'),
      '',
      head,
      ...expressions,
      '',
      ...judged(expressionTargets),
    ].join('\n'),
  };
}

/** `paygate schedule` and `reconcile --report` given a FIFO nobody writes to and /dev/zero, against a one-row batch. */
export async function inputsTable(): Promise<string> {
  const loadAtStart = loadavg()[0];
  const fifo = join(WORK, 'fifo');
  rmSync(fifo, { force: true });
  execFileSync('mkfifo', [fifo]);
  const batch = join(WORK, 'one.rpcsv');
  writeFileSync(
    batch,
    'client-orderid;rp_card_type;order_desc;period;interval;start-date;max-repeats-number;amount;currency\r\nORD-1;SRC;Plan;month;1;01.01.2027;3;12.50;EUR\r\n',
  );
  const report = join(WORK, 'one.csv');
  await writeLines(report, reportRows(1));
  const state = ['--state', join(WORK, 'inputs-ledger')];
  const schedule = await medianOf(() => paygate(['schedule', batch]));
  const reconcile = await medianOf(() => paygate(['reconcile', batch, '--report', report, ...state], [0, 1]));
  const lines: string[] = [];
  const targets: Target[] = [];
  const cases: [string, string, string[], Measure][] = [];
  for (const file of [fifo, '/dev/zero']) {
    const name = file === fifo ? 'FIFO' : file;
    cases.push([`\`paygate schedule ${name}\``, file, ['schedule', file], schedule]);
    cases.push([`\`paygate reconcile BATCH --report ${name}\``, file, ['reconcile', batch, '--report', file, ...state], reconcile]);
  }
  for (const [what, file, args, reference] of cases) {
    const m = await medianOf(() => paygate(args, [2], 10_000));
    const said = m.code === null ? 'still waiting after 10 s: killed' : `exit ${m.code}: ${firstLine(m.err)}`;
    lines.push(`| ${what} | ${measureCells(m, reference)} | ${said} |`);
    const refused = m.code === 2 && m.err.includes(file);
    targets.push(holds(`${what}:`, 'refused, naming the file', refused ? 'refused' : said, refused));
    // Killed waiting: no CPU to compare, and the wall time is the deadline's.
    const cpu = m.code === null ? m.ms / reference.ms : m.cpuMs / reference.cpuMs;
    targets.push(atMost(`${what} ÷ the same command on a one-row batch, CPU`, cpu, 1.5));
  }
  rmSync(fifo, { force: true });
  return [
    `A FIFO no one writes to and \`/dev/zero\` given as the batch or the report, each a whole process of the production CLI (killed after 10 s), median of the runs by CPU time; the reference is the same command on a one-row batch and a one-row report, same run (${schedule.ms.toFixed(0)} ms wall, ${schedule.cpuMs.toFixed(0)} ms CPU for \`schedule\`; ${reconcile.ms.toFixed(0)} and ${reconcile.cpuMs.toFixed(0)} ms for \`reconcile\`). ${aboutFigures(loadAtStart)} ${rewrites()}`,
    '',
    `| command | ${MEASURE_HEADS} | what it said |`,
    `|---|${MEASURE_ALIGN}|---|`,
    ...lines,
    '',
    ...judged(targets),
  ].join('\n');
}
