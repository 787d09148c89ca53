import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { runSplit, runSubmit } from '../fixtures/cli/commands';
import { trustFile } from '../../src/cli/trust';
import { createRecurringPayments, prepareSubmission, type Environment } from '../../src/core/gateway';
import { completionFor, guardedSend, Ledger, LedgerWriteError, submissionEntry } from '../../src/core/ledger';
import { LEDGER_FILE } from '../../src/core/ledger/files';
import { testContext } from '../fixtures/cli/context';
import { faultyFs, type WriteFault } from './faultyFs';
import { MODEL } from './model';
import { StandIn, type Fault } from './standIn';
import { teamTrials } from './team';
import { tooLargePartsTrials } from './tooLarge';
import { idVariantTrials, samePayerTrials, symlinkedStateTrials } from './identity';
import { ownPayers } from '../fixtures/ledger/payers';
import { paygateArgs } from '../fixtures/cli/bin';

// `npm run test:faults`: the money path under every modelled fault. A scripted stand-in gateway, a file
// system that fails the Nth write, kill -9 of real `paygate submit` processes at seeded random moments, and
// concurrent submitters of one file. Every trial checks, from the stand-in's own count (by body hash),
// that no batch was created twice without --allow-resend, and that what the merchant was told matches the
// fault model; and, from the stand-in's count by client-orderid, that no row was created twice either: a
// resend with one row changed is refused after every fault that may have created the rows. PAYGATE_FAULT_SEED=N
// replays a run. Every loop is bounded in count and in time.

const root = join(__dirname, '..', '..');
const seed = Number(process.env.PAYGATE_FAULT_SEED ?? Date.now() % 1_000_000);
// The whole run's bound (about 30 s on a quiet machine): loops stop starting trials past it, and a run
// that passes it fails, as a hang would. Set for a shared machine under load, like the client's deadline
// below, which every answer but the trickle and silence must beat: 5 s, not the 1 s a quiet machine needs.
const DEADLINE = Date.now() + 600_000;
const CLIENT_DEADLINE_S = 5;
let state = seed >>> 0 || 1;
/** mulberry32: small, seeded, good enough to pick moments and orders. */
function random(): number {
  state = (state + 0x6d2b79f5) >>> 0;
  let t = state;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
}

const dir = mkdtempSync(join(tmpdir(), 'paygate-faults-'));
const valid = readFileSync(join(root, 'examples', 'valid.rpcsv'), 'utf8');
const standIn = new StandIn();
let trials = 0;
const failures: string[] = [];
let doubleSends = 0;
let killsAfterSending = 0;
/** Per parts trial: how many of the four parts had reached the stand-in when the process was killed. */
const partsKills: number[] = [];
/** Per split kill: the temporary files it left (the next split removes them). */
const splitKills: number[] = [];
let splitPartial = 0;
/** Parts runs stopped at a part that never reached the stand-in, then sent on with --allow-resend. */
let resendsTaken = 0;

function check(ok: boolean, what: string): void {
  if (!ok) failures.push(what);
}

function batch(tag: string, edit: (text: string) => string = (t) => t): { file: string; hash: string } {
  // Every client-orderid the batch's own: rows shared between batches are refused by the row-level guard;
  // and every card (payers/same-payer: the same card and schedule under another id is refused too).
  const text = edit(ownPayers(valid.replace(/[A-Z]{3}-2027-/g, `F${tag}-`), tag));
  const file = join(dir, `${tag}.rpcsv`);
  writeFileSync(file, text);
  return { file, hash: bodyHash(text) };
}

/** The stand-in hashes the request body: the form field payload, percent-encoded. */
function bodyHash(text: string): string {
  const body = `payload=${encodeURIComponent(prepareSubmission(text).payload).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)}`;
  return createHash('sha256').update(body).digest('hex');
}

/** The CLI's environment; `data` is the ledger's directory (one for every trial unless a trial damages it). */
function env(data = join(dir, 'data')): Record<string, string> {
  return { PAYGATE_DATA_DIR: data, PAYGATE_CONSUMER_SECRET: 'secret', XDG_CONFIG_HOME: join(dir, 'config') };
}

async function submit(file: string, extra: string[] = [], data?: string): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const ctx = testContext({ stdout: (t) => void (out += t), stderr: (t) => void (err += t), env: env(data), cwd: dir });
  const code = await runSubmit([file, ...extra], ctx);
  return { code, out, err };
}

