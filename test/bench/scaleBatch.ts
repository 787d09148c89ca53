import { rmSync, statSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { generateBatch } from './generate';
import { recordSend } from './sentLedger';
import {
  aboutFigures,
  count,
  judged,
  mb,
  MEASURE_ALIGN,
  MEASURE_HEADS,
  measureCells,
  medianOf,
  paygate,
  rewrites,
  scaled,
  SIZES,
  WORK,
  writeLines,
  type Measure,
} from './scaleRun';
import { atMost, type Target } from './table';

// The batch side of the scale bench (issue 40): `paygate diff` of two batches and against the ledger's
// last send, beside `paygate lint` of one of them in the same run; `paygate reconcile` of 100k batch rows
// against reports of growing size, its peak memory beside the 1 GB target.

/** The older batch edited: every 50th row dropped, 100 rows added (the shape of a month's changes). */
function edited(text: string): string {
  const lines = text.split('\r\n');
  const kept = lines.filter((_, i) => i === 0 || i % 50 !== 0 || i === lines.length - 1);
  const added = Array.from({ length: 100 }, (_, k) => lines[1].replace(/^ORD-\d+/, `NEW-${k}`));
  return [...kept.slice(0, -1), ...added, ''].join('\r\n');
}

export async function diffTable(): Promise<string> {
  const loadAtStart = loadavg()[0];
  const rows: string[] = [];
  const targets: Target[] = [];
  for (const n of SIZES) {
    const dir = join(WORK, `diff-${n}`);
    rmSync(dir, { recursive: true, force: true });
    const older = join(WORK, `older-${n}.rpcsv`);
    const newer = join(WORK, `batch-${n}.rpcsv`);
    const text = generateBatch(n);
    writeFileSync(older, text);
    writeFileSync(newer, edited(text));
    // The ledger's last send of "batch-N.rpcsv" held the older rows.
    await recordSend(join(dir, 'ledger'), newer, text);
    const bytes = statSync(newer).size;
    const lint = await medianOf(() => paygate(['lint', newer], [0, 1]));
    const files = await medianOf(() => paygate(['diff', newer, '--against', older], [1]));
    const last = await medianOf(() => paygate(['diff', newer, '--state', join(dir, 'ledger')], [1]));
    const line = (what: string, m: Measure) => `| ${count(n)} | ${mb(bytes)} | ${what} | ${measureCells(m, lint)} |`;
    rows.push(
      line('`paygate lint` of the newer (reference)', lint),
      line('`paygate diff NEWER --against OLDER`', files),
      line('`paygate diff NEWER` (the last send, from the ledger)', last),
    );
    if (n === scaled(500_000) || n === scaled(1_000_000)) {
      targets.push(atMost(`\`paygate diff\` of two ${count(n)}-row batches ÷ lint of one, CPU`, files.cpuMs / lint.cpuMs, 2));
      targets.push(atMost(`\`paygate diff\` of ${count(n)} rows against the last send ÷ lint, CPU`, last.cpuMs / lint.cpuMs, 2));
    }
    if (n === scaled(1_000_000)) {
      targets.push(atMost(`\`paygate diff\` of two ${count(n)}-row batches, peak RSS`, files.peak / 1e6, 1000, 'MB', 0));
      targets.push(atMost(`\`paygate diff\` of ${count(n)} rows against the last send, peak RSS`, last.peak / 1e6, 1000, 'MB', 0));
    }
    for (const f of [older, newer]) rmSync(f, { force: true });
    rmSync(dir, { recursive: true, force: true });
  }
  return [
    `\`paygate diff\` (no flags but the side compared) of the bench's generated batch (29 columns) against the same batch with every 50th row removed and 100 rows added, as a whole process of the production CLI from start to exit, median of the runs by CPU time; beside it \`paygate lint\` of the newer batch in the same run, the reference. "the last send" is the ledger's row keys of the older batch, recorded as a send of the newer's file name. ${aboutFigures(loadAtStart)} ${rewrites()}`,
    '',
    `| rows | MB | command | ${MEASURE_HEADS} |`,
    `|---:|---:|---|${MEASURE_ALIGN}|`,
    ...rows,
    '',
    ...judged(targets),
  ].join('\n');
}

const BATCH_HEADER =
  'client-orderid;rp_card_type;order_desc;first-name;last-name;address1;city;zip-code;country;phone;email;period;interval;start-date;max-repeats-number;amount;currency;card-printed-name;credit-card-number;expire-month;expire-year;cvv2';

function* batchLines(rows: number, charges: number): Generator<string> {
  yield BATCH_HEADER;
  for (let i = 0; i < rows; i++)
    yield `ORD-${i};SRC;Plan ${i};Anna;Schmidt;Hauptstrasse ${i % 300};Berlin;10115;DE;+49 30 1234567;anna${i}@example.com;month;1;01.01.2027;${charges};12.50;EUR;ANNA SCHMIDT;4111111111111111;08;2031;123`;
}

/** Each batch row charged monthly from January, `charges` times: the report holds rows × charges lines. */
function* chargeLines(rows: number, charges: number): Generator<string> {
  yield '"Merchant_Name","Transaction_id","Merchant_OID","Created_date","Amount","Currency","Transaction_type","Order_description","Date_of_report"';
  let tx = 1;
  for (let m = 1; m <= charges; m++)
    for (let i = 0; i < rows; i++)
      yield `"Demo","${tx++}","ORD-${i}","2027-${String(m).padStart(2, '0')}-01 09:00:00","12.500","EUR","Sale approved","Plan","01.12.2027"`;
}

export async function reconcileTable(): Promise<string> {
  const loadAtStart = loadavg()[0];
  const batchRows = scaled(100_000);
  const rows: string[] = [];
  const peaks = new Map<number, number>();
  for (const charges of [1, 3, 10]) {
    const batch = join(WORK, `reconcile-${charges}.rpcsv`);
    const report = join(WORK, `reconcile-${charges}.csv`);
    await writeLines(batch, batchLines(batchRows, charges));
    await writeLines(report, chargeLines(batchRows, charges));
    const reportRows = batchRows * charges;
    const args = ['reconcile', batch, '--report', report, '--state', join(WORK, 'reconcile-ledger')];
    for (const format of ['text', 'json']) {
      const m = await medianOf(() => paygate([...args, '--format', format]));
      if (format === 'json') peaks.set(reportRows, m.peak);
      rows.push(
        `| ${count(batchRows)} | ${count(reportRows)} | ${mb(statSync(report).size)} | ${format} | ${m.ms.toFixed(0)} | ${m.cpuMs.toFixed(0)} | ${mb(m.peak)} | ${((m.peak / reportRows) | 0).toLocaleString('en')} | ${m.load.toFixed(1)} |`,
      );
    }
    for (const f of [batch, report]) rmSync(f, { force: true });
  }
  const at = (n: number) => peaks.get(scaled(100_000) * n)!;
  const perRow = (n: number) => at(n) / (scaled(100_000) * n);
  const targets = [
    atMost(
      `\`paygate reconcile --format json\`, ${count(batchRows)} batch rows × ${count(batchRows * 3)} report rows, peak RSS`,
      at(3) / 1e6,
      1000,
      'MB',
      0,
    ),
    // Linear in the report's rows: the memory per report row does not grow with the report.
    atMost('peak RSS per report row at 10 charges a row ÷ at 3', perRow(10) / perRow(3), 1),
  ];
  return [
    `\`paygate reconcile BATCH --report REPORT\` (the production CLI, whole process, median of the runs by CPU time): ${count(batchRows)} batch rows of 22 columns, each charged monthly 1, 3 or 10 times, against a report holding every charge (all ok), text and \`--format json\`. The memory held per row is what docs/reconcile.md says: per batch row its twelve reconciled values and its expected charges, per report row one small record; the output is printed a thousand rows at a time. ${aboutFigures(loadAtStart, false)} ${rewrites()}`,
    '',
    '| batch rows | report rows | report MB | format | wall ms | CPU ms | peak RSS MB | bytes per report row | load |',
    '|---:|---:|---:|---|---:|---:|---:|---:|---:|',
    ...rows,
    '',
    ...judged(targets),
  ].join('\n');
}
