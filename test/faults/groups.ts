// How `npm run test:faults` (run.ts) runs its trials side by side: in GROUPS processes (group.ts), each
// with its own stand-in gateway (its own port on 127.0.0.1), its own scratch folder and so its own ledger,
// which no trial of another group touches. The trials mostly wait (on the stand-in's slow answers, on
// processes they kill), so the groups together take about the longest group's time, not the sum. Each
// group prints its phases' lines and, last, its tally as one RESULT line; run.ts adds the tallies up into
// the same closing lines a single process printed. Nothing here imports the trials: run.ts must not make
// a stand-in or a scratch folder of its own.

/** The run's seed: PAYGATE_FAULT_SEED=N replays a run (each group draws from it, offset by its index). */
export const seed = Number(process.env.PAYGATE_FAULT_SEED ?? Date.now() % 1_000_000);

/** How many processes run the trials (group.ts names the phases of each). */
export const GROUPS = 3;

/** The line a group ends with: this, then its tally as JSON. */
export const RESULT = 'FAULT-GROUP-RESULT ';

/** A group's counts, as its process reports them. */
export interface GroupTally {
  trials: number;
  failures: string[];
  doubleSends: number;
  killsAfterSending: number;
  partsKills: number[];
  splitKills: number[];
  splitPartial: number;
  resendsTaken: number;
  /** Rows (client-orderids) and payers (cards) its stand-in created, and those it created more than once. */
  rowsCreated: number;
  doubleRows: [string, number][];
  payersCreated: number;
  doublePayers: [string, number][];
}

/** The share of `n` trials of one kind that group `g` runs: `n` split as evenly as it goes, the first groups one more. */
export function share(n: number, g: number, groups = GROUPS): number {
  return Math.floor(n / groups) + (g < n % groups ? 1 : 0);
}

/** The tally a group's output ends with, or undefined when it printed none (it crashed, or was killed). */
export function groupTally(output: string): GroupTally | undefined {
  const line = output
    .split('\n')
    .reverse()
    .find((l) => l.startsWith(RESULT));
  return line === undefined ? undefined : (JSON.parse(line.slice(RESULT.length)) as GroupTally);
}

/** The groups' tallies added up, in group order (the per-kill lists one after the other). */
export function addUp(tallies: GroupTally[]): GroupTally {
  const sum = (f: (t: GroupTally) => number) => tallies.reduce((a, t) => a + f(t), 0);
  return {
    trials: sum((t) => t.trials),
    failures: tallies.flatMap((t) => t.failures),
    doubleSends: sum((t) => t.doubleSends),
    killsAfterSending: sum((t) => t.killsAfterSending),
    partsKills: tallies.flatMap((t) => t.partsKills),
    splitKills: tallies.flatMap((t) => t.splitKills),
    splitPartial: sum((t) => t.splitPartial),
    resendsTaken: sum((t) => t.resendsTaken),
    rowsCreated: sum((t) => t.rowsCreated),
    doubleRows: tallies.flatMap((t) => t.doubleRows),
    payersCreated: sum((t) => t.payersCreated),
    doublePayers: tallies.flatMap((t) => t.doublePayers),
  };
}

/** The run's closing lines, from the added-up tally: the failures first, then the counts. */
export function closingLines(t: GroupTally, runSeed: number): string[] {
  return [
    ...t.failures.map((f) => `FAIL ${f}`),
    `kill -9: ${t.killsAfterSending} of the kills landed after the batch reached the stand-in`,
    `kills of four parts (${t.partsKills.length}): parts that had reached the stand-in per kill: ${t.partsKills.join(', ')}; ${t.resendsTaken} runs went on with --allow-resend`,
    `kills of split (${t.splitKills.length}): temporary files left per kill, each removed by the next split: ${t.splitKills.join(', ')}; ${t.splitPartial} left some parts visible`,
    `${t.trials} trials, ${t.doubleSends} double sends, ${t.rowsCreated} rows created, ${t.doubleRows.length} of them twice, ` +
      `${t.payersCreated} payers (cards) created, ${t.doublePayers.length} of them twice (seed ${runSeed})`,
  ];
}
