import { createReadStream, readFileSync } from 'node:fs';
import { parseReportTemplate, runCustomReport } from '../../src/core/gateway';
import { runCustomReportTemplate } from '../../src/core/report/runReport';

// What the extension host does with Run Report Template, without VS Code around it, so the bench can take
// its peak RSS in a process of its own (custom-report.ts). `file`: today's path, the one the terminal
// takes too: the report use case streams the answer into a file, and the results panel reads it back in
// 1 MiB pieces, each copied into a Uint8Array of its own for postMessage (results/stream.ts,
// streamUriBytes, its file branch, repeated here because that module needs the editor). `memory`: the
// path before (round 3), the answer held whole and read into rows, before any message was built: a lower
// bound of what it cost.

async function main(): Promise<void> {
  const [mode, url, templateFile, file] = process.argv.slice(2);
  const environment = { name: 'bench', baseUrl: url, reportBaseUrl: url, endpointId: '1', consumerKey: 'k', production: false };
  const credentials = { signatureMethod: 'HMAC-SHA1' as const, consumerKey: 'k', consumerSecret: 's' };
  const text = readFileSync(templateFile, 'utf8');
  if (mode === 'memory') {
    const parsed = parseReportTemplate(text);
    if (!parsed.ok) throw new Error('the template is not valid');
    const outcome = await runCustomReport({ environment, credentials, template: parsed.template, timeoutMs: 120_000 });
    if (outcome.outcome !== 'report' || outcome.format !== 'csv') throw new Error(`no CSV report: ${outcome.outcome}`);
    process.stdout.write(`${outcome.rows.length} rows\n`);
    return;
  }
  const run = await runCustomReportTemplate(text, {
    file,
    target: async () => ({ ok: true, value: { environment, credentials, timeoutMs: 120_000 } }),
  });
  if (run.status !== 'ran' || !run.saved.saved || run.saved.format !== 'csv') throw new Error(`no CSV report: ${run.status}`);
  let bytes = 0;
  for await (const chunk of createReadStream(file, { highWaterMark: 1 << 20 })) bytes += new Uint8Array(chunk as Buffer).length;
  process.stdout.write(`${run.saved.rows} rows, ${bytes} bytes streamed\n`);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
