import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { addUp, closingLines, groupTally, GROUPS, RESULT, seed, type GroupTally } from './groups';

// `npm run test:faults`: the money path under every modelled fault. A scripted stand-in gateway, a file
// system that fails the Nth write, kill -9 of real `paygate submit` processes at seeded random moments, and
// concurrent submitters of one file. Every trial checks, from the stand-in's own count (by body hash),
// that no batch was created twice without --allow-resend, and that what the merchant was told matches the
// fault model; and, from the stand-in's count by client-orderid, that no row was created twice either: a
// resend with one row changed is refused after every fault that may have created the rows. PAYGATE_FAULT_SEED=N
// replays a run. Every loop is bounded in count and in time.
// The trials run in GROUPS processes side by side (groups.ts, group.ts), each with its own stand-in and
// ledger; this adds their tallies up. Each group's lines are printed whole, in group order, once all ended.

/** A group's process past this is killed and fails the run (each group stops starting trials at 600 s). */
const GROUP_DEADLINE_MS = 720_000;

function runGroup(group: number): Promise<{ output: string; code: number | null; tally?: GroupTally }> {
  const child = spawn(process.execPath, ['--import', 'tsx', join(__dirname, 'group.ts')], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, PAYGATE_FAULT_SEED: String(seed), PAYGATE_FAULT_GROUP: String(group) },
  });
  let output = '';
  child.stdout.on('data', (b: Buffer) => (output += b.toString()));
  child.stderr.on('data', (b: Buffer) => (output += b.toString()));
  const timer = setTimeout(() => {
    output += `group ${group} did not end within ${GROUP_DEADLINE_MS / 1000} s: killed\n`;
    child.kill('SIGKILL');
  }, GROUP_DEADLINE_MS);
  return new Promise((resolve) => {
    child.once('error', (err) => (output += `group ${group} did not start: ${err.message}\n`));
    child.once('close', (code) => {
      clearTimeout(timer);
      resolve({ output, code, tally: groupTally(output) });
    });
  });
}

async function main(): Promise<void> {
  console.log(`paygate fault suite, seed ${seed} (PAYGATE_FAULT_SEED=${seed} replays it), ${GROUPS} groups of trials side by side`);
  const groups = await Promise.all(Array.from({ length: GROUPS }, (_, g) => runGroup(g)));
  const tallies: GroupTally[] = [];
  const failures: string[] = [];
  groups.forEach((g, i) => {
    console.log(`group ${i}:`);
    const shown = g.output
      .split('\n')
      .filter((l) => !l.startsWith(RESULT))
      .join('\n')
      .trimEnd();
    if (shown !== '') console.log(shown);
    if (g.tally) tallies.push(g.tally);
    else failures.push(`group ${i} ended (exit ${g.code}) without its tally`);
  });
  const added = addUp(tallies);
  const t = { ...added, failures: [...failures, ...added.failures] };
  // The count by row means something only if rows were counted: every accepted batch has four.
  if (t.rowsCreated < 4 * 20) t.failures.push(`the stand-ins counted only ${t.rowsCreated} rows`);
  for (const line of closingLines(t, seed)) console.log(line);
  if (t.failures.length > 0 || groups.some((g) => g.code !== 0)) process.exitCode = 1;
}

main().catch((err: unknown) => {
  console.error(err);
  console.log(`seed ${seed}`);
  process.exitCode = 1;
});
