import { hostname } from 'node:os';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createRecurringPayments, prepareSubmission, type Environment } from '../../src/core/gateway';
import { completionFor, guardedSend, Ledger, LedgerWriteError, submissionEntry } from '../../src/core/ledger';
import { LEDGER_FILE } from '../../src/core/ledger/files';
import { faultyFs, type WriteFault } from './faultyFs';
import { MODEL } from './model';
import type { Fault } from './standIn';
import { batch, check, CLIENT_DEADLINE_S, DEADLINE, dir, exited, noDoubles, paygate, random, standIn, submit, tally } from './common';

// The fault suite's trials of one send (run.ts): every gateway or network fault in the model, then a plain
// re-run and one with a row changed; the ledger's disk failing at its Nth write; the ledger damaged at a
// random byte; and several processes submitting one file at once.

/** Each gateway or network fault, then a plain re-run against a healthy stand-in. */
export async function answerTrials(): Promise<void> {
  const faults = Object.keys(MODEL) as Fault[];
  // A seeded order, so interactions between trials (one ledger for all) differ from run to run.
  faults.sort(() => random() - 0.5);
  for (const fault of faults) {
    tally.trials++;
    const { file, hash } = batch(`a${tally.trials}`);
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
export async function changedRowTrials(): Promise<void> {
  const faults = (Object.keys(MODEL) as Fault[]).filter((f) => f !== 'reset-before');
  faults.sort(() => random() - 0.5);
  for (const fault of faults) {
    tally.trials++;
    const tag = `r${tally.trials}`;
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
export async function diskTrials(environment: Environment): Promise<void> {
  const faults: WriteFault[] = ['short', 'short-then-enospc', 'ENOSPC', 'EIO', 'fsync'];
  for (const fault of faults) {
    // Writes: 1 marks the index complete, 2-3 the "sending" line (ledger, index), 4-5 the completion.
    for (const nth of [1, 2, 3, 4, 5]) {
      tally.trials++;
      const { hash } = batch(`d${tally.trials}`);
      const text = readFileSync(join(dir, `d${tally.trials}.rpcsv`), 'utf8');
      const prepared = prepareSubmission(text);
      const ledgerDir = join(dir, `ledger-d${tally.trials}`);
      const entry = submissionEntry({
        face: 'cli',
        pid: process.pid,
        host: hostname(),
        environment,
        file: `d${tally.trials}.rpcsv`,
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
export async function damageTrials(n: number): Promise<void> {
  for (let i = 0; i < n && Date.now() < DEADLINE; i++) {
    tally.trials++;
    const { file, hash } = batch(`g${tally.trials}`);
    const data = join(dir, `data-g${tally.trials}`);
    standIn.plan = ['ok'];
    const first = await submit(file, [], data);
    check(first.code === 0, `damage trial ${tally.trials}: the first submit exited ${first.code} (${first.err})`);
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

/** N processes submit one file at the same moment: one sends, the others are refused. */
export async function concurrentTrials(n: number): Promise<void> {
  tally.trials++;
  const { file, hash } = batch(`c${tally.trials}`);
  standIn.plan = [];
  const children = Array.from({ length: n }, () => paygate(['submit', file]));
  const codes = await Promise.all(children.map((c) => exited(c, 60_000)));
  check(codes.filter((c) => c === 0).length === 1, `concurrent: exits ${codes.join(',')}, want one 0`);
  check(codes.filter((c) => c === 2).length === n - 1, `concurrent: exits ${codes.join(',')}, want the others 2`);
  check(standIn.count(hash) === 1, `concurrent: the stand-in created it ${standIn.count(hash)} times`);
  noDoubles(hash, 'concurrent');
}
