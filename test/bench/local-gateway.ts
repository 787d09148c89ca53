// `npm run bench:gateway`: the local gateway's store and clock under load, as ratios to a reference
// measured in the same run (never as timed assertions in tests).
//  1. a 1-row create on an empty state (the reference), then after a 100,000-row create: with the
//     journal the ratio stays near 1 (the whole state is not rewritten per request);
//  2. a restart on that state (snapshot + journal replay);
//  3. 30,000 daily payments advanced 3660 days again and again: each advance stops at its charge cap,
//     and the whole stops when the state directory holds MAX_STORED_CHARGES; peak RSS and memory per charge.

import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { startLocalGateway, type AdvanceSummary, type LocalGateway } from '../../src/local-gateway';
import { admin, batch, postCreate, START } from '../fixtures/local-gateway/helpers';

const MiB = 1024 * 1024;
const rssMiB = () => (process.memoryUsage().rss / MiB).toFixed(0);
const peakMiB = () => (process.resourceUsage().maxRSS / 1024).toFixed(0);

async function timeMs<T>(fn: () => Promise<T>): Promise<[number, T]> {
  const t = process.hrtime.bigint();
  const r = await fn();
  return [Number(process.hrtime.bigint() - t) / 1e6, r];
}

async function medianCreate(gw: LocalGateway, n: number, tag: string): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < n; i++) {
    const [ms, a] = await timeMs(() => postCreate(gw, batch([{ 'client-orderid': `${tag}-${i}` }])));
    if (a.status !== 200) throw new Error(`create failed: ${a.status} ${a.text}`);
    times.push(ms);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(n / 2)];
}

function dirSize(dir: string): string {
  return fs
    .readdirSync(dir)
    .map((f) => `${f} ${(fs.statSync(path.join(dir, f)).size / MiB).toFixed(1)} MiB`)
    .filter((s) => /state|journal/.test(s))
    .join(', ');
}

async function main(): Promise<void> {
  const rows = Number(process.env.BENCH_ROWS ?? 100_000);
  const daily = Number(process.env.BENCH_DAILY ?? 30_000);
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'paygate-bench-gw-'));
  try {
    // 3 first, so the peak RSS is the clock's: 30,000 daily payments, advanced until the clock reaches
    // ten years or the state directory is full (MAX_STORED_CHARGES).
    const dailyText = batch(
      Array.from({ length: daily }, (_, i) => ({
        'client-orderid': `DAY-${i}`,
        'start-date': '01.02.2027',
        period: 'day',
        interval: '1',
        'max-repeats-number': '',
      })),
    );
    const clockDir = path.join(root, 'clock');
    let gw = await startLocalGateway({
      stateDir: clockDir,
      port: 0,
      initialDate: START,
      maxBodyBytes: 256 * MiB,
      maxPayloadBytes: 256 * MiB,
    });
    const c = await postCreate(gw, dailyText);
    if (c.status !== 200) throw new Error(`daily create failed: ${c.status}`);
    const rssBefore = rssMiB();
    let total = 0;
    let advances = 0;
    // The admin endpoint's answer: the summary without the callbacks themselves.
    let last: Omit<AdvanceSummary, 'callbacks'> | undefined;
    const [advMs] = await timeMs(async () => {
      for (let i = 0; i < 100; i++) {
        const answer: Omit<AdvanceSummary, 'callbacks'> = (await admin(gw, 'POST', '/_local/advance?days=3660')).json;
        last = answer;
        advances++;
        total += answer.chargeCount;
        if (!answer.truncated || answer.chargeCount === 0) break;
      }
    });
    console.log(
      `clock: ${daily} daily payments, advance 3660 days repeated ${advances}x: ${total} charges in ${advMs.toFixed(0)} ms, clock ${START.day}.${START.month}.${START.year} -> ${last?.today}; last: ${last?.truncated?.reason ?? 'done'}`,
    );
    console.log(
      `clock: RSS ${rssBefore} MiB before, ${rssMiB()} MiB after, peak ${peakMiB()} MiB (${(((Number(rssMiB()) - Number(rssBefore)) * 1024) / (total / 1000)).toFixed(0)} KiB per 1000 charges kept); files: ${dirSize(clockDir)}`,
    );
    await gw.close();

    // 1 + 2: the store.
    const dir = path.join(root, 'store');
    // Built first: a keep-alive connection left idle while a large batch is built may be closed under the request.
    const bigText = batch(Array.from({ length: rows }, (_, i) => ({ 'client-orderid': `BIG-${i}`, 'start-date': '15.02.2027' })));
    gw = await startLocalGateway({ stateDir: dir, port: 0, initialDate: START, maxBodyBytes: 256 * MiB, maxPayloadBytes: 256 * MiB });
    await medianCreate(gw, 5, 'WARM'); // JIT and connection warm-up, not measured
    const reference = await medianCreate(gw, 21, 'REF');
    const [bigMs, a] = await timeMs(() => postCreate(gw, bigText));
    if (a.status !== 200) throw new Error(`big create failed: ${a.status} ${a.text.slice(0, 200)}`);
    const after = await medianCreate(gw, 21, 'AFTER');
    console.log(`store: 1-row create ${reference.toFixed(1)} ms on an empty state (reference)`);
    console.log(
      `store: ${rows}-row create ${bigMs.toFixed(0)} ms = ${(bigMs / reference).toFixed(0)}x the reference; files: ${dirSize(dir)}`,
    );
    console.log(`store: 1-row create after it ${after.toFixed(1)} ms = ${(after / reference).toFixed(2)}x the reference`);
    await gw.close();
    const [restartMs, gw2] = await timeMs(() => startLocalGateway({ stateDir: dir, port: 0 }));
    gw = gw2;
    console.log(
      `store: restart (snapshot + journal replay) ${restartMs.toFixed(0)} ms = ${(restartMs / reference).toFixed(0)}x the reference; ${gw.payments().length} payments`,
    );
    await gw.close();
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});
