import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { trustFile } from '../../src/cli/trust';
import type { Environment } from '../../src/core/gateway';
import { teamTrials } from './team';
import { tooLargePartsTrials } from './tooLarge';
import { idVariantTrials, samePayerTrials, symlinkedStateTrials } from './identity';
import { answerTrials, changedRowTrials, concurrentTrials, damageTrials, diskTrials } from './answers';
import { killTrials, partsKillTrials, splitKillTrials } from './kills';
import {
  batch,
  bodyHash,
  check,
  CLIENT_DEADLINE_S,
  DEADLINE,
  dir,
  env,
  exited,
  noDoubles,
  random,
  root,
  seed,
  standIn,
  submit,
  tally,
} from './common';

// `npm run test:faults`: the money path under every modelled fault. A scripted stand-in gateway, a file
// system that fails the Nth write, kill -9 of real `paygate submit` processes at seeded random moments, and
// concurrent submitters of one file. Every trial checks, from the stand-in's own count (by body hash),
// that no batch was created twice without --allow-resend, and that what the merchant was told matches the
// fault model; and, from the stand-in's count by client-orderid, that no row was created twice either: a
// resend with one row changed is refused after every fault that may have created the rows. PAYGATE_FAULT_SEED=N
// replays a run. Every loop is bounded in count and in time.
// The trials live in answers.ts, kills.ts, identity.ts, tooLarge.ts and team.ts; what they share in common.ts.

/** Runs one group of trials and says how long it took (wall and this process's CPU), to find the slow ones. */
async function phase(name: string, trials: () => Promise<unknown>): Promise<void> {
  const started = Date.now();
  const cpu = process.cpuUsage();
  await trials();
  const used = process.cpuUsage(cpu);
  console.log(
    `  ${name}: ${((Date.now() - started) / 1000).toFixed(1)} s wall, ${((used.user + used.system) / 1e6).toFixed(1)} s CPU in the suite's process`,
  );
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
    await phase('answerTrials', () => answerTrials());
    await phase('changedRowTrials', () => changedRowTrials());
    const suite = { root, dir, standIn, env, batch, check, noDoubles, trial: () => ++tally.trials, exited, random, deadline: DEADLINE };
    await phase('idVariantTrials', () => idVariantTrials(suite, submit));
    await phase('samePayerTrials', () => samePayerTrials(suite, submit));
    await phase('symlinkedStateTrials', () => symlinkedStateTrials(suite));
    await phase('diskTrials', () => diskTrials(environment));
    await phase('damageTrials', () => damageTrials(Number(process.env.PAYGATE_FAULT_DAMAGES ?? 6)));
    await phase('killTrials', () => killTrials(Number(process.env.PAYGATE_FAULT_KILLS ?? 10)));
    await phase('partsKillTrials', () => partsKillTrials(Number(process.env.PAYGATE_FAULT_PART_KILLS ?? 50)));
    await phase('splitKillTrials', () => splitKillTrials(Number(process.env.PAYGATE_FAULT_SPLIT_KILLS ?? 4)));
    await phase('tooLargePartsTrials', () =>
      tooLargePartsTrials({ ...suite, submit, bodyHash }, Number(process.env.PAYGATE_FAULT_413_PARTS ?? 4)),
    );
    await phase('concurrentTrials', () => concurrentTrials(4));
    // The team ledger on a real PostgreSQL server: the same faults across two members, races, kills, restarts.
    await phase('teamTrials', () =>
      teamTrials(suite, Number(process.env.PAYGATE_FAULT_TEAM_RACES ?? 20), Number(process.env.PAYGATE_FAULT_TEAM_KILLS ?? 4)),
    );
  } finally {
    await standIn.stop();
    rmSync(dir, { recursive: true, force: true });
  }
  // Across every trial: no client-orderid was created twice (the damage trials' --allow-resend aside).
  const doubleRows = standIn.doubleRows();
  // The count by row means something only if rows were counted: every accepted batch has four.
  check(standIn.rowsCreated.size >= 4 * 20, `the stand-in counted only ${standIn.rowsCreated.size} rows`);
  for (const [id, n] of doubleRows) tally.failures.push(`row ${id} was created ${n} times by the stand-in`);
  // And no payer (card) was created twice under another id without --allow-same-payer.
  const doublePayers = standIn.doublePayers();
  for (const [card, n] of doublePayers) tally.failures.push(`the payer of card ${card} was created ${n} times by the stand-in`);
  for (const f of tally.failures) console.log(`FAIL ${f}`);
  console.log(`kill -9: ${tally.killsAfterSending} of the kills landed after the batch reached the stand-in`);
  console.log(
    `kills of four parts (${tally.partsKills.length}): parts that had reached the stand-in per kill: ${tally.partsKills.join(', ')}; ${tally.resendsTaken} runs went on with --allow-resend`,
  );
  console.log(
    `kills of split (${tally.splitKills.length}): temporary files left per kill, each removed by the next split: ${tally.splitKills.join(', ')}; ${tally.splitPartial} left some parts visible`,
  );
  console.log(
    `${tally.trials} trials, ${tally.doubleSends} double sends, ${standIn.rowsCreated.size} rows created, ${doubleRows.length} of them twice, ` +
      `${standIn.payersCreated.size} payers (cards) created, ${doublePayers.length} of them twice (seed ${seed})`,
  );
  if (tally.failures.length > 0 || Date.now() > DEADLINE) process.exitCode = 1;
}

main().catch((err: unknown) => {
  console.error(err);
  console.log(`seed ${seed}`);
  process.exitCode = 1;
});