function noDoubles(hash: string, what: string): void {
  if (standIn.count(hash) > 1) {
    doubleSends++;
    failures.push(`${what}: the stand-in created the batch ${standIn.count(hash)} times`);
  }
}

/** Each gateway or network fault, then a plain re-run against a healthy stand-in. */
async function answerTrials(): Promise<void> {
  const faults = Object.keys(MODEL) as Fault[];
  // A seeded order, so interactions between trials (one ledger for all) differ from run to run.
  faults.sort(() => random() - 0.5);
  for (const fault of faults) {
    trials++;
    const { file, hash } = batch(`a${trials}`);
    standIn.plan = [fault];
    const first = await submit(file);
    const m = MODEL[fault];
    check(m.exits.includes(first.code), `${fault}: exit ${first.code}, the model says ${m.exits.join(' or ')} (${first.out}${first.err})`);
    check(m.outcome.test(first.out), `${fault}: told "${first.out.split('\n')[0]}", the model says ${m.outcome}`);
    standIn.plan = ['ok'];
    const again = await submit(file);
    const sent = again.code !== 2;
    if (m.rerunSends !== 'either')
      check(sent === m.rerunSends, `${fault}: a plain re-run ${sent ? 'was sent' : 'was refused'} (${again.err})`);
    if (!sent)
      check(/may have been sent|already sent/.test(again.err), `${fault}: the refusal does not say it may have been sent: ${again.err}`);
    noDoubles(hash, fault);
  }
}

/**
 * Each fault that may leave the rows at the gateway, then the same batch with one row changed sent plainly:
 * refused (exit 2, "already sent"), nothing created twice. After a fault the gateway certainly did not act
 * on, the changed batch is sent.
 */
async function changedRowTrials(): Promise<void> {
  const faults = (Object.keys(MODEL) as Fault[]).filter((f) => f !== 'reset-before');
  faults.sort(() => random() - 0.5);
  for (const fault of faults) {
    trials++;
    const tag = `r${trials}`;
    const { file } = batch(tag);
    standIn.plan = [fault];
    await submit(file);
    const m = MODEL[fault];
    batch(tag, (t) => t.replace('Gym membership, monthly', 'Gym membership (monthly)'));
    standIn.plan = ['ok'];
    const again = await submit(file);
    const sent = again.code !== 2;
    if (m.rerunSends !== 'either')
      check(sent === m.rerunSends, `${fault} then one row changed: ${sent ? 'sent' : 'refused'} (${again.err.split('\n').pop()})`);
    if (!sent)
      check(/already sent|may have been sent/.test(again.err), `${fault} then one row changed: the refusal does not say so: ${again.err}`);
  }
}

/** The ledger's disk failing at its Nth write (short, ENOSPC, EIO, fsync). */
async function diskTrials(environment: Environment): Promise<void> {
  const faults: WriteFault[] = ['short', 'short-then-enospc', 'ENOSPC', 'EIO', 'fsync'];
  for (const fault of faults) {
    // Writes: 1 marks the index complete, 2-3 the "sending" line (ledger, index), 4-5 the completion.
    for (const nth of [1, 2, 3, 4, 5]) {
      trials++;
      const { hash } = batch(`d${trials}`);
      const text = readFileSync(join(dir, `d${trials}.rpcsv`), 'utf8');
      const prepared = prepareSubmission(text);
      const ledgerDir = join(dir, `ledger-d${trials}`);
      const entry = submissionEntry({
        face: 'cli',
        pid: process.pid,
        host: hostname(),
        environment,
        file: `d${trials}.rpcsv`,
        prepared,
        signatureMethod: 'HMAC-SHA1',
      });
      const send = () =>
        createRecurringPayments({
          environment,
          payload: prepared.payload,
          credentials: { signatureMethod: 'HMAC-SHA1', consumerKey: 'merchant', consumerSecret: 'secret' },
          timeoutMs: CLIENT_DEADLINE_S * 1000,
        });
      let refusedBeforeSending = false;
      try {
        await guardedSend({
          ledger: new Ledger(ledgerDir, { fs: faultyFs(fault, nth) }),
          entry,
          send,
          completion: (o) => completionFor(o),
        });
      } catch (err) {
        refusedBeforeSending = err instanceof LedgerWriteError;
        check(refusedBeforeSending, `${fault}@${nth}: not a named ledger failure: ${String(err)}`);
      }
      if (refusedBeforeSending) check(standIn.count(hash) === 0, `${fault}@${nth}: sent although the ledger failed first`);
      const again = await guardedSend({ ledger: new Ledger(ledgerDir), entry, send, completion: (o) => completionFor(o) });
      // Certainly not sent: never blocked. Sent: the plain re-run is refused.
      if (refusedBeforeSending) check(again.status === 'sent', `${fault}@${nth}: a batch that was not sent is blocked (${again.status})`);
      else check(again.status !== 'sent', `${fault}@${nth}: a sent batch was sent again (${again.status})`);
      noDoubles(hash, `${fault}@${nth}`);
    }
  }
}

