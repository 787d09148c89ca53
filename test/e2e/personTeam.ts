// The person-style run's team ledger (issue 41): a teammate, alice, sent a batch from the CLI on her own
// machine (her HOME, her data folder, her database role) through the team ledger, a throwaway PostgreSQL
// cluster this run starts and stops (test/fixtures/postgres/cluster.ts). The person, bob, works in the
// editor with `paygate.ledger.url` set to his role (no password in it) and the team key imported from
// $PAYGATE_LEDGER_KEY_FILE; he stores his password with "PayGate: Set Team Ledger Password…", sees the
// Submissions view name the team ledger and alice's send, sees already-sent on his copy of the rows naming
// alice, and his Submit is refused (already-sent), naming alice: nothing more reaches the team ledger.
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { launchBrowser } from './browser';
import { startCodeServer } from './codeServer';
import { ensureCodeServer, ensureSystemTools } from './install';
import { guardRun, onCleanup, stopGroup } from './processes';
import * as wb from './workbench';
import { ownPayers } from '../fixtures/ledger/payers';
import { createTeam, startCluster } from '../fixtures/postgres/cluster';
import { took } from './personRun';

const ROOT = path.resolve(__dirname, '..', '..');
const BATCH = 'team-batch.rpcsv';
const PASSWORDS = { alice: 'alice team:1', bob: 'bob-team-2' } as const;

interface StepCounts {
  passed: number;
  failed: number;
  skipped: number;
}

/** `paygate` as a member runs it on their own machine; its exit code and output. */
function paygate(args: string[], env: Record<string, string>, cwd: string): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [path.join(ROOT, 'dist', 'cli.js'), ...args], {
      cwd,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
      timeout: wb.LONG,
    });
    let out = '';
    child.stdout.on('data', (b: Buffer) => (out += b.toString()));
    child.stderr.on('data', (b: Buffer) => (out += b.toString()));
    child.on('close', (code) => resolve({ code, out }));
  });
}

