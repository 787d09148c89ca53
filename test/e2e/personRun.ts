// What every part of the person-style run (person.ts and its person*.ts parts) shares: the run's own
// handles (the page, the step runner, the screenshots, the manifest's commands and views, the terminal
// beside the editor, the palette) and the helpers its steps read the workbench and the batches with.
import * as fs from 'node:fs';
import * as path from 'node:path';
import Papa from 'papaparse';
import type { Frame, Page } from 'playwright-core';
import type { CodeServer } from './codeServer';
import * as wb from './workbench';

export const ROOT = path.resolve(__dirname, '..', '..');
export const LANGUAGE_NAME = 'PayGate Recurring CSV';
export const SUBMIT_TITLE = 'Submit Recurring Payments File';

export interface StepCounts {
  passed: number;
  failed: number;
  skipped: number;
}

export interface Manifest {
  contributes?: {
    commands?: { command: string; title: string; category?: string }[];
    codeActions?: unknown[];
    languages?: { id: string }[];
    views?: Record<string, { id: string; name: string }[]>;
  };
}

/** What a step drives must be there: the manifest declares every feature this run uses. */
export function declared<T>(thing: T | undefined | false, what: string): T {
  if (thing === undefined || thing === false) throw new Error(`${what}: the manifest does not declare it`);
  return thing;
}

/** The run's handles, made once by runPersonStyle and handed to each part. */
export interface PersonRun {
  counts: StepCounts;
  manifest: Manifest;
  scratch: string;
  workspace: string;
  /** The batch of the already-sent steps, and the example it was made from. */
  monthly: string;
  validText: string;
  server: CodeServer;
  page: Page;
  screenshot(name: string): Promise<string>;
  /** Runs a step; once one failed, the later ones that build on it are skipped. */
  step(name: string, fn: () => Promise<string | void>, needs?: { previous?: boolean }): Promise<void>;
  /** A command the manifest declares, by id. */
  command(id: string): { command: string; title: string; category?: string };
  /** A view the manifest declares, by id. */
  view(id: string): { id: string; name: string };
  /** `paygate` in a terminal beside the editor. */
  paygateCli(args: string[]): Promise<{ code: number | null; out: string }>;
  /** Whether the Command Palette offers `title` (and, with `run`, runs it). */
  palette(title: string, run: boolean): Promise<boolean>;
  focusSideBar(): Promise<void>;
  closeAllEditors(): Promise<boolean>;
}

/** The Problems panel's rows matching `pattern` once there are at least `count` (the panel opened if closed). */
export async function waitForProblems(page: Page, pattern: RegExp, count: number): Promise<string[]> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const labels = await wb.problems(page).catch(() => [] as string[]);
    const matching = labels.filter((l) => pattern.test(l));
    if (matching.length >= count) return matching;
    if (Date.now() > deadline)
      throw new Error(
        `the Problems panel shows ${matching.length} problems matching ${pattern}, not ${count}: ${labels.slice(0, 5).join(' | ')}`,
      );
    await page.waitForTimeout(250);
  }
}

/**
 * Submit may ask questions on the way (environment, confirmation). A person accepts the offered default;
 * so does this, until a webview shows a grid or the deadline passes.
 */
export async function answerPromptsUntilTable(page: Page, earlier: Frame[] = [], shows = 'table, [role="grid"]'): Promise<Frame> {
  const deadline = Date.now() + wb.LONG;
  while (Date.now() < deadline) {
    const frame = await wb.webviewFrame(page, shows, 500, earlier).catch(() => undefined);
    if (frame) return frame;
    const dialog = page.locator('.monaco-dialog-box');
    if (await dialog.isVisible().catch(() => false)) {
      // A dialog gone by the click (it answered itself, or the table came) is not waited for a minute: the loop looks again.
      await dialog
        .locator('.monaco-button')
        .first()
        .click({ timeout: 5_000 })
        .catch(() => undefined);
      continue;
    }
    const quick = page.locator('.quick-input-widget');
    if (await quick.isVisible().catch(() => false)) {
      await page.keyboard.press('Enter');
    }
    const toast = (await wb.notifications(page)).find((t) => /error|fail|could not|cannot/i.test(t));
    if (toast) throw new Error(`notification: ${toast}`);
    await page.waitForTimeout(300);
  }
  throw new Error(`no webview showed ${shows} within ${wb.LONG / 1000}s`);
}

/** The client-orderid of every data record in a batch file, read with papaparse (the tests' oracle, not the product's reader). */
export function clientOrderIds(file: string): string[] {
  const parsed = Papa.parse<string[]>(fs.readFileSync(file, 'utf8'), { delimiter: ';', skipEmptyLines: true });
  const [header, ...rows] = parsed.data;
  const col = header.indexOf('client-orderid');
  return rows.map((r) => r[col]);
}

export function cardNumbers(file: string): string[] {
  const parsed = Papa.parse<string[]>(fs.readFileSync(file, 'utf8'), { delimiter: ';', skipEmptyLines: true });
  const [header, ...rows] = parsed.data;
  const col = header.indexOf('credit-card-number');
  return col < 0 ? [] : rows.map((r) => r[col]).filter((v) => /^\d{12,19}$/.test(v));
}

/** Resolves when `promise` does or after `ms`, whichever is first (the caller checks which). */
export async function within(promise: Promise<void>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([promise, new Promise<void>((resolve) => (timer = setTimeout(resolve, ms)))]);
  clearTimeout(timer);
}

/** How long a step took, for its line: " (12.3 s)", so a run's log shows where its time goes. */
export function took(started: number): string {
  return ` (${((Date.now() - started) / 1000).toFixed(1)} s)`;
}

export function slug(s: string): string {
  return s
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')
    .slice(0, 40);
}

/**
 * The control keys the editor may check callbacks with: its own local gateway's demo merchant (in this
 * code-server's profile, read from its command line: other runs may share the temporary folder) first,
 * then the CLI state directory's.
 */
export function editorControlKeys(scratch: string, codeServerPid: number | undefined): string[] {
  const dirs: string[] = [];
  let userData: string | undefined;
  try {
    const args = fs.readFileSync(`/proc/${codeServerPid}/cmdline`, 'utf8').split('\0');
    const at = args.indexOf('--user-data-dir');
    if (at >= 0) userData = args[at + 1];
  } catch {
    // Not Linux, or the process is gone: the CLI state directory's key is the only guess.
  }
  const storage = userData && path.join(userData, 'User', 'globalStorage');
  if (storage && fs.existsSync(storage)) for (const ext of fs.readdirSync(storage)) dirs.push(path.join(storage, ext, 'gateway'));
  dirs.push(path.join(scratch, 'gateway-state'));
  const keys: string[] = [];
  for (const dir of dirs) {
    try {
      const key = (JSON.parse(fs.readFileSync(path.join(dir, 'merchant.json'), 'utf8')) as { controlKey?: unknown }).controlKey;
      if (typeof key === 'string') keys.push(key);
    } catch {
      // No gateway ran there.
    }
  }
  return keys;
}
