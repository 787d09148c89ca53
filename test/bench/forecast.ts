// `npm run bench:forecast`: the charge forecast of a 100k-row batch over 12 months. Recompute = read the
// batch and forecast it (what the panel does after an edit), by month, ISO week and day, against the
// parse alone of the same text in the same run; draw = the built forecast page in headless Chromium from
// the forecast message to the chart on screen, with the longest main-thread task. Writes the README table.
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { addDays, formatGatewayDate, todayLocal } from '../../src/core/dates';
import { lint } from '../../src/core/rules/lint';
import { defaultWindow, forecastBatch, type ForecastBy } from '../../src/core/forecast';
import { readBatch } from '../../src/core/rules/batch';
import type { HostToPage } from '../../src/shared/resultsProtocol';
import { launch, openPage, ROOT } from '../webview/harness';
import { generateBatch } from './generate';
import { median, writeReadmeSection } from './report';
import { atMost, targetLines } from './table';

const ROWS = 100_000;
const RUNS = 5;
const today = todayLocal();

/** Wall time and this process's CPU time (user + system) of one call: the CPU time moves less with the machine's load. */
function time(f: () => void): { wall: number; cpu: number } {
  const c = process.cpuUsage();
  const t = performance.now();
  f();
  const u = process.cpuUsage(c);
  return { wall: performance.now() - t, cpu: (u.user + u.system) / 1000 };
}

function measure(f: () => void): { wall: number; cpu: number } {
  f(); // warm-up
  const runs = Array.from({ length: RUNS }, () => time(f));
  return { wall: median(runs.map((r) => r.wall)), cpu: median(runs.map((r) => r.cpu)) };
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
    let amounts = ';;;';
    if (fixed) amounts = `${amount};;;`;
    else if (from) amounts = `;${amount};${amount}9;`;
    else if (seq) amounts = `;;;${amount},${seq}`;
    return `;month;1;${formatGatewayDate(start)};31.12.2031;12;${amounts};${['EUR', 'USD', 'GBP'][i % 3]};`;
  });
}

/** Draws the day buckets RUNS + 1 times in the built page; the longest main-thread task meanwhile. */
async function drawInPage(message: unknown): Promise<{ draws: number[]; longest: number; version: string }> {
  const { context, close } = await launch();
  const version = context.browser()?.version() ?? '';
  const draws: number[] = [];
  try {
    const h = await openPage(context, { bundle: 'forecast' });
    await h.page.waitForFunction(() => (window as unknown as { __posted: unknown[] }).__posted.length > 0);
    for (let i = 0; i < RUNS + 1; i++) {
      // The first draw also compiles the page's code: it is left out of the figures, long tasks included.
      if (i === 1) {
        await h.page.evaluate(() => {
          const w = window as unknown as { __longest: number };
          w.__longest = 0;
          new PerformanceObserver((list) => {
            for (const e of list.getEntries()) w.__longest = Math.max(w.__longest, e.duration);
          }).observe({ type: 'longtask' });
        });
      }
      await h.page.evaluate(() => delete document.body.dataset.state);
      await h.post(message as HostToPage);
      await h.waitReady();
      draws.push(Number(await h.page.evaluate(() => document.body.dataset.drawMs)));
    }
    return { draws: draws.slice(1), longest: await h.page.evaluate(() => (window as unknown as { __longest: number }).__longest), version };
  } finally {
    await close();
  }
}

async function main(): Promise<void> {
  const shared = generateBatch(ROWS);
  const text = process.env.PAYGATE_BENCH_FORECAST === 'shared' ? shared : distinctRows(shared);
  const mb = Buffer.byteLength(text) / 1e6;
  const lintMs = measure(() => lint(text));
  const recompute = {} as Record<ForecastBy, { ms: { wall: number; cpu: number }; charges: number; buckets: number }>;
  let dayMessage: unknown;
  for (const by of ['month', 'week', 'day'] as const) {
    const options = { ...defaultWindow(today), by, today };
    let run = forecastBatch(readBatch(text), options);
    const ms = measure(() => (run = forecastBatch(readBatch(text), options)));
    const f = run.forecast;
    // Payouts (the DST rows) are their own series: counted beside the charges, each bucket drawn.
    const counts = [
      ...Object.values(f.currencies)
        .flat()
        .map((b) => b.charges),
      ...Object.values(f.payouts)
        .flat()
        .map((b) => b.payouts),
    ];
    recompute[by] = {
      ms,
      charges: counts.reduce((s, n) => s + n, 0),
      buckets: counts.length,
    };
    if (by === 'day') dayMessage = { type: 'forecast', file: 'bench.rpcsv', generation: 1, forecast: run.forecast };
    console.log(`recompute by ${by}: ${ms.wall.toFixed(0)} ms (CPU ${ms.cpu.toFixed(0)} ms); whole-file lint ${lintMs.wall.toFixed(0)} ms`);
  }

  // The page: the most bars (by day), drawn several times; the longest task while drawing.
  const { draws, longest, version } = await drawInPage(dayMessage);
  const drawMs = median(draws);
  const bundle = (f: string) => (statSync(join(ROOT, 'dist', f)).size / 1024).toFixed(1);
  console.log(`draw by day (${recompute.day.buckets} buckets): ${drawMs.toFixed(1)} ms, longest task ${longest.toFixed(0)} ms`);

  const row = (by: ForecastBy) => {
    const r = recompute[by];
    return `| ${by} | ${r.buckets.toLocaleString('en-US')} | ${r.charges.toLocaleString('en-US')} | ${r.ms.wall.toFixed(0)} | ${r.ms.cpu.toFixed(0)} | ${(r.ms.wall / lintMs.wall).toFixed(2)}× |`;
  };
  const body = [
    `${ROWS.toLocaleString('en-US')} rows (${mb.toFixed(1)} MB: the lint bench's batch with every monthly SRC row given its own amount, a start-date within two months and one of three currencies, so no two rows share a schedule; 20 % one-off DST rows), a 12-month window from today; median of ${RUNS} runs; \`npm run bench:forecast\` rewrites this table.`,
    '',
    '| by | buckets | charges and payouts | recompute ms (read the text + forecast) | its CPU ms | ÷ whole-file lint |',
    '|---|---:|---:|---:|---:|---:|',
    row('month'),
    row('week'),
    row('day'),
    '',
    `Reference in the same run: the whole-file lint of the same text (what the editor does after an edit anyway), ${lintMs.wall.toFixed(0)} ms (CPU ${lintMs.cpu.toFixed(0)} ms). The page (headless Chromium ${version}, bundle ${bundle('forecast.js')} KiB minified with uPlot + ${bundle('forecast.css')} KiB CSS) draws the ${recompute.day.buckets.toLocaleString('en-US')} day buckets in ${drawMs.toFixed(1)} ms (median of ${draws.length} draws); longest main-thread task while drawing ${longest.toFixed(0)} ms (0: none over 50 ms; the first draw, which also compiles the page's code, is left out).`,
    '',
    ...targetLines([
      atMost('recompute by month (read the text + forecast)', recompute.month.ms.wall, 200, 'ms', 0),
      atMost('draw the day buckets', drawMs, 100, 'ms', 1),
      atMost('longest main-thread task while drawing', longest, 50, 'ms', 0),
    ]),
  ].join('\n');
  if (process.env.PAYGATE_BENCH_NO_README === '1') console.log(body);
  else writeReadmeSection('forecast', body);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