/**
 * The ledger damaged at a seeded random byte, the first record included: the byte replaced by one no JSON
 * line may hold, or the file cut inside a line. A plain re-run of the batch it held is refused, naming the
 * damage and where the damaged file went, until --allow-resend; nothing is created twice before that.
 */
async function damageTrials(n: number): Promise<void> {
  for (let i = 0; i < n && Date.now() < DEADLINE; i++) {
    trials++;
    const { file, hash } = batch(`g${trials}`);
    const data = join(dir, `data-g${trials}`);
    standIn.plan = ['ok'];
    const first = await submit(file, [], data);
    check(first.code === 0, `damage trial ${trials}: the first submit exited ${first.code} (${first.err})`);
    const ledgerFile = join(data, LEDGER_FILE);
    const bytes = readFileSync(ledgerFile);
    const cut = random() < 0.5;
    // A cut next to a line break leaves whole lines (the ledger writes each as "\n{…}\n"): nothing anyone
    // could see, and nothing lost. So a cut falls inside a line; a NUL may replace any byte.
    const inside = [...bytes.keys()].filter((p) => p > 0 && bytes[p] !== 0x0a && bytes[p - 1] !== 0x0a);
    const where = cut ? inside[Math.floor(random() * inside.length)] : Math.floor(random() * bytes.length);
    const what = cut ? `cut at byte ${where} of ${bytes.length}` : `byte ${where} of ${bytes.length} replaced`;
    if (cut) writeFileSync(ledgerFile, bytes.subarray(0, where));
    else writeFileSync(ledgerFile, Buffer.concat([bytes.subarray(0, where), Buffer.from([0]), bytes.subarray(where + 1)]));
    standIn.plan = ['ok'];
    const again = await submit(file, [], data);
    check(again.code === 2, `ledger ${what}: a plain re-run exited ${again.code}, not 2 (${again.out}${again.err})`);
    // Told why: the damage (where the file went, that the batch may have been sent), or, when the batch's
    // own record survived the damage, that record.
    const toldDamage = /damage/i.test(again.err) && /ledger\.damaged-/.test(again.err) && /may have been sent/.test(again.err);
    check(
      toldDamage || /already sent/.test(again.err),
      `ledger ${what}: the refusal names neither the damage nor the record: ${again.err}`,
    );
    noDoubles(hash, `ledger ${what}`);
    const reading = await new Ledger(data).read();
    check(reading.damages.length > 0, `ledger ${what}: the new ledger holds no damage line`);
    // Sent again on purpose: the one resend of the suite, so its rows are not counted as created twice.
    standIn.resendAllowed.add(hash);
    const resent = await submit(file, ['--allow-resend'], data);
    check(resent.code === 0 && standIn.count(hash) === 2, `ledger ${what}: --allow-resend did not send it (exit ${resent.code})`);
  }
}

