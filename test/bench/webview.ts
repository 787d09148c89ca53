// Results panel bench: generated custom reports (the sample's 9 columns) opened in the built page in
// headless Chromium, fed the way the host feeds it (1 MiB csvChunk messages). Measures time to the
// first rows on screen, time until every row is parsed, the JS heap after a GC, a sort by Amount, a
// global search and scrolling, then writes the table into README.md. Nothing here asserts a time.
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { BrowserContext } from 'playwright-core';
import { launch, openPage, ROOT } from '../webview/harness';
import { generate, POLL_MS, sortWhileLoading } from './webviewLoad';
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
  /** Chunks the parse worker read (its records kept) and chunks the page read itself. */
  chunks: { byWorker: number; byPage: number };
  /** The filter box: `Currency = "EUR" and Amount >= 100`, the view built. */
  whereMs: number;
  /** Group by Currency and Created_date by day, sum of Amount: the summary on screen, its main-thread CPU, the longest task. */
  groupMs: number;
  groupCpuMs: number;
  groupLongestMs: number;
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
    // As the editor's webview host posts them: each chunk's buffer is transferred, so the page receives
    // it without a copy (and the bench keeps nothing of it).
    const chunks = (window as unknown as { __chunks: Uint8Array[] }).__chunks;
    performance.clearMarks();
    // Long tasks while loading show whether the page stays responsive (input waits at most that long).
    const w2 = window as unknown as { __longest: number };
    w2.__longest = 0;
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) w2.__longest = Math.max(w2.__longest, e.duration);
    }).observe({ type: 'longtask' });
    window.postMessage({ type: 'csvStart', title: { said: ['bench'] }, source: { kind: 'inline' } }, '*');
    for (const bytes of chunks) window.postMessage({ type: 'csvChunk', bytes }, '*', [bytes.buffer]);
    window.postMessage({ type: 'csvEnd' }, '*');
    return performance.now() - t0;
  });
  await page.waitForSelector('body[data-state="ready"]', { timeout: 600_000 });
  const loadCpuMs = (await taskMs()) - cpuBefore - sendMs;
  await page.evaluate(() => delete (window as unknown as { __chunks?: Uint8Array[] }).__chunks);
  const marks = await page.evaluate(() => {
    const at = (name: string) => performance.getEntriesByName(name)[0]?.startTime ?? NaN;
    return {
      start: at('paygate:csv-start'),
      first: at('paygate:first-rows'),
      all: at('paygate:all-rows'),
      chunks: (performance.getEntriesByName('paygate:all-rows')[0] as PerformanceMark).detail as { byWorker: number; byPage: number },
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
    page.waitForFunction((b) => performance.getEntriesByName('paygate:view').length > b, before, { timeout: 600_000, polling: POLL_MS });
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
  await page.waitForFunction(() => performance.getEntriesByName('paygate:group').length >= 1, undefined, {
    timeout: 600_000,
    polling: POLL_MS,
  });
  // The summary is laid out and painted in the frame after its measure: two frames on, that frame is counted.
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(r, 0)))));
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
    chunks: marks.chunks,
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
  /** Each size's loads, in the order taken: the 5M-row target holds for every load, not the median. */
  const every = new Map<number, Result[]>();
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
      every.set(n, [...runs]);
      results.push(runs.sort((a, b) => a.allRowsMs - b.allRowsMs)[runs.length >> 1]);
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
      // Each load beside the target, in the order taken (the target is for every one of them).
      ...(every.get(r.rows) ?? []).map((load, i) =>
        atMost(`${f(r.rows)} rows, all rows, load ${i + 1} of ${RUNS}`, load.allRowsMs, 2000, 'ms', 0),
      ),
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
  // What each large load's parse worker did: a load the page read alone says the worker was refused or late.
  const workerShare = [...every]
    .filter(([n]) => n >= 5_000_000)
    .map(
      ([n, runs]) =>
        `At ${f(n)} rows the parse worker read ${runs.map((r) => `${r.chunks.byWorker} of ${r.chunks.byWorker + r.chunks.byPage}`).join(', ')} chunks ` +
        `(main-thread CPU ${runs.map((r) => f(r.loadCpuMs)).join(', ')} ms), load by load.`,
    );
  const body = [
    `Headless ${version} (wall times stretch with the load average; main-thread CPU ms much less); page bundle ${f(bundle / 1024, 1)} KiB minified + ${f(css / 1024, 1)} KiB CSS. ` +
      'Rows arrive as 1 MiB `csvChunk` messages of UTF-8 bytes (transferred to the page, as the editor passes them) and are parsed in the page, every other chunk by its parse worker; "first rows" is when the first rows are on screen, ' +
      '"all rows" when the last is parsed and the view built; "sort while loading" is a sort by Amount clicked as soon as the first rows show (a separate load), over the rows so far; ' +
      '"filter expression" is the view for `Currency = "EUR" and Amount >= 100` typed in the filter box; "group by currency, day" is Group by Currency with dates by day (Created_date), summed exactly per currency, until the summary is on screen, with the longest task meanwhile (up to two frames after it, so the summary\'s own layout and paint count); ' +
      '"main-thread CPU ms" is the CPU time of the page\'s main thread while loading (without the bench\'s own posting of the chunks); "longest task" is the longest the page was busy without a break while loading ' +
      "(how long a click or key could wait); heap is the page's JS heap after a GC, the larger of after loading and with the sort and search in place; " +
      `scroll is the time per frame while jumping through the whole table. Each size is loaded ${RUNS} times and the load with the median "all rows" is reported; the 5M-row target is set beside every load. \`npm run bench:webview\` rewrites this table.`,
    '',
    '| rows | MB | first rows ms | all rows ms | main-thread CPU ms | longest task ms | sort while loading ms | JS heap MB | sort Amount ms | search ms | scroll frame ms (median / max) | filter expression ms | group by currency, day ms (CPU ms, longest task ms) |',
    '|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
    ...results.map(
      (r) =>
        `| ${f(r.rows)} | ${f(r.mb, 1)} | ${f(r.firstRowsMs)} | ${f(r.allRowsMs)} | ${f(r.loadCpuMs)} | ${f(r.longestTaskMs)} | ${f(r.sortWhileLoadingMs)} | ${f(r.heapMb)} | ${f(r.sortMs)} | ${f(r.searchMs)} | ${f(r.scrollFrameMs, 1)} / ${f(r.scrollMaxMs, 1)} | ${f(r.whereMs)} | ${f(r.groupMs)} (${f(r.groupCpuMs)}, ${f(r.groupLongestMs)}) |`,
    ),
    '',
    ...workerShare,
    ...(workerShare.length > 0 ? [''] : []),
    ...(targets.length > 0 ? targetLines(targets) : []),
  ].join('\n');
  console.log(body);
  if (!process.env.PAYGATE_BENCH_NO_README) writeReadmeSection('webview', body);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
