import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { guardedSend, Ledger } from '../../src/core/ledger';
import { readBatch } from '../../src/core/rules/batch';
import { benchLedgerLint } from './ledgerLint';
import { benchEntry, writeHistory } from './ledgerHistory';
import { median, writeReadmeSection } from './report';
import { atMost, machineHeader, targetLines } from './table';

// `npm run bench:ledger`: the submission ledger at 0, 100k and 1M records (one row each: a million rows in
// the row index). Each size is measured in its own process (so RSS is its own): a submit's guards (the
// same content, and its 3 rows) and ledger writes (row keys, "sending", the race check, the completion)
// of a new batch, the request itself left out (a stand-in send); `history --limit 50` (read backwards);
// peak RSS. The three sizes take turns, three rounds of 7 submits each, and each figure is the median of
// its 21: fsync's time swings with what else the disk does, and turns spread that over the sizes alike.
// Each submit's CPU time (process.cpuUsage, its threads included) is taken beside its wall time: on a
// machine others load, the CPU ratio is the one that holds. Each history row has its payer entry in the
// index, as a send leaves it (ledgerHistory.ts), so the submit's same-payer lookup reads real shards.
// Then lint with the guard on a 100k-row batch against a 1M-row history (ledgerLint.ts).

/** PAYGATE_BENCH_LEDGER_SCALE=N divides every size by N: a quick run that proves the bench works (no README then). */
const SCALE = Math.max(1, Number(process.env.PAYGATE_BENCH_LEDGER_SCALE ?? 1) || 1);
const SIZES = [0, 100_000, 1_000_000].map((n) => n / SCALE);
const HEADER = 'client-orderid;rp_card_type;credit-card-number;expire-month;expire-year;amount;currency;card-printed-name';

/** A card number of its own for each new row (Luhn-valid): new payers, which the same-payer lookup does not find. */
function newCard(n: number): string {
  const body = `601100${String(n % 1e9).padStart(9, '0')}`;
  let sum = 0;
  for (let k = 0; k < body.length; k++) {
    const d = Number(body[body.length - 1 - k]) * (k % 2 === 0 ? 2 : 1);
    sum += d > 9 ? d - 9 : d;
  }
  return `${body}${(10 - (sum % 10)) % 10}`;
}

/** A new 3-row batch: the rows a submit guards and records, each a new payer. */
function newBatch(i: number) {
  const at = Date.now() % 1e6;
  const rows = [0, 1, 2].map((r) => `NEW-${i}-${Date.now()}-${r};DST;${newCard(at * 30 + i * 3 + r)};05;2031;10.00;EUR;PARTNER LTD`);
  return readBatch([HEADER, ...rows].join('\r\n') + '\r\n');
}

async function measure(dir: string): Promise<void> {
  const ledger = new Ledger(dir);
  const submit: number[] = [];
  const submitCpu: number[] = [];
  const history: number[] = [];
  for (let i = 0; i < 7; i++) {
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    const r = await guardedSend({
      ledger,
      entry: benchEntry(i, `new-${Date.now()}`, 3),
      batch: newBatch(i),
      send: async () => 'sent',
      completion: () => ({ outcome: 'accepted' }),
    });
    submit.push(performance.now() - t0);
    const c = process.cpuUsage(c0);
    submitCpu.push((c.user + c.system) / 1000);
    if (r.status !== 'sent') throw new Error(`bench submit ${i}: ${r.status}`);
    const t1 = performance.now();
    await ledger.recent(50);
    history.push(performance.now() - t1);
  }
  console.log(JSON.stringify({ submit, submitCpu, history, rss: process.resourceUsage().maxRSS / 1024 }));
}

const ROUNDS = 3;

function benchSubmit(tsx: string): string {
  const dirs = SIZES.map((n) => {
    const dir = mkdtempSync(join(tmpdir(), 'paygate-bench-ledger-'));
    writeHistory(dir, n, (i) => [`OLD-${i}`]);
    return dir;
  });
  // The histories' gigabyte on disk before the first measure: else the first fsyncs of the large sizes wait
  // for the writeback of the bench's own setup, not for the ledger's writes.
  execFileSync('sync');
  const samples = SIZES.map(() => ({ submit: [] as number[], submitCpu: [] as number[], history: [] as number[], rss: 0 }));
  try {
    for (let round = 0; round < ROUNDS; round++) {
      SIZES.forEach((n, k) => {
        const out = execFileSync(process.execPath, ['--import', tsx, __filename, '--measure', dirs[k]], {
          encoding: 'utf8',
          timeout: 600_000,
        });
        const r = JSON.parse(out.trim().split('\n').pop()!) as { submit: number[]; submitCpu: number[]; history: number[]; rss: number };
        for (const ms of r.submit) samples[k].submit.push(ms);
        for (const ms of r.submitCpu) samples[k].submitCpu.push(ms);
        for (const ms of r.history) samples[k].history.push(ms);
        samples[k].rss = Math.max(samples[k].rss, r.rss);
        console.log(`round ${round + 1}, ${n} records: submit ${median(r.submit).toFixed(1)} ms`);
      });
    }
  } finally {
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  }
  const rows = SIZES.map((n, k) => ({
    n,
    submit: median(samples[k].submit),
    cpu: median(samples[k].submitCpu),
    history: median(samples[k].history),
    rss: samples[k].rss,
  }));
  const empty = rows[0];
  const big = rows[rows.length - 1];
  return [
    `Submission ledger: each size in its own process, each record one row and its payer entry (a million rows and a million payers in the row index at a million records). "submit" is the guards (the same content; already-sent and same-payer of each of the batch's 3 rows) and the ledger's fsynced writes of a new batch (its row keys, "sending", the race check, the completion; the request left out), "history" is \`paygate history --limit 50\`'s read; the sizes take turns, three rounds of 7, medians of the 21, wall time and CPU time (user + system, \`process.cpuUsage\`: the figure that holds on a machine others load). The reference is the empty ledger, measured in the same run. \`npm run bench:ledger\` rewrites this table.`,
    '',
    '| records | submit ms | submit CPU ms | history --limit 50 ms | peak RSS MB |',
    '|---:|---:|---:|---:|---:|',
    ...rows.map(
      (r) =>
        `| ${r.n.toLocaleString('en-US')} | ${r.submit.toFixed(1)} | ${r.cpu.toFixed(1)} | ${r.history.toFixed(1)} | ${r.rss.toFixed(0)} |`,
    ),
    '',
    ...targetLines([
      atMost('submit at 1,000,000 records ÷ an empty ledger, CPU time', big.cpu / empty.cpu, 1.5),
      atMost('submit at 1,000,000 records ÷ an empty ledger, wall time', big.submit / empty.submit, 1.5),
    ]),
  ].join('\n');
}

function main(): void {
  if (process.argv[2] === '--measure') {
    void measure(process.argv[3]);
    return;
  }
  const tsx = pathToFileURL(require.resolve('tsx')).href;
  console.log(machineHeader());
  const submit = benchSubmit(tsx);
  const lint = benchLedgerLint();
  if (process.env.PAYGATE_BENCH_NO_README !== '1' && SCALE === 1) {
    writeReadmeSection('ledger', submit);
    writeReadmeSection('ledger-lint', lint);
  }
}

main();
