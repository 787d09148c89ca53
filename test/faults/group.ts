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
  standIn,
  submit,
  tally,
} from './common';
import { GROUPS, RESULT, share, type GroupTally } from './groups';

// One group of the fault suite's trials (groups.ts), in a process of its own that run.ts starts with
// PAYGATE_FAULT_GROUP=G: its own stand-in gateway, scratch folder and ledger (common.ts), the phases below
// that are G's, then its tally on one RESULT line. The trials live in answers.ts, kills.ts, identity.ts,
// tooLarge.ts and team.ts. Every loop is bounded in count and in time.

const group = Number(process.env.PAYGATE_FAULT_GROUP ?? 0);
const count = (name: string, fallback: number) => Number(process.env[name] ?? fallback);

/** Runs one phase of trials and says how long it took (wall and this process's CPU), to find the slow ones. */
async function phase(name: string, trials: () => Promise<unknown>): Promise<void> {
  const started = Date.now();
  const cpu = process.cpuUsage();
  await trials();
  const used = process.cpuUsage(cpu);
  console.log(
    `  ${name}: ${((Date.now() - started) / 1000).toFixed(1)} s wall, ${((used.user + used.system) / 1e6).toFixed(1)} s CPU in the group's process`,
  );
}

async function main(): Promise<void> {
  if (!Number.isInteger(group) || group < 0 || group >= GROUPS) throw new Error(`PAYGATE_FAULT_GROUP must be 0 to ${GROUPS - 1}`);
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
  const suite = { root, dir, standIn, env, batch, check, noDoubles, trial: () => ++tally.trials, exited, random, deadline: DEADLINE };
  // The kills of four parts are the longest phase (about 1.8 s a trial, waiting): each group takes a share.
  const parts = share(count('PAYGATE_FAULT_PART_KILLS', 50), group);
  // Each group about a third of a quiet run's wall time (the phases' own lines say how long each took).
  const phases: [string, () => Promise<unknown>][][] = [
    [
      ['answerTrials', () => answerTrials()],
      ['changedRowTrials', () => changedRowTrials()],
      ['idVariantTrials', () => idVariantTrials(suite, submit)],
      ['samePayerTrials', () => samePayerTrials(suite, submit)],
      ['symlinkedStateTrials', () => symlinkedStateTrials(suite)],
      ['partsKillTrials', () => partsKillTrials(parts)],
    ],
    [
      // The team ledger on a real PostgreSQL server: the same faults across two members, races, kills, restarts.
      ['teamTrials', () => teamTrials(suite, count('PAYGATE_FAULT_TEAM_RACES', 20), count('PAYGATE_FAULT_TEAM_KILLS', 4))],
      ['tooLargePartsTrials', () => tooLargePartsTrials({ ...suite, submit, bodyHash }, count('PAYGATE_FAULT_413_PARTS', 4))],
      ['concurrentTrials', () => concurrentTrials(4)],
      ['partsKillTrials', () => partsKillTrials(parts)],
    ],
    [
      ['diskTrials', () => diskTrials(environment)],
      ['damageTrials', () => damageTrials(count('PAYGATE_FAULT_DAMAGES', 6))],
      ['killTrials', () => killTrials(count('PAYGATE_FAULT_KILLS', 10))],
      ['splitKillTrials', () => splitKillTrials(count('PAYGATE_FAULT_SPLIT_KILLS', 4))],
      ['partsKillTrials', () => partsKillTrials(parts)],
    ],
  ];
  if (phases.length !== GROUPS) throw new Error(`${phases.length} groups of phases, groups.ts says ${GROUPS}`);
  try {
    for (const [name, trials] of phases[group]) await phase(name, trials);
  } finally {
    await standIn.stop();
    rmSync(dir, { recursive: true, force: true });
  }
  // Across the group's trials: no client-orderid was created twice (the damage trials' --allow-resend aside),
  // and no payer (card) twice under another id without --allow-same-payer.
  const doubleRows = standIn.doubleRows();
  for (const [id, n] of doubleRows) tally.failures.push(`row ${id} was created ${n} times by the stand-in`);
  const doublePayers = standIn.doublePayers();
  for (const [card, n] of doublePayers) tally.failures.push(`the payer of card ${card} was created ${n} times by the stand-in`);
  if (Date.now() > DEADLINE) tally.failures.push(`group ${group} ran past the suite's deadline`);
  const result: GroupTally = {
    ...tally,
    rowsCreated: standIn.rowsCreated.size,
    doubleRows,
    payersCreated: standIn.payersCreated.size,
    doublePayers,
  };
  console.log(`${RESULT}${JSON.stringify(result)}`);
  if (tally.failures.length > 0) process.exitCode = 1;
}

main().catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});
