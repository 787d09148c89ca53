// The person-style run: what someone does in the editor with the example batches, driven through the
// keyboard and mouse in headless Chromium, with screenshots in test-results/. Every step drives a feature
// the manifest declares: a step that cannot do what it drives (the feature missing from the manifest, no
// quick fix offered, no "Fix all" entry) fails the run; only the steps after a failed one that build on it
// are skipped. Run alone with `npm run test:e2e:person`; `npm run test:e2e` runs this file as a process of
// its own beside the integration suite (run.ts), which reads its closing `N passed, N failed` line.
// Its parts, in the order they run: personLint, personSubmit, personReport, personFirstHour, personLedger,
// personResend (with personBigBatch), personCallbacks; what they share is in personRun.ts.
import * as fs from 'node:fs';
import { spawn } from 'node:child_process';
import * as os from 'node:os';
import * as path from 'node:path';
import { launchBrowser } from './browser';
import { startCodeServer } from './codeServer';
import { ensureCodeServer, ensureSystemTools } from './install';
import { guardRun, onCleanup } from './processes';
import { writeBigBatch } from './personBigBatch';
import { runTeamPersonStyle } from './personTeam';
import * as wb from './workbench';
import { ownPayers } from '../fixtures/ledger/payers';
import { declared, ROOT, slug, took, type Manifest, type PersonRun, type StepCounts } from './personRun';
import { lintSteps } from './personLint';
import { submitSteps } from './personSubmit';
import { reportSteps } from './personReport';
import { firstHourSteps } from './personFirstHour';
import { ledgerSteps } from './personLedger';
import { resendSteps } from './personResend';
import { callbackSteps } from './personCallbacks';

export type { StepCounts } from './personRun';