function paygate(args: string[]): ReturnType<typeof spawn> {
  return spawn(process.execPath, [...paygateArgs(), ...args], {
    cwd: dir,
    env: { ...process.env, ...env() },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

function exited(child: ReturnType<typeof spawn>, ms: number): Promise<number | null> {
  return new Promise((resolve, reject) => {
    const t = setTimeout(() => reject(new Error('a paygate process did not end in time')), ms);
    child.on('exit', (code) => {
      clearTimeout(t);
      resolve(code);
    });
  });
}

/**
 * kill -9 of a real `paygate submit`, then a plain re-run. Every other kill lands at a seeded random moment
 * after the stand-in has the whole request (while it takes 400 ms to answer): on a loaded machine the
 * process may take longer to start than any fixed window, and those kills would all land before sending.
 * The others land at a seeded random moment from the start, before or after sending.
 */
async function killTrials(n: number): Promise<void> {
  for (let i = 0; i < n && Date.now() < DEADLINE; i++) {
    trials++;
    const { file, hash } = batch(`k${trials}`);
    standIn.plan = ['slow-ok'];
    const child = paygate(['submit', file]);
    const afterSending = i % 2 === 0;
    const at = Math.floor(random() * (afterSending ? 400 : 3000));
    const what = afterSending ? `kill ${at} ms after the request arrived` : `kill at ${at} ms`;
    const done = exited(child, 60_000);
    let timer: NodeJS.Timeout | undefined;
    const kill = () => (timer = setTimeout(() => child.kill('SIGKILL'), at));
    if (afterSending) void Promise.race([standIn.arrived(hash), done]).then(kill);
    else kill();
    await done;
    clearTimeout(timer);
    const reached = standIn.count(hash) > 0;
    if (reached) killsAfterSending++;
    standIn.plan = ['ok'];
    const again = await submit(file);
    if (reached) check(again.code === 2, `${what}: the batch reached the stand-in and a plain re-run was not refused`);
    noDoubles(hash, what);
  }
}

const SIGNALS: NodeJS.Signals[] = ['SIGKILL', 'SIGTERM', 'SIGINT', 'SIGHUP'];

/**
 * A real `paygate submit` sending the four parts of a split batch, killed (SIGKILL, SIGTERM, SIGINT or
 * SIGHUP, seeded) at a seeded random moment, then a plain re-run of all four: no part is created twice;
 * every part ledger.jsonl records as accepted is skipped by the re-run (the index never contradicts the
 * ledger); the re-run either sends every part not yet created (exit 0), or stops at the one part whose
 * fate is unknown (exit 2), naming it and offering `--allow-resend PART`; nothing after it is sent. When
 * that part never reached the stand-in, the way offered is taken: it and the rest are sent, the accepted
 * parts skipped, each part created once.
 */
async function partsKillTrials(n: number): Promise<void> {
  for (let i = 0; i < n && Date.now() < DEADLINE; i++) {
    trials++;
    const tag = `p${trials}`;
    const { file } = batch(tag);
    const partsDir = join(dir, tag);
    const split = await runSplit([file, '--max-rows', '1', '--out-dir', partsDir], testContext({ env: env(), cwd: dir }));
    check(split === 0, `parts ${tag}: paygate split ended ${split}`);
    const parts = readdirSync(partsDir)
      .sort()
      .map((p) => join(partsDir, p));
    check(parts.length === 4, `parts ${tag}: ${parts.length} parts, want 4`);
    const hashes = parts.map((p) => bodyHash(readFileSync(p, 'utf8')));
    standIn.plan = parts.map(() => 'slow-ok');
    const child = paygate(['submit', ...parts]);
    // The moment: after the k-th request arrived (k = 0..4, 0 from the start), and up to 600 ms more.
    const k = Math.floor(random() * 5);
    const at = Math.floor(random() * 600);
    const signal = SIGNALS[Math.floor(random() * SIGNALS.length)];
    const what = `parts ${tag} (${signal} ${at} ms after request ${k})`;
    const done = exited(child, 30_000);
    let seen = 0;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const arm = () => (timer = setTimeout(() => child.kill(signal), at));
    const onRequest = () => void (++seen === k && arm());
    standIn.events.on('request', onRequest);
    if (k === 0) arm();
    await done;
    standIn.events.off('request', onRequest);
    clearTimeout(timer);
    standIn.plan = [];
    const reached = hashes.filter((h) => standIn.count(h) > 0).length;
    // What the ledger itself (not its index) says of each part.
    const records = await new Ledger(join(dir, 'data')).list();
    const accepted = parts.map((p) => {
      const hash = prepareSubmission(readFileSync(p, 'utf8')).contentHash;
      return records.some((r) => r.outcome === 'accepted' && r.contentHash === hash);
    });
    const again = await submit(parts[0], parts.slice(1));
    hashes.forEach((h, j) => noDoubles(h, `${what}, part ${j + 1}`));
    parts.forEach((p, j) => {
      if (accepted[j])
        check(
          again.out.includes(`${p}: already accepted`),
          `${what}: part ${j + 1} is accepted in the ledger but the re-run did not skip it (${again.out}${again.err})`,
        );
    });
    if (again.code === 0) {
      check(
        hashes.every((h) => standIn.count(h) === 1),
        `${what}: the re-run ended 0 but not every part was created once`,
      );
    } else {
      check(again.code === 2, `${what}: the re-run ended ${again.code} (${again.err})`);
      check(/may have been sent|already sent|interrupted/.test(again.err), `${what}: the refusal does not say why: ${again.err}`);
      // It stops at the last part that reached the stand-in: every part before it was created, none after.
      const created = hashes.map((h) => standIn.count(h) > 0);
      check(created.lastIndexOf(true) === reached - 1 && !created.slice(reached).some(Boolean), `${what}: parts sent past the stop`);
      const stop = parts.find((p) => again.err.includes(`--allow-resend ${p}`));
      check(stop !== undefined, `${what}: the refusal does not offer --allow-resend PART: ${again.err}`);
      const s = stop === undefined ? -1 : parts.indexOf(stop);
      check(s < 0 || !accepted[s], `${what}: the part offered for a resend is recorded as accepted`);
      // The way on, taken when the part truly was not created (a person checks the gateway first).
      // Every other time a bare --allow-resend, which must skip the accepted parts too (it sent them again).
      if (stop !== undefined && standIn.count(hashes[s]) === 0) {
        const how = i % 2 === 0 ? ['--allow-resend', stop] : ['--allow-resend'];
        const on = await submit(parts[0], [...parts.slice(1), ...how]);
        resendsTaken++;
        check(on.code === 0, `${what}: ${how.join(' ')} ended ${on.code} (${on.err})`);
        check(
          hashes.every((h) => standIn.count(h) === 1),
          `${what}: after ${how.join(' ')} not every part was created once`,
        );
      }
    }
    partsKills.push(reached);
  }
}

/**
 * `paygate split` of a big batch killed (SIGKILL) at a seeded random moment: no visible part unless all
 * are there; the next split into that folder removes every temporary file the killed one left (they hold
 * card numbers and CVVs) and writes the parts.
 */
async function splitKillTrials(n: number): Promise<void> {
  const big = join(dir, 'split-big.rpcsv');
  const [head, ...rows] = valid.split(/(?<=\r\n)(?=[A-Z])/);
  const many = Array.from({ length: 1000 }, (_, i) => rows[i % rows.length].replace(/^[A-Z]{3}-2027-\d+/, `S-${i}`));
  writeFileSync(big, head + many.join(''));
  for (let i = 0; i < n && Date.now() < DEADLINE; i++) {
    trials++;
    const out = join(dir, `split-${trials}`);
    const child = paygate(['split', big, '--max-rows', '1', '--out-dir', out]);
    const done = exited(child, 60_000);
    // The moment: once the folder exists, a seeded random wait while the parts are written.
    const at = Math.floor(random() * 400);
    const armed = (async () => {
      for (let w = 0; w < 600 && !existsSync(out); w++) await new Promise((r) => setTimeout(r, 25));
      await new Promise((r) => setTimeout(r, at));
      child.kill('SIGKILL');
    })();
    const code = await done;
    await armed;
    const names = existsSync(out) ? readdirSync(out) : [];
    const visible = names.filter((f) => !f.startsWith('.'));
    const temps = names.filter((f) => f.endsWith('.paygate-tmp'));
    const second = await runSplit([big, '--max-rows', '1', '--out-dir', out], testContext({ env: env(), cwd: dir }));
    const after = readdirSync(out);
    check(
      !after.some((f) => f.endsWith('.paygate-tmp')),
      `split killed ${at} ms in (exit ${code}): ${temps.length} temporary files left, and the next split did not remove them all`,
    );
    // All or none: none, and the next split writes them; all (the kill came after); or, killed while
    // the parts were being linked into place, some, which the next split refuses to write beside.
    if (visible.length === 0)
      check(second === 0 && after.length === 1000, `split killed ${at} ms in: the next split ended ${second} with ${after.length} files`);
    else if (visible.length < 1000) {
      splitPartial++;
      check(second === 2, `split killed ${at} ms in: ${visible.length} of 1000 parts visible and the next split did not refuse`);
    }
    splitKills.push(temps.length);
  }
}

/** N processes submit one file at the same moment: one sends, the others are refused. */
async function concurrentTrials(n: number): Promise<void> {
  trials++;
  const { file, hash } = batch(`c${trials}`);
  standIn.plan = [];
  const children = Array.from({ length: n }, () => paygate(['submit', file]));
  const codes = await Promise.all(children.map((c) => exited(c, 60_000)));
  check(codes.filter((c) => c === 0).length === 1, `concurrent: exits ${codes.join(',')}, want one 0`);
  check(codes.filter((c) => c === 2).length === n - 1, `concurrent: exits ${codes.join(',')}, want the others 2`);
  check(standIn.count(hash) === 1, `concurrent: the stand-in created it ${standIn.count(hash)} times`);
  noDoubles(hash, 'concurrent');
}

async function main(): Promise<void> {
  console.log(`paygate fault suite, seed ${seed} (PAYGATE_FAULT_SEED=${seed} replays it)`);
  await standIn.start();
  const environment: Environment = {
    name: 'stand-in',
    baseUrl: standIn.origin,
    reportBaseUrl: standIn.origin,
    endpointId: '1001',
    consumerKey: 'merchant',
    production: false,
  };
  const config = join(dir, 'paygate.config.json');
  writeFileSync(config, JSON.stringify({ environments: [environment], environment: 'stand-in', requestTimeoutSeconds: CLIENT_DEADLINE_S }));
  mkdirSync(join(dir, 'config'), { recursive: true });
  trustFile({ XDG_CONFIG_HOME: join(dir, 'config') }, config, readFileSync(config));
  try {
    await answerTrials();
    await changedRowTrials();
    const suite = { root, dir, standIn, env, batch, check, noDoubles, trial: () => ++trials, exited, random, deadline: DEADLINE };
    await idVariantTrials(suite, submit);
    await samePayerTrials(suite, submit);
    await symlinkedStateTrials(suite);
    await diskTrials(environment);
    await damageTrials(Number(process.env.PAYGATE_FAULT_DAMAGES ?? 6));
    await killTrials(Number(process.env.PAYGATE_FAULT_KILLS ?? 10));
    await partsKillTrials(Number(process.env.PAYGATE_FAULT_PART_KILLS ?? 50));
    await splitKillTrials(Number(process.env.PAYGATE_FAULT_SPLIT_KILLS ?? 4));
    await tooLargePartsTrials({ ...suite, submit, bodyHash }, Number(process.env.PAYGATE_FAULT_413_PARTS ?? 4));
    await concurrentTrials(4);
    // The team ledger on a real PostgreSQL server: the same faults across two members, races, kills, restarts.
    await teamTrials(suite, Number(process.env.PAYGATE_FAULT_TEAM_RACES ?? 20), Number(process.env.PAYGATE_FAULT_TEAM_KILLS ?? 4));
  } finally {
    await standIn.stop();
    rmSync(dir, { recursive: true, force: true });
  }
  // Across every trial: no client-orderid was created twice (the damage trials' --allow-resend aside).
  const doubleRows = standIn.doubleRows();
  // The count by row means something only if rows were counted: every accepted batch has four.
  check(standIn.rowsCreated.size >= 4 * 20, `the stand-in counted only ${standIn.rowsCreated.size} rows`);
  for (const [id, n] of doubleRows) failures.push(`row ${id} was created ${n} times by the stand-in`);
  // And no payer (card) was created twice under another id without --allow-same-payer.
  const doublePayers = standIn.doublePayers();
  for (const [card, n] of doublePayers) failures.push(`the payer of card ${card} was created ${n} times by the stand-in`);
  for (const f of failures) console.log(`FAIL ${f}`);
  console.log(`kill -9: ${killsAfterSending} of the kills landed after the batch reached the stand-in`);
  console.log(
    `kills of four parts (${partsKills.length}): parts that had reached the stand-in per kill: ${partsKills.join(', ')}; ${resendsTaken} runs went on with --allow-resend`,
  );
  console.log(
    `kills of split (${splitKills.length}): temporary files left per kill, each removed by the next split: ${splitKills.join(', ')}; ${splitPartial} left some parts visible`,
  );
  console.log(
    `${trials} trials, ${doubleSends} double sends, ${standIn.rowsCreated.size} rows created, ${doubleRows.length} of them twice, ` +
      `${standIn.payersCreated.size} payers (cards) created, ${doublePayers.length} of them twice (seed ${seed})`,
  );
  if (failures.length > 0 || Date.now() > DEADLINE) process.exitCode = 1;
}

main().catch((err: unknown) => {
  console.error(err);
  console.log(`seed ${seed}`);
  process.exitCode = 1;
});
