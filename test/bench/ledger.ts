import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync, appendFileSync } from 'node:fs';
import { tmpdir, cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { guardedSend, Ledger, type NewSubmission } from '../../src/core/ledger';
import { shardName } from '../../src/core/ledger/ledgerIndex';
import { median, writeReadmeSection } from './report';

// `npm run bench:ledger`: the submission ledger at 0, 100k and 1M records. Each size is measured in its own
// process (so RSS is its own): a submit's guard and ledger writes (a new batch, the request itself left
// out: a stand-in send), median of 7; `history --limit 50` (read backwards), median of 7; peak RSS. The
// ledger is written as a long-used one would be: 64 MiB archives, the live file, the guard's index.

const SIZES = [0, 100_000, 1_000_000];

function entry(i: number, tag: string): NewSubmission {
  return {
    face: 'cli',
    pid: 4242,
    host: 'bench',
    environment: 'sandbox',
    production: false,
    endpointId: '1001',
    endpoint: 'https://sandbox.example/paynet/api/v4/create-recurring-payments/1001/',
    file: `/home/merchant/batches/${tag}-${i}.rpcsv`,
    rowCount: 1 + (i % 50),
    contentHash: createHash('sha256').update(`${tag}-${i}`).digest('hex'),
    signatureMethod: 'RSA-SHA256',
  };
}

function generate(dir: string, n: number): void {
  mkdirSync(join(dir, 'index'), { recursive: true });
  const shards = new Map<string, string[]>();
  let live = '';
  let archive = 0;
  const flushShards = () => {
    for (const [name, lines] of shards) appendFileSync(join(dir, 'index', name), lines.join(''));
    shards.clear();
  };
  for (let i = 0; i < n; i++) {
    const e = entry(i, 'old');
    const id = `00000000-0000-4000-8000-${i.toString().padStart(12, '0')}`;
    const time = new Date(Date.UTC(2020, 0, 1) + i * 60_000).toISOString();
    const begin = `\n${JSON.stringify({ ledger: 1, op: 'begin', id, record: { ...e, id, time, state: 'sending', recurringPaymentIds: [], serialNumbers: [], statuses: [] } })}\n`;
    const complete = `\n${JSON.stringify({ ledger: 1, op: 'complete', id, contentHash: e.contentHash, completedAt: time, completion: { outcome: 'accepted', httpStatus: 200, recurringPaymentIds: [String(i)], serialNumbers: [`s-${i}`], statuses: ['active'] } })}\n`;
    live += begin + complete;
    const shard = shardName(e.contentHash);
    let list = shards.get(shard);
    if (!list) shards.set(shard, (list = []));
    list.push(begin, complete);
    if (live.length > 64 * 1024 * 1024) {
      writeFileSync(join(dir, `ledger-2020-01-01T00-00-00-${String(archive++).padStart(3, '0')}Z.jsonl`), live);
      live = '';
      flushShards();
    }
  }
  writeFileSync(join(dir, 'ledger.jsonl'), live);
  flushShards();
  writeFileSync(join(dir, 'index', 'complete'), 'bench\n');
}

async function measure(dir: string): Promise<void> {
  const ledger = new Ledger(dir);
  const submit: number[] = [];
  const history: number[] = [];
  for (let i = 0; i < 7; i++) {
    const t0 = performance.now();
    const r = await guardedSend({
      ledger,
      entry: entry(i, `new-${Date.now()}`),
      send: async () => 'sent',
      completion: () => ({ outcome: 'accepted' }),
    });
    submit.push(performance.now() - t0);
    if (r.status !== 'sent') throw new Error(`bench submit ${i}: ${r.status}`);
    const t1 = performance.now();
    await ledger.recent(50);
    history.push(performance.now() - t1);
  }
  console.log(JSON.stringify({ submit: median(submit), history: median(history), rss: process.resourceUsage().maxRSS / 1024 }));
}

function main(): void {
  if (process.argv[2] === '--measure') {
    void measure(process.argv[3]);
    return;
  }
  const tsx = pathToFileURL(require.resolve('tsx')).href;
  const rows: { n: number; submit: number; history: number; rss: number }[] = [];
  for (const n of SIZES) {
    const dir = mkdtempSync(join(tmpdir(), 'paygate-bench-ledger-'));
    try {
      generate(dir, n);
      const out = execFileSync(process.execPath, ['--import', tsx, __filename, '--measure', dir], { encoding: 'utf8', timeout: 600_000 });
      const r = JSON.parse(out.trim().split('\n').pop()!) as { submit: number; history: number; rss: number };
      rows.push({ n, ...r });
      console.log(
        `${n} records: submit ${r.submit.toFixed(1)} ms, history --limit 50 ${r.history.toFixed(1)} ms, RSS ${r.rss.toFixed(0)} MB`,
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  const empty = rows[0].submit;
  const big = rows[rows.length - 1];
  const table = [
    `Submission ledger, node ${process.version}, ${cpus().length} cores, load average ${loadavg()[0].toFixed(1)} when the run ended; each size in its own process. "submit" is the guard and the ledger's fsynced writes of a new batch (the request left out), "history" is \`paygate history --limit 50\`'s read; medians of 7. \`npm run bench:ledger\` rewrites this table.`,
    '',
    '| records | submit ms | history --limit 50 ms | peak RSS MB |',
    '|---:|---:|---:|---:|',
    ...rows.map((r) => `| ${r.n.toLocaleString('en-US')} | ${r.submit.toFixed(1)} | ${r.history.toFixed(1)} | ${r.rss.toFixed(0)} |`),
    '',
    `Target: submit at 1,000,000 records within 1.5× of an empty ledger: ${(big.submit / empty).toFixed(2)}×.`,
  ].join('\n');
  if (process.env.PAYGATE_BENCH_NO_README !== '1') writeReadmeSection('ledger', table);
}

if (process.argv[2] === '--gen') generate(process.argv[3], Number(process.argv[4]));
else main();
