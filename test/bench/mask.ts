import { laid, maskCardNumbers, maskText, terminalSafe, vet, vouched, type Vetted } from '../../src/core/output';
import { throughOutputBoundary } from '../../src/cli/boundary';
import { tableCell, tableLine } from '../../src/cli/output';
import { median } from './report';

// The output boundary's masking cost (issue 38): maskCardNumbers (the floor every cell, field and line
// passes) and maskText (free text) over a transactions report's cells, as `paygate query` keys and the
// table's shown rows see them, and over hostile text (card numbers in every script and separator,
// percent-encoded). Printed as nanoseconds per cell and per character; nothing here asserts a time.
// Then per report row (issue 38, mask values, not layouts): the row's cells vetted one by one (the cell
// path), against the row laid out as a text line and written through the CLI's floor (src/cli/boundary.ts),
// once as plain text the floor reads whole (before) and once laid out from vetted cells and vouched for,
// which the floor lets through (now); the ratios to the cell path are printed.
// `PAYGATE_BENCH_ROWS` sets the report's rows (default 200,000).

const ROWS = Number(process.env.PAYGATE_BENCH_ROWS ?? 200_000);
const RUNS = Number(process.env.PAYGATE_BENCH_RUNS ?? 5);

/** The cells of a report row shaped like test/bench/query.ts's. */
function cells(i: number): string[] {
  const cents = (i * 7919) % 1_000_000;
  return [
    'Demo Shop',
    String(10_000_000 + i),
    `ORD-${String(i).padStart(7, '0')}`,
    `2027-02-${String((i % 28) + 1).padStart(2, '0')} 10:${String(i % 60).padStart(2, '0')}:00`,
    `${Math.floor(cents / 1000)}.${String(cents % 1000).padStart(3, '0')}`,
    ['EUR', 'USD', 'GBP', 'JPY'][i % 4],
    'sale',
    `Gym membership, month ${i % 12}`,
    '24.11.2026',
  ];
}

const HOSTILE = [
  'paid with 4111\u200b1111\u200d1111\u20601111 and ４１１１１１１１１１１１１１１１',
  '٣٧٨٢٨٢٢٤٦٣١٠٠٠٥ d=%25284453331478932885%2529 5105\u00a01051\u2009 0510\u30005100',
  '28.12.2025 29.990 EUR 3f6109184411111111111111119750cf0aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa',
  'order 7bac2e02-8183-4276-9800-034019f2ba4b, 1234567890123456789012, 4012\u20138888\u20148888_1881',
];

function time(label: string, texts: readonly string[], mask: (s: string) => string): void {
  const chars = texts.reduce((n, t) => n + t.length, 0);
  const ms: number[] = [];
  let sink = 0;
  for (let r = 0; r < RUNS; r++) {
    const t0 = performance.now();
    for (const t of texts) sink += mask(t).length;
    ms.push(performance.now() - t0);
  }
  const m = median(ms);
  console.log(
    `${label.padEnd(40)} ${texts.length.toLocaleString('en-US').padStart(10)} texts  ${m.toFixed(1).padStart(8)} ms  ` +
      `${((m * 1e6) / texts.length).toFixed(0).padStart(5)} ns/text  ${((m * 1e6) / chars).toFixed(1).padStart(5)} ns/char  (${sink > 0 ? 'ok' : '-'})`,
  );
}

const reportCells: string[] = [];
for (let i = 0; i < ROWS; i++) for (const c of cells(i)) reportCells.push(c);
const reportLines: string[] = [];
for (let i = 0; i < ROWS / 10; i++) reportLines.push(cells(i).join('  '));
const hostile: string[] = [];
for (let i = 0; i < ROWS / 10; i++) hostile.push(HOSTILE[i % HOSTILE.length]);

/** A floor as a command's output has it, writing into a counter. */
function floor(): { write: (text: string) => void; written: () => number } {
  let n = 0;
  const { ctx } = throughOutputBoundary({ stdout: (t: string) => void (n += t.length), stderr: () => undefined });
  return { write: ctx.stdout, written: () => n };
}

const rows: string[][] = [];
for (let i = 0; i < ROWS / 10; i++) rows.push(cells(i));
const widths = cells(0).map(() => 30);
const plain = floor();
const vouchedFloor = floor();
const byRow: Record<string, (c: string[]) => number> = {
  'cells vetted (tableCell each)': (c) => c.map(tableCell).length,
  'line, plain text, floor reads it': (c) => (plain.write(`${c.map((v) => v.padEnd(30)).join('  ')}\n`), plain.written()),
  'line laid from vetted cells, floor reads it (before)': (c) => (plain.write(`${tableLine(c.map(tableCell), widths)}\n`), plain.written()),
  'line laid from vetted cells, vouched (now)': (c) => (
    vouchedFloor.write(vouched(laid`${tableLine(c.map(tableCell), widths)}\n`)),
    vouchedFloor.written()
  ),
  'layout alone (tableLine of vetted cells)': (c) => tableLine(c as Vetted[], widths).length,
  'floor alone on the laid line (terminalSafe)': (c) => terminalSafe(`${c.join('  ')}\n`).length,
  'cells by type (vet.date/amount/count/text)': (c) =>
    [
      vet.text(c[0]),
      vet.count(c[1]),
      vet.text(c[2]),
      vet.date(c[3]),
      vet.amount(c[4]),
      vet.text(c[5]),
      vet.text(c[6]),
      vet.text(c[7]),
      vet.date(c[8]),
    ].length,
};
// Interleaved: each round runs every variant once, so a burst of load elsewhere falls on all of them.
const samples: Record<string, number[]> = Object.fromEntries(Object.keys(byRow).map((k) => [k, []]));
let sink = 0;
for (let r = 0; r < RUNS; r++) {
  for (const [label, f] of Object.entries(byRow)) {
    const t0 = performance.now();
    for (const c of rows) sink += f(c);
    samples[label].push(performance.now() - t0);
  }
}
if (sink === 0) throw new Error('nothing written');
const perRow = Object.fromEntries(Object.entries(samples).map(([k, ms]) => [k, median(ms)]));
const reference = perRow['cells vetted (tableCell each)'];
console.log(
  `\nper report row, ${rows.length.toLocaleString('en-US')} rows, median of ${RUNS} interleaved rounds; ratio to the cell path (cells vetted):`,
);
for (const [label, ms] of Object.entries(perRow))
  console.log(
    `${label.padEnd(56)} ${((ms * 1e6) / rows.length).toFixed(0).padStart(6)} ns/row  ${(ms / reference).toFixed(2).padStart(6)}×`,
  );
console.log('');

time('maskCardNumbers, report cells', reportCells, (s) => maskCardNumbers(s));
time('maskCardNumbers, report rows as lines', reportLines, (s) => maskCardNumbers(s));
time('maskText, report cells', reportCells, (s) => maskText(s));
time('maskCardNumbers, hostile text', hostile, (s) => maskCardNumbers(s));
