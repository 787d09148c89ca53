// Results panel bench: generated custom reports (the sample's 9 columns) opened in the built page in
// headless Chromium, fed the way the host feeds it (1 MiB csvChunk messages). Measures time to the
// first rows on screen, time until every row is parsed, the JS heap after a GC, a sort by Amount, a
// global search and scrolling, then writes the table into README.md. Nothing here asserts a time.
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { launch, openPage, ROOT } from '../webview/harness';
import { REPORT_COLUMNS } from '../../src/local-gateway/report';
import { writeReadmeSection } from './report';
import { atMost, targetLines } from './table';

const SIZES = (process.env.PAYGATE_BENCH_ROWS ?? '100000,1000000,5000000').split(',').map(Number);

interface Result {
  rows: number;
  mb: number;
  firstRowsMs: number;
  allRowsMs: number;
  /** CPU time of the page's main thread while loading (CDP ThreadTime): the work, without the waits for a busy core. */
  loadCpuMs: number;
  longestTaskMs: number;
  sortWhileLoadingMs: number;
  heapMb: number;
  /** The JS heap and the typed arrays' backing stores (row offsets, sort keys, orders), which the heap leaves out. */
  memoryMb: number;
  sortMs: number;
  searchMs: number;
  scrollFrameMs: number;
  scrollMaxMs: number;
  /** The filter box: `Currency = "EUR" and Amount >= 100`, the view built. */
  whereMs: number;
  /** Group by Currency and Created_date by day, sum of Amount: the summary on screen, its main-thread CPU, the longest task. */
  groupMs: number;
  groupCpuMs: number;
  groupLongestMs: number;
}

/** A generated report (the sample's 9 columns) left in the page as 1 MiB chunks; returns its size. */
async function generate(page: Page, rows: number): Promise<number> {
  // Generated in the page so the bench measures the page, not shipping 150 MB through the driver.
  // The columns travel as an argument: the function runs in the page, where no module of ours is.
  return page.evaluate(
    ({ n, columns }) => {
      const merchants = ['Demo Shop', 'Shop, Inc.', 'Acme', 'Zeta Ltd'];
      const types = ['sale', 'refund', 'chargeback'];
      const descs = ['Plain order', 'Two\r\nlines', 'He said "stop", then left', '<img src=x onerror=alert(1)>', 'Visa card payment'];
      const q = (v: string) => `"${v.replace(/"/g, '""')}"`;
      // The host's chunks are flat strings (read from a file or cut from one). A string built with += is a
      // rope of many small pieces, which postMessage would copy piece by piece on every send: that made the
      // bench's own sending two to three seconds of the page's main-thread CPU and slowed its receiving.
      // (Not TextDecoder: its large strings are the browser's, released by the collector in one long task.)
      const flat = (s: string) => JSON.parse(JSON.stringify(s)) as string;
      const chunks: string[] = [];
      let buf = columns.map(q).join(',') + '\r\n';
      let size = 0;
      let seed = 42;
      const rnd = () => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff;
      const p2 = (x: number) => String(x).padStart(2, '0');
      for (let i = 0; i < n; i++) {
        const d = 1 + Math.floor(rnd() * 28);
        const m = 1 + Math.floor(rnd() * 12);
        const created = `2025-${p2(m)}-${p2(d)} ${p2(Math.floor(rnd() * 24))}:${p2(Math.floor(rnd() * 60))}:${p2(Math.floor(rnd() * 60))}`;
        const amount = (rnd() * 10000).toFixed(3);
        buf +=
          [
            merchants[i % 4],
            String(1000000 + i),
            `ORD-${i}`,
            created,
            amount,
            i % 3 ? 'USD' : 'EUR',
            types[i % 3],
            descs[i % 5],
            `${p2(d)}.${p2(m)}.2025`,
          ]
            .map(q)
            .join(',') + '\r\n';
        if (buf.length >= 1 << 20) {
          chunks.push(flat(buf));
          size += buf.length;
          buf = '';
        }
      }
      chunks.push(flat(buf));
      size += buf.length;
      (window as unknown as { __chunks: string[] }).__chunks = chunks;
      return size;
    },
    { n: rows, columns: [...REPORT_COLUMNS] },
  );
}

/**
 * Sorting while rows still arrive: a fresh page is fed the same report, and Amount is clicked as soon as
 * the first rows are on screen; the time of that view (over the rows so far) is returned.
 */
