import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createReadStream, createWriteStream, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { buildSync } from 'esbuild';
import { writeReadmeSection } from './report';
import { atMost, targetLines, type Target } from './table';

// `paygate report` on a report of 1,000,000 rows (about 100 MB), in each format, to standard output (a
// file) and with --out, and the editor's host running the same report: wall time from start to exit and
// the process's peak RSS. A loopback server sends
// the CSV from disk as a transactions report would come. The reference row is node itself copying the
// same answer from the server to a file, measured in the same run. Nothing here asserts a time.

const ROOT = join(__dirname, '..', '..');
const CLI = join(ROOT, 'dist', 'cli.js');
const WORK = join(ROOT, 'out', 'bench', 'report');
const ROWS = 1_000_000;

/** A row shaped like the gateway's transactions report (about 100 bytes). */
function row(i: number): string {
  const day = String((i % 28) + 1).padStart(2, '0');
  return `"Demo Shop","${10_000_000 + i}","ORD-${String(i).padStart(7, '0')}","${day}.02.2027 10:${String(i % 60).padStart(2, '0')}:00","${(i % 997) + 1}.000","EUR","sale","Gym membership, month ${i % 12}","24.11.2026"`;
}

async function writeReport(file: string): Promise<number> {
  const out = createWriteStream(file);
  out.write(
    '"Merchant_Name","Transaction_id","Merchant_OID","Created_date","Amount","Currency","Transaction_type","Order_description","Date_of_report"\r\n',
  );
  for (let i = 0; i < ROWS; i += 10_000) {
    const piece: string[] = [];
    for (let j = i; j < Math.min(ROWS, i + 10_000); j++) piece.push(`${row(j)}\r\n`);
    if (!out.write(piece.join(''))) await once(out, 'drain');
  }
  out.end();
  await once(out, 'finish');
  return statSync(file).size;
}

// Loaded into the measured process: its peak RSS, written where the bench reads it when it exits.
const PRELOAD = `const fs = require('node:fs');
process.on('exit', () => fs.writeFileSync(process.env.PAYGATE_BENCH_RSS, String(process.resourceUsage().maxRSS * 1024)));
`;

interface Measure {
  ms: number;
  peak: number;
  code: number;
}

async function measure(args: string[], stdoutFile: string): Promise<Measure> {
  const rssFile = join(WORK, 'rss');
  rmSync(rssFile, { force: true });
  const out = createWriteStream(stdoutFile);
  await once(out, 'open');
  const t0 = performance.now();
  const child = spawn(process.execPath, ['--require', join(WORK, 'preload.js'), ...args], {
    cwd: WORK,
    env: { ...process.env, PAYGATE_CONSUMER_SECRET: 's', PAYGATE_BENCH_RSS: rssFile },
    stdio: ['ignore', out, 'inherit'],
  });
  const [code] = (await once(child, 'exit')) as [number];
  const ms = performance.now() - t0;
  out.close();
  return { ms, peak: Number(readFileSync(rssFile, 'utf8')), code };
}

const mb = (bytes: number) => (bytes / 1e6).toFixed(0);

async function run(): Promise<void> {
  mkdirSync(WORK, { recursive: true });
  writeFileSync(join(WORK, 'preload.js'), PRELOAD);
  const answer = join(WORK, 'answer.csv');
  const bytes = await writeReport(answer);
  const srv = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(200, { 'Content-Type': 'text/csv', 'Content-Length': bytes });
      createReadStream(answer).pipe(res);
    });
  });
  srv.listen(0, '127.0.0.1');
  await once(srv, 'listening');
  const url = `http://127.0.0.1:${(srv.address() as AddressInfo).port}`;
  const timeoutSeconds = 60;
  writeFileSync(
    join(WORK, 'paygate.config.json'),
    JSON.stringify({
      environments: [{ name: 'bench', baseUrl: url, reportBaseUrl: url, endpointId: '1', consumerKey: 'k' }],
      environment: 'bench',
      requestTimeoutSeconds: timeoutSeconds,
    }),
  );
  const template = join(ROOT, 'examples', 'transactions.report.json');
  // Default flags but the ones a user gives for this: the answer fits the default limit (256 MiB).
  const base = [CLI, 'report', template, '--config', 'paygate.config.json'];
  const targets: Target[] = [];
  const lines = [
    `\`paygate report\` of ${ROWS.toLocaleString('en-US')} rows (${mb(bytes)} MB of CSV) from a loopback server, with the default answer limit: time from start to exit and the process's peak RSS; standard output goes to a file. The deadline (\`requestTimeoutSeconds\`) was ${timeoutSeconds} s. Reference: node piping the same answer to a file, same run. \`npm run bench:report\` rewrites this table.`,
    '',
    '| format | output | exit | time ms | peak RSS MB | time ÷ reference |',
    '|---|---|---:|---:|---:|---:|',
  ];
  console.log(lines[0]);
  const reference = await measure(
    ['-e', `require('node:http').request('${url}', { method: 'POST' }, (r) => r.pipe(process.stdout)).end()`],
    join(WORK, 'ref.out'),
  );
  const push = (format: string, output: string, m: Measure) => {
    const line = `| ${format} | ${output} | ${m.code} | ${m.ms.toFixed(0)} | ${mb(m.peak)} | ${(m.ms / reference.ms).toFixed(1)}× |`;
    console.log(line);
    lines.push(line);
    if (format !== 'reference') targets.push(atMost(`peak RSS, ${format} to ${output.split(':')[0]}`, m.peak / 1e6, 300, 'MB', 0));
  };
  push('reference', 'node piping the answer', reference);
  for (const format of ['text', 'json', 'csv']) {
    push(format, 'standard output', await measure([...base, '--format', format], join(WORK, `stdout.${format}`)));
    push(format, '`--out`', await measure([...base, '--format', format, '--out', `out.${format}`], join(WORK, `said.${format}`)));
    rmSync(join(WORK, `stdout.${format}`), { force: true });
    rmSync(join(WORK, `out.${format}`), { force: true });
  }
  // The editor's host, Run Report Template on the same answer (report-host.ts says what each row does).
  const host = join(WORK, 'report-host.js');
  buildSync({
    entryPoints: [join(__dirname, 'report-host.ts')],
    bundle: true,
    platform: 'node',
    // As esbuild.js builds the product: jsonc-parser's UMD build requires its parts at run time.
    mainFields: ['module', 'main'],
    outfile: host,
    logLevel: 'warning',
  });
  const hostRun = (mode: string) => measure([host, mode, url, template, join(WORK, 'host.report')], join(WORK, `host.${mode}`));
  push('editor host', 'Run Report Template: streamed to a file, read to the panel in 1 MiB pieces', await hostRun('file'));
  const before = await hostRun('memory');
  const line = `| editor host, before | the answer held whole and read into rows (round 3; a lower bound) | ${before.code} | ${before.ms.toFixed(0)} | ${mb(before.peak)} | ${(before.ms / reference.ms).toFixed(1)}× |`;
  console.log(line);
  lines.push(line);
  srv.closeAllConnections();
  srv.close();
  rmSync(WORK, { recursive: true, force: true });
  lines.push('', targetLines(targets).join('\n'));
  if (!process.env.PAYGATE_BENCH_NO_README) writeReadmeSection('report', lines.join('\n'));
}

run().catch((err) => {
  console.error(err);
  process.exit(1);
});