export async function runPersonStyle(o: { entry: string; node?: string; resultsDir: string }): Promise<StepCounts> {
  const counts: StepCounts = { passed: 0, failed: 0, skipped: 0 };
  const manifest = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as Manifest;
  const shots = path.join(o.resultsDir, 'person');
  fs.rmSync(shots, { recursive: true, force: true });
  fs.mkdirSync(shots, { recursive: true });

  // A copy of examples/: the quick fix edits the file.
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'paygate-person-'));
  onCleanup('person scratch', () => fs.rmSync(scratch, { recursive: true, force: true }));
  const workspace = path.join(scratch, 'examples');
  fs.cpSync(path.join(ROOT, 'examples'), workspace, { recursive: true });
  // Examples point at ../schemas/ by relative $schema; keep that path valid beside the copy.
  if (fs.existsSync(path.join(ROOT, 'schemas'))) fs.cpSync(path.join(ROOT, 'schemas'), path.join(scratch, 'schemas'), { recursive: true });

  // Templates the run's steps open, written before the editor starts so that Quick Open has them indexed:
  // the example as a PDF report, and a template a merchant got wrong in several ways at once.
  const csvTemplate = path.join(workspace, 'transactions.report.json');
  if (fs.existsSync(csvTemplate)) {
    const template = JSON.parse(fs.readFileSync(csvTemplate, 'utf8')) as Record<string, unknown>;
    delete template.$schema;
    const pdfTemplate = { ...template, reportName: 'Transactions PDF', reportFormat: 'PDF' };
    fs.writeFileSync(path.join(workspace, 'transactions-pdf.report.json'), JSON.stringify(pdfTemplate, null, 2));
    // And a template with several problems at once: no reportName, a format the gateway does not serve,
    // a currency filter that can never match.
    const bad: Record<string, unknown> = { ...template, reportFormat: 'XLS' };
    delete bad.reportName;
    bad.filters = { ...(template.filters as Record<string, unknown>), currencies: ['eur'] };
    fs.writeFileSync(path.join(workspace, 'broken.report.json'), `${JSON.stringify(bad, null, 2)}\n`);
  }

  // A batch of its own for the already-sent steps (sent, then re-exported on disk with its rows reordered,
  // one description fixed and a row added): its ids are not the example's, whose sends other steps count.
  const monthly = path.join(workspace, 'monthly.rpcsv');
  const validText = fs.readFileSync(path.join(workspace, 'valid.rpcsv'), 'utf8');
  // Cards of its own: the example's cards under MON- ids would be the same payers as valid.rpcsv's (same-payer).
  fs.writeFileSync(monthly, ownPayers(validText.replace(/[A-Z]{3}-2027-/g, 'MON-'), 'MON'));

  // A batch over 50 MB, which VS Code passes to no extension (personBigBatch.ts): generated, never committed.
  writeBigBatch(workspace);

  const gatewayEnv = { PAYGATE_STATE_DIR: path.join(scratch, 'gateway-state'), PAYGATE_DATA_DIR: path.join(scratch, 'data') };
  const server = await startCodeServer({
    entry: o.entry,
    node: o.node,
    workspace,
    env: gatewayEnv,
    logFile: path.join(o.resultsDir, 'person-code-server.log'),
  });
  const browser = await launchBrowser();
  const page = await browser.newPage({ viewport: { width: 1400, height: 860 } });
  // Every action's own deadline, for those that name none (a click, a fill, a read).
  page.setDefaultTimeout(wb.SHORT);
  page.setDefaultNavigationTimeout(wb.LONG);
  const consoleLog = fs.createWriteStream(path.join(o.resultsDir, 'person-browser-console.log'));
  page.on('console', (m) => consoleLog.write(`[${m.type()}] ${m.text()}\n`));
  onCleanup('person console log', () => new Promise<void>((r) => consoleLog.end(r)));

  let shot = 0;
  const screenshot = async (name: string) => {
    const file = path.join(shots, `${String(++shot).padStart(2, '0')}-${name}.png`);
    await page.screenshot({ path: file }).catch(() => undefined);
    return path.relative(ROOT, file);
  };
  let broken = false; // once a step fails, the later ones that build on it are not meaningful
  const step = async (name: string, fn: () => Promise<string | void>, needs: { previous?: boolean } = {}) => {
    if (broken && needs.previous !== false) {
      counts.skipped++;
      console.log(`  skipped ${name}: an earlier step failed`);
      return;
    }
    const started = Date.now();
    try {
      const detail = await fn();
      counts.passed++;
      console.log(`  ok ${name}${took(started)}${detail ? ` — ${detail}` : ''}`);
    } catch (err) {
      counts.failed++;
      broken = true;
      const file = await screenshot(`FAILED-${slug(name)}`);
      console.log(
        `  FAILED ${name}${took(started)}: ${err instanceof Error ? err.message.split('\n')[0] : String(err)} (screenshot ${file})`,
      );
    }
  };

  console.log('person-style run');
  const command = (id: string) =>
    declared(
      manifest.contributes?.commands?.find((c) => c.command === id),
      `the command ${id}`,
    );
  const view = (id: string) =>
    declared(
      Object.values(manifest.contributes?.views ?? {})
        .flat()
        .find((v) => v.id === id),
      `the view ${id}`,
    );
  /** `paygate` in a terminal beside the editor: the same state and ledger directories, the workspace as its folder. */
  const paygateCli = (args: string[]) =>
    new Promise<{ code: number | null; out: string }>((resolve) => {
      const child = spawn(process.execPath, [path.join(ROOT, 'dist', 'cli.js'), ...args], {
        cwd: workspace,
        env: { ...process.env, ...gatewayEnv, XDG_CONFIG_HOME: path.join(scratch, 'config') },
        stdio: ['ignore', 'pipe', 'pipe'],
        timeout: wb.SHORT,
      });
      let out = '';
      child.stdout.on('data', (b: Buffer) => (out += b.toString()));
      child.stderr.on('data', (b: Buffer) => (out += b.toString()));
      child.on('close', (code) => resolve({ code, out }));
    });

  // Issue 19 (the first hour of a new merchant): the palette, a template's problems, the resend question.
  // Each starts from the workbench (not a webview, which keeps its own keys) with its own editors.
  // Whether the palette offers a title is what it shows once it has filtered: the title's row, or its
  // "No matching commands" row; never how long a row took to come.
  const palette = async (title: string, run: boolean): Promise<boolean> => {
    await focusSideBar();
    await page.keyboard.press('F1');
    const input = page.locator('.quick-input-widget .quick-input-box input');
    await input.waitFor({ state: 'visible', timeout: wb.SHORT });
    await input.fill(`>${title}`);
    const rows = page.locator('.quick-input-widget .monaco-list-row');
    const row = rows.filter({ hasText: title }).first();
    await row
      .or(rows.filter({ hasText: 'No matching commands' }))
      .first()
      .waitFor({ state: 'visible', timeout: wb.SHORT });
    const offered = await row.isVisible();
    if (run && !offered) throw new Error(`the Command Palette does not offer "${title}"`);
    if (run) await row.click();
    else await page.keyboard.press('Escape');
    return offered;
  };
  const focusSideBar = () => wb.focusSideBar(page);
  const closeAllEditors = () => palette('View: Close All Editors', true);

  const run: PersonRun = {
    counts,
    manifest,
    scratch,
    workspace,
    monthly,
    validText,
    server,
    page,
    screenshot,
    step,
    command,
    view,
    paygateCli,
    palette,
    focusSideBar,
    closeAllEditors,
  };
  await lintSteps(run);
  await submitSteps(run);
  await reportSteps(run);
  await firstHourSteps(run);
  await ledgerSteps(run);
  await resendSteps(run);
  await callbackSteps(run);

  return counts;
}

async function main(): Promise<number> {
  ensureSystemTools();
  const install = await ensureCodeServer();
  const resultsDir = path.join(ROOT, 'test-results');
  fs.mkdirSync(resultsDir, { recursive: true });
  const started = Date.now();
  const person = await runPersonStyle({ entry: install.entry, node: install.node, resultsDir });
  // The team ledger's part, in an editor of its own (personTeam.ts).
  const team = await runTeamPersonStyle({ entry: install.entry, node: install.node, resultsDir });
  const c = { passed: person.passed + team.passed, failed: person.failed + team.failed, skipped: person.skipped + team.skipped };
  console.log(`[person] finished in ${((Date.now() - started) / 1000).toFixed(1)}s; screenshots in test-results/person/`);
  console.log(`${c.passed} passed, ${c.failed} failed${c.skipped ? `, ${c.skipped} skipped` : ''}`);
  return c.failed > 0 ? 1 : 0;
}

if (require.main === module) {
  const guard = guardRun('person', Number(process.env.PAYGATE_E2E_TIMEOUT_S || 1200));
  main().then(
    (code) => guard.finish(code),
    (err: unknown) => {
      console.error(`[person] ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
      console.log('0 passed, 1 failed');
      return guard.finish(1);
    },
  );
}
