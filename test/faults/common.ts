import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runSubmit } from '../fixtures/cli/commands';
import { prepareSubmission } from '../../src/core/gateway';
import { testContext } from '../fixtures/cli/context';
import { StandIn } from './standIn';
import { ownPayers } from '../fixtures/ledger/payers';
import { paygateArgs } from '../fixtures/cli/bin';
import { seed } from './groups';

// What every trial of the fault suite (run.ts) shares: the seed and its random numbers, the run's deadline,
// the scratch folder and the stand-in gateway, the batches and how they are sent (in process or as a real
// `paygate` process), the checks, and the tally the run's last lines report.

export const root = join(__dirname, '..', '..');

// The whole run's bound (about 30 s on a quiet machine): loops stop starting trials past it, and a run
// that passes it fails, as a hang would. Set for a shared machine under load, like the client's deadline
// below, which every answer but the trickle and silence must beat: 5 s, not the 1 s a quiet machine needs.
export const DEADLINE = Date.now() + 600_000;
export const CLIENT_DEADLINE_S = 5;
// Each group of trials (groups.ts) draws its own numbers from the seed: group 0 the seed's own.
let state = (seed + Number(process.env.PAYGATE_FAULT_GROUP ?? 0) * 1_000_003) >>> 0 || 1;
/** mulberry32: small, seeded, good enough to pick moments and orders. */
export function random(): number {
  state = (state + 0x6d2b79f5) >>> 0;
  let t = state;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
}

export const dir = mkdtempSync(join(tmpdir(), 'paygate-faults-'));
export const valid = readFileSync(join(root, 'examples', 'valid.rpcsv'), 'utf8');
export const standIn = new StandIn();
/** What the trials counted, for the run's last lines. */
export const tally = {
  trials: 0,
  failures: [] as string[],
  doubleSends: 0,
  killsAfterSending: 0,
  /** Per parts trial: how many of the four parts had reached the stand-in when the process was killed. */
  partsKills: [] as number[],
  /** Per split kill: the temporary files it left (the next split removes them). */
  splitKills: [] as number[],
  splitPartial: 0,
  /** Parts runs stopped at a part that never reached the stand-in, then sent on with --allow-resend. */
  resendsTaken: 0,
};

export function check(ok: boolean, what: string): void {
  if (!ok) tally.failures.push(what);
}

export function batch(tag: string, edit: (text: string) => string = (t) => t): { file: string; hash: string } {
  // Every client-orderid the batch's own: rows shared between batches are refused by the row-level guard;
  // and every card (payers/same-payer: the same card and schedule under another id is refused too).
  const text = edit(ownPayers(valid.replace(/[A-Z]{3}-2027-/g, `F${tag}-`), tag));
  const file = join(dir, `${tag}.rpcsv`);
  writeFileSync(file, text);
  return { file, hash: bodyHash(text) };
}

/** The stand-in hashes the request body: the form field payload, percent-encoded. */
export function bodyHash(text: string): string {
  const body = `payload=${encodeURIComponent(prepareSubmission(text).payload).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)}`;
  return createHash('sha256').update(body).digest('hex');
}

/** The CLI's environment; `data` is the ledger's directory (one for every trial unless a trial damages it). */
export function env(data = join(dir, 'data')): Record<string, string> {
  return { PAYGATE_DATA_DIR: data, PAYGATE_CONSUMER_SECRET: 'secret', XDG_CONFIG_HOME: join(dir, 'config') };
}

export async function submit(file: string, extra: string[] = [], data?: string): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const ctx = testContext({ stdout: (t) => void (out += t), stderr: (t) => void (err += t), env: env(data), cwd: dir });
  const code = await runSubmit([file, ...extra], ctx);
  return { code, out, err };
}

export function noDoubles(hash: string, what: string): void {
  if (standIn.count(hash) > 1) {
    tally.doubleSends++;
    tally.failures.push(`${what}: the stand-in created the batch ${standIn.count(hash)} times`);
  }
}

export function paygate(args: string[]): ReturnType<typeof spawn> {
  return spawn(process.execPath, [...paygateArgs(), ...args], {
    cwd: dir,
    env: { ...process.env, ...env() },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

export function exited(child: ReturnType<typeof spawn>, ms: number): Promise<number | null> {
  return new Promise((resolve, reject) => {
    const t = setTimeout(() => reject(new Error('a paygate process did not end in time')), ms);
    child.on('exit', (code) => {
      clearTimeout(t);
      resolve(code);
    });
  });
}
