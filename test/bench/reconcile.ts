import { spawnSync } from 'node:child_process';
import { createReadStream, createWriteStream, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TextDecoder } from 'node:util';
import { ReportRecordReader } from '../../src/core/csv/reportRecords';
import { parseGatewayDate } from '../../src/core/dates';
import { batchRows, ReportReconciliation } from '../../src/core/reconcile';
import { writeReadmeSection } from './report';

// Reconciliation at scale: 100,000 batch rows (monthly, ten charges each) against a 1,000,000-row report,
// streamed from disk. Each measurement runs in a fresh process so its peak RSS is its own; the reference
// is the same report only read by the one report reader, in the same run.

const ROWS = Number(process.env.BENCH_RECONCILE_ROWS ?? 100_000);
const CHARGES = 10;
const HEADER = 'client-orderid;rp_card_type;order_desc;period;interval;start-date;max-repeats-number;amount;currency';
const REPORT_HEADER =
  '"Merchant_Name","Transaction_id","Merchant_OID","Created_date","Amount","Currency","Transaction_type","Order_description","Date_of_report"';

async function child(mode: string, batchFile: string, reportFile: string): Promise<void> {
  const t0 = performance.now();
  const decoder = new TextDecoder();
  let sink: { push(t: string): void };
  let done: () => unknown;
  if (mode === 'read') {
    let n = 0;
    const reader = new ReportRecordReader({ delimiter: ',', onRecord: () => n++ });
    sink = reader;
    done = () => (reader.end(), n);
  } else {
    const rows = batchRows('bench.rpcsv', readFileSync(batchFile, 'utf8'));
    const r = new ReportReconciliation(rows, { today: parseGatewayDate('01.01.2027')!, delimiter: ',' });
    sink = r;
    done = () => {
      const result = r.end();
      if ('error' in result || result.summary.ok !== ROWS)
        throw new Error(`unexpected: ${JSON.stringify('error' in result ? result : result.summary)}`);
      return result.summary.ok;
    };
  }
  for await (const chunk of createReadStream(reportFile, { highWaterMark: 1 << 20 }))
    sink.push(decoder.decode(chunk as Buffer, { stream: true }));
  done();
  const ms = performance.now() - t0;
  process.stdout.write(JSON.stringify({ ms, rssMb: process.resourceUsage().maxRSS / 1024 }));
}

async function write(file: string, lines: () => Generator<string>): Promise<void> {
  const out = createWriteStream(file);
  let buf: string[] = [];
  for (const l of lines()) {
    buf.push(l);
    if (buf.length >= 10_000) {
      if (!out.write(buf.join(''))) await new Promise<void>((r) => out.once('drain', () => r()));
      buf = [];
    }
  }
  out.end(buf.join(''));
  await new Promise<void>((r) => out.once('finish', () => r()));
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'paygate-bench-reconcile-'));
  try {
    const batch = join(dir, 'batch.rpcsv');
    const report = join(dir, 'report.csv');
    writeFileSync(
      batch,
      [HEADER, ...Array.from({ length: ROWS }, (_, i) => `ORD-${i};SRC;Plan;month;1;01.01.2027;${CHARGES};12.50;EUR`)].join('\r\n') +
        '\r\n',
    );
    await write(report, function* () {
      yield `${REPORT_HEADER}\r\n`;
      let tx = 1;
      for (let m = 1; m <= CHARGES; m++)
        for (let i = 0; i < ROWS; i++)
          yield `"Demo","${tx++}","ORD-${i}","2027-${String(m).padStart(2, '0')}-01 09:00:00","12.500","EUR","Sale approved","Plan","01.10.2027"\r\n`;
    });
    const measure = (mode: string) => {
      const runs = [0, 1, 2].map(() => {
        const r = spawnSync(process.execPath, ['--import', 'tsx', __filename, '--child', mode, batch, report], { encoding: 'utf8' });
        if (r.status !== 0) throw new Error(r.stderr);
        return JSON.parse(r.stdout) as { ms: number; rssMb: number };
      });
      runs.sort((a, b) => a.ms - b.ms);
      return runs[1];
    };
    const read = measure('read');
    const rec = measure('reconcile');
    const mb = (readFileSync(report).length / 1e6).toFixed(0);
    const table = [
      `Median of 3 fresh processes on this machine, Node ${process.version}; \`npm run bench:reconcile\` rewrites this table.`,
      '',
      '| | batch rows | report rows | report MB | ms | peak RSS MB | ratio to reading |',
      '|---|---:|---:|---:|---:|---:|---:|',
      `| read the report only (reference) | | ${(ROWS * CHARGES).toLocaleString('en')} | ${mb} | ${read.ms.toFixed(0)} | ${read.rssMb.toFixed(0)} | 1.00× |`,
      `| \`paygate reconcile\` core, streamed | ${ROWS.toLocaleString('en')} | ${(ROWS * CHARGES).toLocaleString('en')} | ${mb} | ${rec.ms.toFixed(0)} | ${rec.rssMb.toFixed(0)} | ${(rec.ms / read.ms).toFixed(2)}× |`,
    ].join('\n');
    console.log(table);
    if (ROWS === 100_000) writeReadmeSection('reconcile', table);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[2] === '--child') void child(process.argv[3], process.argv[4], process.argv[5]);
else void main();
