// CPU profiles of the results page in headless Chromium (the built page, dist/): a load of ROWS generated
// rows, then the bench's sort by Amount, search "refund" and Group by Currency by day, one
// .cpuprofile each in DIR. Run under the e2e lock: node --import tsx test/bench/webviewProfile.ts ROWS DIR
import * as fs from 'node:fs';
import * as path from 'node:path';
import { launch, openPage } from '../webview/harness';
import { REPORT_COLUMNS } from '../../src/local-gateway/report';
import { reportTexts } from './webviewData';

const ROWS = Number(process.argv[2] ?? 1_000_000);
const DIR = process.argv[3] ?? 'out/profile';

async function main(): Promise<void> {
  fs.mkdirSync(DIR, { recursive: true });
  const { context, close } = await launch();
  try {
    const { page } = await openPage(context);
    const cdp = await context.newCDPSession(page);
    await page.evaluate('window.__name = (f) => f');
    await page.evaluate(
      `window.__chunks = (${reportTexts.toString()})(${ROWS}, ${JSON.stringify(REPORT_COLUMNS)}).map((t) => new TextEncoder().encode(t)); 0`,
    );
    await cdp.send('HeapProfiler.collectGarbage');
    await cdp.send('Profiler.enable');
    await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
    // PAYGATE_PROFILE_TRACE_ONLY=1: the trace alone, its tasks' lengths without the sampling profiler's cost.
    const sampling = process.env.PAYGATE_PROFILE_TRACE_ONLY !== '1';
    const profiled = async (name: string, what: () => Promise<void>) => {
      if (sampling) await cdp.send('Profiler.start');
      const t0 = Date.now();
      await what();
      const ms = Date.now() - t0;
      if (sampling) {
        const { profile } = (await cdp.send('Profiler.stop')) as { profile: unknown };
        fs.writeFileSync(path.join(DIR, `${name}.cpuprofile`), JSON.stringify(profile));
      }
      const last = await page.evaluate(
        (n) => performance.getEntriesByName(n).pop()?.duration ?? NaN,
        name === 'group' ? 'paygate:group' : 'paygate:view',
      );
      // Grouping: the row pass's own time (the summary's heading says it) beside the whole measure.
      const heading = name === 'group' ? await page.textContent('.summary-heading') : null;
      const pass = heading ? ` (the row pass: ${/(\d[\d,]*) ms$/.exec(heading)?.[1] ?? '?'} ms)` : '';
      console.log(`${name}: ${ms} ms wall (driver), page measure ${Math.round(last)} ms${pass}`);
    };
    const views = () => page.evaluate(() => performance.getEntriesByName('paygate:view').length);
    const waitView = async (before: number) =>
      page.waitForFunction((b) => performance.getEntriesByName('paygate:view').length > b, before, { timeout: 600_000, polling: 50 });
    await profiled('load', async () => {
      await page.evaluate(() => {
        const w = window as unknown as { __chunks: Uint8Array[] };
        window.postMessage({ type: 'csvStart', title: { said: ['bench'] }, source: { kind: 'inline' } }, '*');
        for (const bytes of w.__chunks) window.postMessage({ type: 'csvChunk', bytes }, '*', [bytes.buffer]);
        window.postMessage({ type: 'csvEnd' }, '*');
      });
      await page.waitForSelector('body[data-state="ready"]', { timeout: 600_000 });
    });
    let v = await views();
    await profiled('sort', async () => {
      await page.locator('[role=columnheader][aria-colindex="5"]').click();
      await waitView(v);
    });
    v = await views();
    await profiled('search', async () => {
      await page.fill('.search', 'refund');
      await waitView(v);
    });
    v = await views();
    await page.fill('.search', '');
    await waitView(v);
    const traced: unknown[] = [];
    cdp.on('Tracing.dataCollected', (e: { value: unknown[] }) => {
      for (const v of e.value) traced.push(v);
    });
    await cdp.send('Tracing.start', {
      categories: 'devtools.timeline,disabled-by-default-devtools.timeline',
      transferMode: 'ReportEvents',
    });
    await profiled('group', async () => {
      await page.evaluate(() => {
        const group = document.querySelector('.group-by[data-level="0"]') as HTMLSelectElement;
        group.value = String([...group.options].findIndex((o) => o.textContent === 'Currency') - 1);
        const period = document.querySelector('.group-period') as HTMLSelectElement;
        period.value = 'day';
        period.dispatchEvent(new Event('change'));
      });
      await page.waitForFunction(() => performance.getEntriesByName('paygate:group').length >= 1, undefined, {
        timeout: 600_000,
        polling: 50,
      });
    });
    const done = new Promise((resolve) => cdp.once('Tracing.tracingComplete', resolve));
    await cdp.send('Tracing.end');
    await done;
    fs.writeFileSync(path.join(DIR, 'group.trace.json'), JSON.stringify(traced));
  } finally {
    await close();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