export async function runTeamPersonStyle(o: { entry: string; node?: string; resultsDir: string }): Promise<StepCounts> {
  const counts: StepCounts = { passed: 0, failed: 0, skipped: 0 };
  const shots = path.join(o.resultsDir, 'person');
  fs.mkdirSync(shots, { recursive: true });
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'paygate-person-team-'));
  onCleanup('person team scratch', () => fs.rmSync(scratch, { recursive: true, force: true }));
  const cluster = await startCluster();
  const stopCluster = onCleanup('team ledger cluster', () => cluster.stop());
  try {
    const keyFile = path.join(scratch, 'team.key');
    const state = path.join(scratch, 'gateway-state');
    const home = (who: string) => path.join(scratch, who);
    for (const who of ['admin', 'alice', 'bob', 'workspace']) fs.mkdirSync(home(who), { recursive: true });
    const workspace = home('workspace');

    // The team's database: the owner makes the ledger and the key once; alice and bob are members.
    await createTeam(cluster, PASSWORDS);
    const init = await paygate(
      ['ledger', 'init', '--ledger', cluster.adminUrl('team'), '--key-out', keyFile, '--grant', 'paygate_team'],
      { HOME: home('admin') },
      home('admin'),
    );
    if (init.code !== 0) throw new Error(`paygate ledger init: ${init.out}`);

    // alice's batch, sent from her CLI to the local gateway both machines share here.
    const valid = fs.readFileSync(path.join(ROOT, 'examples', 'valid.rpcsv'), 'utf8');
    const sent = ownPayers(valid.replace(/[A-Z]{3}-2027-/g, 'TEAM-'), 'TEAM');
    fs.writeFileSync(path.join(home('alice'), BATCH), sent);
    const alice = await paygate(
      ['submit', BATCH],
      {
        HOME: home('alice'),
        PAYGATE_DATA_DIR: path.join(home('alice'), 'data'),
        XDG_CONFIG_HOME: path.join(home('alice'), 'config'),
        PAYGATE_STATE_DIR: state,
        PAYGATE_LEDGER_URL: cluster.url('alice', PASSWORDS.alice, 'team'),
        PAYGATE_LEDGER_KEY_FILE: keyFile,
      },
      home('alice'),
    );
    if (alice.code !== 0) throw new Error(`alice's paygate submit: ${alice.out}`);
    // bob's copy, as his export made it: the rows in another order, one description edited.
    const [head, ...rows] = sent.split(/(?<=\r\n)(?=TEAM-)/);
    fs.writeFileSync(path.join(workspace, BATCH), [head, ...rows.reverse()].join('').replace('Gym membership, monthly', 'Gym (monthly)'));

    const bobUrl = `postgres://bob@127.0.0.1:${cluster.port}/team`;
    // A machine setting: in the user settings, and in the remote machine's (code-server's window is a remote one).
    const profile = path.join(scratch, 'profile');
    fs.mkdirSync(path.join(profile, 'user-data', 'Machine'), { recursive: true });
    fs.writeFileSync(path.join(profile, 'user-data', 'Machine', 'settings.json'), JSON.stringify({ 'paygate.ledger.url': bobUrl }));
    const server = await startCodeServer({
      entry: o.entry,
      node: o.node,
      workspace,
      profileDir: profile,
      settings: { 'paygate.ledger.url': bobUrl },
      env: {
        PAYGATE_STATE_DIR: state,
        PAYGATE_DATA_DIR: path.join(home('bob'), 'data'),
        PAYGATE_LEDGER_KEY_FILE: keyFile,
      },
      logFile: path.join(o.resultsDir, 'person-team-code-server.log'),
    });
    const browser = await launchBrowser();
    const page = await browser.newPage({ viewport: { width: 1400, height: 860 } });
    page.setDefaultTimeout(wb.SHORT);
    page.setDefaultNavigationTimeout(wb.LONG);
    let shot = 0;
    const screenshot = async (name: string) => {
      const file = path.join(shots, `team-${String(++shot).padStart(2, '0')}-${name}.png`);
      await page.screenshot({ path: file }).catch(() => undefined);
      return path.relative(ROOT, file);
    };
    let broken = false;
    const step = async (name: string, fn: () => Promise<string | void>) => {
      if (broken) {
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
        const file = await screenshot('FAILED');
        console.log(
          `  FAILED ${name}${took(started)}: ${err instanceof Error ? err.message.split('\n')[0] : String(err)} (screenshot ${file})`,
        );
      }
    };

    console.log('person-style run: the team ledger');
    try {
      await step('open the workbench with paygate.ledger.url set to bob (no password in it)', async () => {
        await page.goto(server.url({ extensionPath: ROOT }), { waitUntil: 'domcontentloaded' });
        await wb.waitForWorkbench(page);
      });

      await step('"PayGate: Set Team Ledger Password…" stores bob\'s password in secret storage', async () => {
        await wb.runCommand(page, 'PayGate: Set Team Ledger Password…');
        const input = page.locator('.quick-input-widget .quick-input-box input');
        await input.waitFor({ state: 'visible', timeout: wb.SHORT });
        if ((await input.getAttribute('type')) !== 'password') throw new Error('the password box shows what is typed');
        await input.fill(PASSWORDS.bob);
        await page.keyboard.press('Enter');
        const done = page.locator('.notification-toast', {
          hasText: /Password stored for the team ledger postgres:\/\/bob@127\.0\.0\.1:\d+\/team/,
        });
        await done.first().waitFor({ state: 'visible', timeout: wb.SHORT });
        return (await done.first().innerText()).replace(/\s+/g, ' ').slice(0, 140);
      });

      await step("the Submissions view names the team ledger and lists alice's send, by alice from the CLI", async () => {
        const store = await wb.viewRow(page, 'Submissions', `team ledger ${bobUrl}`);
        const record = await wb.viewRow(page, 'Submissions', BATCH);
        await screenshot('submissions-team-ledger');
        return `${store.slice(0, 90)} · ${record.slice(0, 60)}`;
      });

      await step("bob's copy of the batch: already-sent on each row alice sent, naming her", async () => {
        await wb.quickOpenFile(page, BATCH);
        const deadline = Date.now() + wb.LONG;
        let sent: string[] = [];
        while (Date.now() < deadline) {
          sent = (await wb.problems(page).catch(() => [] as string[])).filter((l) => /was already sent by alice from the CLI on /.test(l));
          if (sent.length >= 4) break;
          await page.waitForTimeout(250);
        }
        await screenshot('already-sent-by-alice');
        if (sent.length < 4) throw new Error(`the Problems panel names alice on ${sent.length} rows, not 4`);
        return sent[0].slice(0, 160);
      });

      await step("bob's Submit is refused: the rows question names alice, and Don't send (Enter) sends nothing", async () => {
        await wb.runCommand(page, 'PayGate: Submit Recurring Payments File');
        const quick = page.locator('.quick-input-widget');
        const dont = quick.locator('.monaco-list-row', { hasText: /Don't send/ }).first();
        await dont.waitFor({ state: 'visible', timeout: wb.LONG });
        const text = `${(await quick.innerText()).replace(/\s+/g, ' ')}`;
        await screenshot('submit-refused-names-alice');
        if (!/already sent to local/.test(text) || !/already sent by alice from the CLI on /.test(text))
          throw new Error(`the question does not name alice's send: ${text.slice(0, 300)}`);
        await page.keyboard.press('Enter');
        await quick.waitFor({ state: 'hidden', timeout: wb.SHORT });
        // What the team ledger holds once the editor is done: alice's send, and nothing of bob's.
        const deadline = Date.now() + wb.SHORT;
        let progress = true;
        while (progress && Date.now() < deadline) {
          progress = await page
            .locator('.notification-toast', { hasText: /submitting team-batch/ })
            .first()
            .isVisible()
            .catch(() => false);
          if (progress) await page.waitForTimeout(250);
        }
        const rowsNow = await cluster.sql('team', 'SELECT role FROM paygate_submissions');
        if (rowsNow.length !== 1 || rowsNow[0].role !== 'alice') throw new Error(`the team ledger holds ${JSON.stringify(rowsNow)}`);
        return text.slice(0, 200);
      });
    } finally {
      await browser.close().catch(() => undefined);
      await stopGroup(server.process);
    }
  } finally {
    stopCluster();
    await cluster.stop();
  }
  return counts;
}

/** Alone: `npm run build && tsx test/e2e/personTeam.ts` (test:e2e and test:e2e:person run it after the person-style run). */
async function main(): Promise<number> {
  ensureSystemTools();
  const install = await ensureCodeServer();
  const resultsDir = path.join(ROOT, 'test-results');
  fs.mkdirSync(resultsDir, { recursive: true });
  const c = await runTeamPersonStyle({ entry: install.entry, node: install.node, resultsDir });
  console.log(`${c.passed} passed, ${c.failed} failed${c.skipped ? `, ${c.skipped} skipped` : ''}`);
  return c.failed > 0 ? 1 : 0;
}

if (require.main === module) {
  const guard = guardRun('person-team', Number(process.env.PAYGATE_E2E_TIMEOUT_S || 900));
  main().then(
    (code) => guard.finish(code),
    (err: unknown) => {
      console.error(`[person-team] ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
      console.log('0 passed, 1 failed');
      return guard.finish(1);
    },
  );
}
