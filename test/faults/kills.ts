import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runSplit } from '../fixtures/cli/commands';
import { testContext } from '../fixtures/cli/context';
import { prepareSubmission } from '../../src/core/gateway';
import { Ledger } from '../../src/core/ledger';
import { batch, bodyHash, check, DEADLINE, dir, env, exited, noDoubles, paygate, random, standIn, submit, tally, valid } from './common';

// The fault suite's trials of a process killed (run.ts): a real `paygate submit` killed at seeded moments,
// the four parts of a split batch sent and killed by one of four signals, and `paygate split` killed while it
// writes its parts.

/**
 * kill -9 of a real `paygate submit`, then a plain re-run. Every other kill lands at a seeded random moment
 * after the stand-in has the whole request (while it takes 400 ms to answer): on a loaded machine the
 * process may take longer to start than any fixed window, and those kills would all land before sending.
 * The others land at a seeded random moment from the start, before or after sending.
 */
export async function killTrials(n: number): Promise<void> {
  for (let i = 0; i < n && Date.now() < DEADLINE; i++) {
    tally.trials++;
    const { file, hash } = batch(`k${tally.trials}`);
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
    if (reached) tally.killsAfterSending++;
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
export async function partsKillTrials(n: number): Promise<void> {
  for (let i = 0; i < n && Date.now() < DEADLINE; i++) {
    tally.trials++;
    const tag = `p${tally.trials}`;
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
        tally.resendsTaken++;
        check(on.code === 0, `${what}: ${how.join(' ')} ended ${on.code} (${on.err})`);
        check(
          hashes.every((h) => standIn.count(h) === 1),
          `${what}: after ${how.join(' ')} not every part was created once`,
        );
      }
    }
    tally.partsKills.push(reached);
  }
}

/**
 * `paygate split` of a big batch killed (SIGKILL) at a seeded random moment: no visible part unless all
 * are there; the next split into that folder removes every temporary file the killed one left (they hold
 * card numbers and CVVs) and writes the parts.
 */
export async function splitKillTrials(n: number): Promise<void> {
  const big = join(dir, 'split-big.rpcsv');
  const [head, ...rows] = valid.split(/(?<=\r\n)(?=[A-Z])/);
  const many = Array.from({ length: 1000 }, (_, i) => rows[i % rows.length].replace(/^[A-Z]{3}-2027-\d+/, `S-${i}`));
  writeFileSync(big, head + many.join(''));
  for (let i = 0; i < n && Date.now() < DEADLINE; i++) {
    tally.trials++;
    const out = join(dir, `split-${tally.trials}`);
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
      tally.splitPartial++;
      check(second === 2, `split killed ${at} ms in: ${visible.length} of 1000 parts visible and the next split did not refuse`);
    }
    tally.splitKills.push(temps.length);
  }
}