async function sortWhileLoading(context: BrowserContext, rows: number): Promise<number> {
  const h = await openPage(context);
  const page = h.page;
  await page.evaluate('window.__name = (f) => f');
  await generate(page, rows);
  await page.evaluate(() => {
    const w = window as unknown as { __chunks?: string[] };
    const chunks = w.__chunks!;
    delete w.__chunks;
    window.postMessage({ type: 'csvStart', title: 'bench', source: { kind: 'inline' } }, '*');
    for (const text of chunks) window.postMessage({ type: 'csvChunk', text }, '*');
    window.postMessage({ type: 'csvEnd' }, '*');
  });
  await page.waitForFunction(() => document.querySelectorAll('.row.data:not([hidden])').length > 0, undefined, { timeout: 600_000 });
  await page.locator('[role=columnheader][aria-colindex="5"]').click();
  await page.waitForFunction(() => performance.getEntriesByName('paygate:view').length > 0, undefined, { timeout: 600_000 });
  const ms = await page.evaluate(() => performance.getEntriesByName('paygate:view')[0].duration);
  await page.close();
  return ms;
}

async function benchOne(context: BrowserContext, rows: number): Promise<Result> {
  const h = await openPage(context);
  const page = h.page;
  const cdp = await context.newCDPSession(page);
  // tsx compiles this file with keepNames, which wraps named inner functions of evaluate() callbacks
  // in a __name() helper that only exists in Node; give the page a no-op one.
  await page.evaluate('window.__name = (f) => f');
  const bytes = await generate(page, rows);

  // Generating the report left hundreds of MB of garbage; collected now, it is not charged to the load.
  await cdp.send('HeapProfiler.collectGarbage');
  await cdp.send('Performance.enable');
  const taskMs = async () => {
    const { metrics } = (await cdp.send('Performance.getMetrics')) as { metrics: { name: string; value: number }[] };
    return 1000 * (metrics.find((m) => m.name === 'ThreadTime')?.value ?? NaN);
  };
  const cpuBefore = await taskMs();
  // The bench's own posting of the chunks runs on the page's main thread too; it is not the page's work.
  const sendMs = await page.evaluate(() => {
    const t0 = performance.now();
    // The chunks stay referenced until the load is over: the sender's copies are not in the page's heap
    // in the editor, and letting go of them here had the collector free 600 MB in the middle of the load.
    const chunks = (window as unknown as { __chunks: string[] }).__chunks;
    performance.clearMarks();
    // Long tasks while loading show whether the page stays responsive (input waits at most that long).
    const w2 = window as unknown as { __longest: number };
    w2.__longest = 0;
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) w2.__longest = Math.max(w2.__longest, e.duration);
    }).observe({ type: 'longtask' });
    window.postMessage({ type: 'csvStart', title: 'bench', source: { kind: 'inline' } }, '*');
    for (const text of chunks) window.postMessage({ type: 'csvChunk', text }, '*');
    window.postMessage({ type: 'csvEnd' }, '*');
    return performance.now() - t0;
  });
  await page.waitForSelector('body[data-state="ready"]', { timeout: 600_000 });
  const loadCpuMs = (await taskMs()) - cpuBefore - sendMs;
  await page.evaluate(() => delete (window as unknown as { __chunks?: string[] }).__chunks);
  const marks = await page.evaluate(() => {
    const at = (name: string) => performance.getEntriesByName(name)[0]?.startTime ?? NaN;
    return {
      start: at('paygate:csv-start'),
      first: at('paygate:first-rows'),
      all: at('paygate:all-rows'),
      longest: (window as unknown as { __longest: number }).__longest,
    };
  });
  const heapNow = async () => {
    await cdp.send('HeapProfiler.collectGarbage');
    const u = (await cdp.send('Runtime.getHeapUsage')) as { usedSize: number; backingStorageSize?: number };
    return { used: u.usedSize, memory: u.usedSize + (u.backingStorageSize ?? NaN) };
  };
  const loadedHeap = await heapNow();

  // Sort and search times are the page's own measure of building the view (filter slices included).
  const lastView = () => page.evaluate(() => performance.getEntriesByName('paygate:view').length);
  const viewMs = () => page.evaluate(() => performance.getEntriesByName('paygate:view').pop()!.duration);
  const waitView = (before: number) =>
    page.waitForFunction((b) => performance.getEntriesByName('paygate:view').length > b, before, { timeout: 600_000 });
  let views = await lastView();
  await page.locator('[role=columnheader][aria-colindex="5"]').click();
  await waitView(views);
  const sortMs = await viewMs();
  views = await lastView();
  await page.fill('.search', 'refund');
  await waitView(views);
  const searchMs = await viewMs();
  views = await lastView();
  // Page memory is the larger of after loading and with a sort and a search in place (their keys and marks).
  const queriedHeap = await heapNow();
  const heap = { used: Math.max(loadedHeap.used, queriedHeap.used), memory: Math.max(loadedHeap.memory, queriedHeap.memory) };
  await page.fill('.search', '');
  await waitView(views);

  // The query bar: a filter expression, then Group by Currency with dates by day (the report's
  // Created_date), summed exactly per currency; the page's own measures, and the longest task meanwhile.
  views = await lastView();
  await page.fill('.query-where', 'Currency = "EUR" and Amount >= 100');
  await page.press('.query-where', 'Enter');
  await waitView(views);
  const whereMs = await viewMs();
  await page.fill('.query-where', '');
  await page.press('.query-where', 'Enter');
  await page.evaluate(() => {
    (window as unknown as { __longest: number }).__longest = 0;
    performance.clearMeasures('paygate:group');
  });
  const groupCpuBefore = await taskMs();
  // Both controls set at once, as one question (two changes would start a grouping by Currency alone first).
  await page.evaluate(() => {
    const group = document.querySelector('.group-by[data-level="0"]') as HTMLSelectElement;
    group.value = String([...group.options].findIndex((o) => o.textContent === 'Currency') - 1);
    const period = document.querySelector('.group-period') as HTMLSelectElement;
    period.value = 'day';
    period.dispatchEvent(new Event('change'));
  });
  await page.waitForFunction(() => performance.getEntriesByName('paygate:group').length >= 1, undefined, { timeout: 600_000 });
  const group = await page.evaluate(() => ({
    ms: performance.getEntriesByName('paygate:group').pop()!.duration,
    longest: (window as unknown as { __longest: number }).__longest,
  }));
  const groupCpuMs = (await taskMs()) - groupCpuBefore;
  await page.selectOption('.group-by[data-level="0"]', '');

  // Scroll in 2,000-pixel steps, one per frame, through the whole table: each step is the time from
  // setting scrollTop to the next frame, i.e. how long the page took to render the new rows.
  const scroll = await page.evaluate(async () => {
    const grid = document.querySelector('[role=grid]') as HTMLElement;
    const frame = () => new Promise<number>((r) => requestAnimationFrame(r));
    const times: number[] = [];
    const stride = Math.max(2000, Math.floor(grid.scrollHeight / 300));
    for (let top = 0; top < grid.scrollHeight; top += stride) {
      const t0 = performance.now();
      grid.scrollTop = top;
      await frame();
      times.push(performance.now() - t0);
    }
    times.sort((a, b) => a - b);
    return { median: times[times.length >> 1], max: times[times.length - 1] };
  });
  await page.close();
  return {
    rows,
    mb: bytes / 1e6,
    firstRowsMs: marks.first - marks.start,
    allRowsMs: marks.all - marks.start,
    loadCpuMs,
    longestTaskMs: marks.longest,
    sortWhileLoadingMs: await sortWhileLoading(context, rows),
    heapMb: heap.used / 1e6,
    memoryMb: heap.memory / 1e6,
    sortMs,
    searchMs,
    scrollFrameMs: scroll.median,
    scrollMaxMs: scroll.max,
    whereMs,
    groupMs: group.ms,
    groupCpuMs,
    groupLongestMs: group.longest,
  };
}

