// `npm run bench:forecast`: the charge forecast of a 100k-row batch over 12 months. Recompute = read the
// batch and forecast it (what the panel does after an edit), by month, ISO week and day, against the
// parse alone of the same text in the same run; draw = the built forecast page in headless Chromium from
// the forecast message to the chart on screen, with the longest main-thread task. Writes the README table.
import { availableParallelism, loadavg } from 'node:os';
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { addDays, formatGatewayDate, todayLocal } from '../../src/core/dates';
import { parseCsv } from '../../src/core/csv/parse';
import { defaultWindow, forecastBatch, type ForecastBy } from '../../src/core/forecast';
import { readBatch } from '../../src/core/rules/batch';
import type { HostToPage } from '../../src/shared/resultsProtocol';
import { launch, openPage, ROOT } from '../webview/harness';
import { generateBatch } from './generate';
import { median, writeReadmeSection } from './report';

const ROWS = 100_000;
const RUNS = 5;
const today = todayLocal();

function time(f: () => void): number {
  const t = performance.now();
  f();
  return performance.now() - t;
}

/**
 * The worst case for the forecast: every row its own schedule (a distinct amount, start-dates spread over
 * two months, three currencies), so no two rows share a plan and each asks the schedule engine.
 */
function distinctRows(text: string): string {
  let i = 0;
  return text.replace(/;month;1;;31\.12\.2031;12;(19\.90)?;(5\.00)?;(15\.00)?;([\d.,]*);EUR;/g, (_m, fixed, from, to, seq) => {
    i++;
    const start = addDays(today, i % 61);
    const cents = String(1000 + (i % 90_000));
    const amount = `${cents.slice(0, -2)}.${cents.slice(-2)}`;
    const amounts = fixed ? `${amount};;;` : from ? `;${amount};${amount}9;` : seq ? `;;;${amount},${seq}` : ';;;';
    return `;month;1;${formatGatewayDate(start)};31.12.2031;12;${amounts};${['EUR', 'USD', 'GBP'][i % 3]};`;
  });
}

async function main(): Promise<void> {
  const shared = generateBatch(ROWS);
  const text = process.env.PAYGATE_BENCH_FORECAST === 'shared' ? shared : distinctRows(shared);
  const mb = Buffer.byteLength(text) / 1e6;
  const parseMs = median(Array.from({ length: RUNS }, () => time(() => parseCsv(text))));
  const recompute: Record<ForecastBy, { ms: number; forecastOnlyMs: number; charges: number; buckets: number }> = {} as never;
  let dayMessage: unknown;
  for (const by of ['month', 'week', 'day'] as const) {
    const options = { ...defaultWindow(today), by, today };
    let run = forecastBatch(readBatch(text), options); // warm-up
    const ms = median(Array.from({ length: RUNS }, () => time(() => (run = forecastBatch(readBatch(text), options)))));
    const batch = readBatch(text);
    void batch.rows;
    const forecastOnlyMs = median(Array.from({ length: RUNS }, () => time(() => forecastBatch(batch, options))));
    const buckets = Object.values(run.forecast.currencies);
    recompute[by] = {
      ms,
      forecastOnlyMs,
      charges: buckets.reduce((s, b) => s + b.reduce((t, x) => t + x.charges, 0), 0),
      buckets: buckets.reduce((s, b) => s + b.length, 0),
    };
    if (by === 'day') dayMessage = { type: 'forecast', file: 'bench.rpcsv', generation: 1, forecast: run.forecast };
    console.log(`recompute by ${by}: ${ms.toFixed(0)} ms (forecast alone ${forecastOnlyMs.toFixed(0)} ms), parse ${parseMs.toFixed(0)} ms`);
  }

  // The page: the most bars (by day), drawn several times; the longest task while drawing.
  const { context, close } = await launch();
  let draws: number[] = [];
  let longest = 0;
  let version = '';
  try {
    version = context.browser()?.version() ?? '';
    const h = await openPage(context, { bundle: 'forecast' });
    await h.page.waitForFunction(() => (window as unknown as { __posted: unknown[] }).__posted.length > 0);
    await h.page.evaluate(() => {
      const w = window as unknown as { __longest: number };
      w.__longest = 0;
      new PerformanceObserver((list) => {
        for (const e of list.getEntries()) w.__longest = Math.max(w.__longest, e.duration);
      }).observe({ type: 'longtask' });
    });
    for (let i = 0; i < RUNS + 1; i++) {
      await h.page.evaluate(() => delete document.body.dataset.state);
      await h.post(dayMessage as HostToPage);
      await h.waitReady();
      draws.push(Number(await h.page.evaluate(() => document.body.dataset.drawMs)));
    }
    draws = draws.slice(1); // the first draw also compiles the page's code
    longest = await h.page.evaluate(() => (window as unknown as { __longest: number }).__longest);
  } finally {
    await close();
  }
  const drawMs = median(draws);
  const bundle = (f: string) => (statSync(join(ROOT, 'dist', f)).size / 1024).toFixed(1);
  console.log(`draw by day (${recompute.day.buckets} buckets): ${drawMs.toFixed(1)} ms, longest task ${longest.toFixed(0)} ms`);

  const row = (by: ForecastBy) => {
    const r = recompute[by];
    return `| ${by} | ${r.buckets.toLocaleString('en-US')} | ${r.charges.toLocaleString('en-US')} | ${r.ms.toFixed(0)} | ${r.forecastOnlyMs.toFixed(0)} | ${(r.ms / parseMs).toFixed(2)}× |`;
  };
  const body = [
    `${ROWS.toLocaleString('en-US')} rows (${mb.toFixed(1)} MB, the lint bench's batch: 80 % monthly SRC rows, 20 % one-off DST rows, all three amount modes), a 12-month window from today; median of ${RUNS} runs on ${availableParallelism()} cores (load average ${loadavg()[0].toFixed(1)}), Node ${process.version}; \`npm run bench:forecast\` rewrites this table.`,
    '',
    '| by | buckets | charges | recompute ms (read + forecast) | forecast alone ms | recompute ÷ parse alone |',
    '|---|---:|---:|---:|---:|---:|',
    row('month'),
    row('week'),
    row('day'),
    '',
    `Reference in the same run: parsing the text alone, ${parseMs.toFixed(0)} ms. The page (headless Chromium ${version}, bundle ${bundle('forecast.js')} KiB minified with uPlot + ${bundle('forecast.css')} KiB CSS) draws the ${recompute.day.buckets} day buckets in ${drawMs.toFixed(1)} ms (median of ${draws.length} draws); longest main-thread task ${longest.toFixed(0)} ms (0: none over 50 ms).`,
    '',
    `Targets: recompute ≤ 200 ms: ${recompute.month.ms.toFixed(0)} ms by month; draw ≤ 100 ms: ${drawMs.toFixed(1)} ms; no task over 50 ms: longest ${longest.toFixed(0)} ms.`,
  ].join('\n');
  if (process.env.PAYGATE_BENCH_NO_README === '1') console.log(body);
  else writeReadmeSection('forecast', body);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
