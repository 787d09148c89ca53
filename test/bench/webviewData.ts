// The results page's data code under Node, without Chromium: the webview bench's generated report read
// into the page's Dataset, then the three questions the webview bench asks after a load (sort by Amount,
// search "refund", Group by Currency and Created_date by day with the sum of Amount), each timed as wall
// and CPU ms, median of a few. Bundled as the page is (esbuild), so two checkouts' bundles can be run
// alternately on the same data on a loaded machine; `node --cpu-prof` profiles one. Nothing here asserts a time.
//   esbuild test/bench/webviewData.ts --bundle --platform=node --main-fields=module,main --outfile=out/bench/webviewData.js
//   node out/bench/webviewData.js [ROWS] [REPEATS]
import { REPORT_COLUMNS } from '../../src/local-gateway/report';
import { CsvReader, type Piece } from '../../webview-ui/csvReader';
import { Dataset } from '../../webview-ui/dataset';
import { groupRows } from '../../webview-ui/query/runner';
import { planQuery } from '../../src/shared/query';

const ROWS = Number(process.argv[2] ?? 1_000_000);
const REPEATS = Number(process.argv[3] ?? 5);

/** The webview bench's report (test/bench/webview.ts generate), as 1 MiB texts. */
export function reportTexts(n: number, columns: readonly string[] = REPORT_COLUMNS): string[] {
  const merchants = ['Demo Shop', 'Shop, Inc.', 'Acme', 'Zeta Ltd'];
  const types = ['sale', 'refund', 'chargeback'];
  const descs = ['Plain order', 'Two\r\nlines', 'He said "stop", then left', '<img src=x onerror=alert(1)>', 'Visa card payment'];
  const q = (v: string) => `"${v.replace(/"/g, '""')}"`;
  const out: string[] = [];
  let buf = columns.map(q).join(',') + '\r\n';
  let seed = 42;
  const rnd = () => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff;
  const p2 = (x: number) => String(x).padStart(2, '0');
  for (let i = 0; i < n; i++) {
    const d = 1 + Math.floor(rnd() * 28);
    const m = 1 + Math.floor(rnd() * 12);
    const created = `2025-${p2(m)}-${p2(d)} ${p2(Math.floor(rnd() * 24))}:${p2(Math.floor(rnd() * 60))}:${p2(Math.floor(rnd() * 60))}`;
    const amount = (rnd() * 10000).toFixed(3);
    const row = [merchants[i % 4], String(1000000 + i), `ORD-${i}`, created, amount, i % 3 ? 'USD' : 'EUR', types[i % 3], descs[i % 5]];
    buf += [...row, `${p2(d)}.${p2(m)}.2025`].map(q).join(',') + '\r\n';
    if (buf.length >= 1 << 20) {
      out.push(buf);
      buf = '';
    }
  }
  out.push(buf);
  return out;
}

async function main(): Promise<void> {
  const texts = reportTexts(ROWS);
  const cpu = () => process.cpuUsage().user / 1000 + process.cpuUsage().system / 1000;
  const timed = async <T>(what: () => Promise<T> | T): Promise<{ ms: number; cpu: number; value: T }> => {
    const c0 = cpu();
    const t0 = performance.now();
    const value = await what();
    return { ms: performance.now() - t0, cpu: cpu() - c0, value };
  };
  const results: Record<string, { ms: number; cpu: number }[]> = { load: [], sort: [], search: [], group: [] };
  const check: Record<string, number> = {};
  for (let rep = 0; rep < REPEATS; rep++) {
    const data = new Dataset();
    const l = await timed(() => {
      const reader = new CsvReader({ onHeader: (columns: string[]) => data.reset(columns), onPiece: (p: Piece) => data.addPiece(p) });
      for (const t of texts) reader.push(t);
      reader.end();
      data.finish();
    });
    results.load.push(l);
    const columns: string[] = data.columns;
    const amount = columns.indexOf('Amount');
    const yes = () => true;
    const s = await timed(() => data.view({ sorting: { column: amount, desc: false }, filters: new Map(), search: '' }, yes));
    results.sort.push(s);
    const f = await timed(() => data.view({ sorting: { column: amount, desc: false }, filters: new Map(), search: 'refund' }, yes));
    results.search.push(f);
    const plan = planQuery(columns, { groupBy: ['Currency'], by: 'day', count: true, sum: ['Amount'], min: [], max: [], avg: [] });
    if (!plan.ok) throw new Error(JSON.stringify(plan.problem));
    const g = await timed(() => groupRows(data.store, plan.plan, () => false));
    results.group.push(g);
    // What the answers were: a change that alters one shows here.
    const hash = (xs: ArrayLike<number> | null) => {
      let h = 0;
      for (let i = 0; xs && i < xs.length; i++) h = (Math.imul(h, 31) + xs[i]) | 0;
      return h;
    };
    check.sorted = hash(s.value);
    check.found = hash(f.value);
    check.groupOf = hash(g.value?.groupOf ?? null);
    const o = g.value?.outcome;
    check.outcome = hash(
      [
        ...JSON.stringify(
          {
            groups: o?.groups.slice().map((x) => [x.key, x.count, x.amounts.map((a) => [a.sum(), a.min(), a.max(), a.skipped])]),
            totals: o?.totals,
          },
          (_, v) => (typeof v === 'bigint' ? String(v) : v),
        ),
      ].map((c) => c.charCodeAt(0)),
    );
  }
  const med = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
  const line = Object.entries(results).map(
    ([k, v]) => `${k} ${med(v.map((x) => x.ms)).toFixed(0)} ms (cpu ${med(v.map((x) => x.cpu)).toFixed(0)})`,
  );
  console.log(
    JSON.stringify({ rows: ROWS, ...Object.fromEntries(Object.entries(results).map(([k, v]) => [k, med(v.map((x) => x.ms))])), check }),
  );
  console.log(line.join(' · '));
}

if (require.main === module)
  main().catch((err) => {
    console.error(err);
    process.exit(1);
  });