/** Loads per size (PAYGATE_BENCH_RUNS); the median one by "all rows" is reported. */
const RUNS = Math.max(1, Number(process.env.PAYGATE_BENCH_RUNS ?? 3) || 3);

async function main(): Promise<void> {
  const bundle = fs.statSync(path.join(ROOT, 'dist/webview-ui.js')).size;
  const css = fs.statSync(path.join(ROOT, 'dist/webview-ui.css')).size;
  const { context, close } = await launch();
  const results: Result[] = [];
  /** Each size's slowest "all rows" of its RUNS loads: the target holds for every load, not the median. */
  const slowest = new Map<number, number>();
  try {
    for (const n of SIZES) {
      // One load's wall time on this shared machine swings by 2x from run to run (1.5 s or 3.5 s at 5M
      // rows, with the same code): each size is loaded RUNS times and the run with the median "all rows"
      // is the one reported, whole.
      const runs: Result[] = [];
      for (let i = 0; i < RUNS; i++) {
        const r = await benchOne(context, n);
        console.log(JSON.stringify(r));
        runs.push(r);
      }
      runs.sort((a, b) => a.allRowsMs - b.allRowsMs);
      results.push(runs[runs.length >> 1]);
      slowest.set(n, runs[runs.length - 1].allRowsMs);
    }
  } finally {
    await close();
  }
  const f = (x: number, d = 0) => x.toLocaleString('en-US', { maximumFractionDigits: d, minimumFractionDigits: d });
  const version = (await import('node:child_process'))
    .execFileSync(process.env.PAYGATE_CHROMIUM ?? '/usr/bin/chromium', ['--version'], { stdio: ['ignore', 'pipe', 'ignore'] })
    .toString()
    .trim();
  // This round's targets are for a five-million-row report (issue: "instant at a million rows"; issue 32:
  // within 2 s in every one of the loads).
  const targets = results
    .filter((r) => r.rows >= 5_000_000)
    .flatMap((r) => [
      atMost(`${f(r.rows)} rows, all rows, slowest of ${RUNS} loads`, slowest.get(r.rows)!, 2000, 'ms', 0),
      atMost(`${f(r.rows)} rows, sort by Amount`, r.sortMs, 500, 'ms', 0),
      atMost(`${f(r.rows)} rows, search`, r.searchMs, 200, 'ms', 0),
      {
        what: `${f(r.rows)} rows, longest task while loading`,
        target: '< 50 ms',
        figure: `${f(r.longestTaskMs)} ms`,
        met: r.longestTaskMs < 50,
      },
      atMost(`${f(r.rows)} rows, page memory (JS heap and typed arrays)`, r.memoryMb, 1500, 'MB', 0),
      atMost(`${f(r.rows)} rows, Group by currency and day (the summary on screen)`, r.groupMs, 1000, 'ms', 0),
      {
        what: `${f(r.rows)} rows, longest task while grouping`,
        target: '< 50 ms',
        figure: `${f(r.groupLongestMs)} ms`,
        met: r.groupLongestMs < 50,
      },
    ]);
  const body = [
    `Headless ${version} (wall times stretch with the load average; main-thread CPU ms much less); page bundle ${f(bundle / 1024, 1)} KiB minified + ${f(css / 1024, 1)} KiB CSS. ` +
      'Rows arrive as 1 MiB `csvChunk` messages and are parsed in the page; "first rows" is when the first rows are on screen, ' +
      '"all rows" when the last is parsed and the view built; "sort while loading" is a sort by Amount clicked as soon as the first rows show (a separate load), over the rows so far; ' +
      '"filter expression" is the view for `Currency = "EUR" and Amount >= 100` typed in the filter box; "group by currency, day" is Group by Currency with dates by day (Created_date), summed exactly per currency, until the summary is on screen, with the longest task meanwhile; ' +
      '"main-thread CPU ms" is the CPU time of the page\'s main thread while loading (without the bench\'s own posting of the chunks); "longest task" is the longest the page was busy without a break while loading ' +
      "(how long a click or key could wait); heap is the page's JS heap after a GC, the larger of after loading and with the sort and search in place; " +
      'scroll is the time per ' +
      `frame while jumping through the whole table. Each size is loaded ${RUNS} times and the load with the median "all rows" is reported. \`npm run bench:webview\` rewrites this table.`,
    '',
    '| rows | MB | first rows ms | all rows ms | main-thread CPU ms | longest task ms | sort while loading ms | JS heap MB | sort Amount ms | search ms | scroll frame ms (median / max) | filter expression ms | group by currency, day ms (CPU ms, longest task ms) |',
    '|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
    ...results.map(
      (r) =>
        `| ${f(r.rows)} | ${f(r.mb, 1)} | ${f(r.firstRowsMs)} | ${f(r.allRowsMs)} | ${f(r.loadCpuMs)} | ${f(r.longestTaskMs)} | ${f(r.sortWhileLoadingMs)} | ${f(r.heapMb)} | ${f(r.sortMs)} | ${f(r.searchMs)} | ${f(r.scrollFrameMs, 1)} / ${f(r.scrollMaxMs, 1)} | ${f(r.whereMs)} | ${f(r.groupMs)} (${f(r.groupCpuMs)}, ${f(r.groupLongestMs)}) |`,
    ),
    '',
    ...(targets.length > 0 ? targetLines(targets) : []),
  ].join('\n');
  console.log(body);
  if (!process.env.PAYGATE_BENCH_NO_README) writeReadmeSection('webview', body);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
