import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runLedger, runSubmit } from '../fixtures/cli/commands';
import { testContext } from '../fixtures/cli/context';
import { createTeam, startCluster, type Cluster } from '../fixtures/postgres/cluster';
import { MODEL } from './model';
import type { Fault, StandIn } from './standIn';
import { paygateArgs } from '../fixtures/cli/bin';

// The fault suite's trials with the team ledger on a real PostgreSQL server (a throwaway cluster): two
// members (two data folders, two database roles, one team key) send through the same stand-in gateway.
// Each gateway fault hit by one member, then the other's plain re-run (the model's answer, across
// machines); races of files sharing a row; kill -9 of a real `paygate submit` after its request arrived,
// then the other member's re-run; the database stopped while a send waits for its answer (the answer
// cannot be recorded: "sending" stays, and the re-run is refused) and while nothing is sent (refused, nothing
// sent). The suite's own checks count every batch and row at the stand-in.

export interface Suite {
  root: string;
  dir: string;
  standIn: StandIn;
  /** The CLI's environment of the suite (config, secret) for a ledger directory. */
  env(data: string): Record<string, string>;
  batch(tag: string, edit?: (text: string) => string): { file: string; hash: string };
  check(ok: boolean, what: string): void;
  noDoubles(hash: string, what: string): void;
  trial(): number;
  exited(child: ReturnType<typeof spawn>, ms: number): Promise<number | null>;
  random(): number;
  deadline: number;
}

const MEMBERS = { alice: 'alice-pw', bob: 'bob-pw' } as const;
type Member = keyof typeof MEMBERS;

export async function teamTrials(s: Suite, races: number, kills: number): Promise<void> {
  const cluster = await startCluster();
  try {
    await createTeam(cluster, MEMBERS);
    const keyFile = join(s.dir, 'team.key');
    const init = await runLedger(
      ['init', '--ledger', cluster.adminUrl('team'), '--key-out', keyFile, '--grant', 'paygate_team'],
      testContext({ env: s.env(join(s.dir, 'team-admin')), cwd: s.dir }),
    );
    s.check(init === 0, `team: ledger init ended ${init}`);
    const env = (who: Member) => ({
      ...s.env(join(s.dir, `team-${who}`)),
      PAYGATE_LEDGER_URL: cluster.url(who, MEMBERS[who], 'team'),
      PAYGATE_LEDGER_KEY_FILE: keyFile,
    });
    const submit = async (who: Member, file: string) => {
      let out = '';
      let err = '';
      const ctx = testContext({ stdout: (t) => void (out += t), stderr: (t) => void (err += t), env: env(who), cwd: s.dir });
      return { code: await runSubmit([file], ctx), out, err };
    };
    await faultTrials(s, submit);
    await raceTrials(s, submit, races);
    await killTrials(s, env, submit, kills);
    await restartTrials(s, cluster, submit);
  } finally {
    await cluster.stop();
  }
}

type Submit = (who: Member, file: string) => Promise<{ code: number; out: string; err: string }>;

/** Each gateway fault hit by alice, then bob's plain re-run of the same file: as the model says. */
async function faultTrials(s: Suite, submit: Submit): Promise<void> {
  const faults = Object.keys(MODEL) as Fault[];
  faults.sort(() => s.random() - 0.5);
  for (const fault of faults) {
    if (Date.now() > s.deadline) return;
    const n = s.trial();
    const { file, hash } = s.batch(`ta${n}`);
    s.standIn.plan = [fault];
    const first = await submit('alice', file);
    const m = MODEL[fault];
    s.check(m.exits.includes(first.code), `team ${fault}: exit ${first.code}, the model says ${m.exits.join(' or ')} (${first.err})`);
    s.standIn.plan = ['ok'];
    const again = await submit('bob', file);
    const sent = again.code !== 2;
    if (m.rerunSends !== 'either')
      s.check(sent === m.rerunSends, `team ${fault}: bob's plain re-run ${sent ? 'was sent' : 'was refused'} (${again.err})`);
    if (!sent) s.check(/by alice from the CLI/.test(again.err), `team ${fault}: the refusal does not name alice: ${again.err}`);
    s.noDoubles(hash, `team ${fault}`);
  }
}

/** Alice and bob at once, with files sharing one row: exactly one sends. */
async function raceTrials(s: Suite, submit: Submit, races: number): Promise<void> {
  for (let i = 0; i < races && Date.now() < s.deadline; i++) {
    const n = s.trial();
    const full = readFileSync(s.batch(`tr${n}`).file, 'utf8');
    const [head, ...rows] = full.split(/(?<=\r\n)(?=[A-Z])/);
    const a = join(s.dir, `tr${n}-a.rpcsv`);
    const b = join(s.dir, `tr${n}-b.rpcsv`);
    writeFileSync(a, head + rows[0] + rows[1]);
    writeFileSync(b, head + rows[1] + rows[2]);
    s.standIn.plan = [];
    // Who starts first, seeded.
    const aliceFirst = s.random() < 0.5;
    const pa = aliceFirst ? submit('alice', a) : undefined;
    const pb = submit('bob', b);
    const [ra, rb] = await Promise.all([pa ?? submit('alice', a), pb]);
    const codes = [ra.code, rb.code].sort().join(',');
    s.check(codes === '0,2', `team race ${n}: exits ${codes}, want one 0 and one 2 (${ra.err} ${rb.err})`);
  }
}

/** kill -9 of alice's real `paygate submit` after the request arrived; bob's re-run is refused. */
async function killTrials(s: Suite, env: (who: Member) => Record<string, string>, submit: Submit, kills: number): Promise<void> {
  for (let i = 0; i < kills && Date.now() < s.deadline; i++) {
    const n = s.trial();
    const { file, hash } = s.batch(`tk${n}`);
    s.standIn.plan = ['slow-ok'];
    const child = spawn(process.execPath, [...paygateArgs(), 'submit', file], {
      cwd: s.dir,
      env: { ...process.env, ...env('alice') },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const done = s.exited(child, 60_000);
    const at = Math.floor(s.random() * 400);
    let timer: NodeJS.Timeout | undefined;
    void Promise.race([s.standIn.arrived(hash), done]).then(() => (timer = setTimeout(() => child.kill('SIGKILL'), at)));
    await done;
    clearTimeout(timer);
    const reached = s.standIn.count(hash) > 0;
    s.standIn.plan = ['ok'];
    const again = await submit('bob', file);
    if (reached) {
      s.check(again.code === 2, `team kill ${at} ms after the request arrived: bob's re-run was not refused (${again.err})`);
      s.check(/by alice/.test(again.err), `team kill: the refusal does not name alice: ${again.err}`);
    }
    s.noDoubles(hash, `team kill ${at} ms`);
  }
}

/**
 * The database stopped while a send waits for the gateway's answer: the answer cannot be recorded, the
 * record stays "sending", and once the database is back the other member's re-run is refused. Stopped
 * before a send: refused, nothing reaches the stand-in; back, it sends.
 */
async function restartTrials(s: Suite, cluster: Cluster, submit: Submit): Promise<void> {
  const n = s.trial();
  const { file, hash } = s.batch(`ts${n}`);
  s.standIn.plan = ['slow-ok'];
  const stopped = s.standIn.arrived(hash).then(() => cluster.stopServer());
  const first = await submit('alice', file);
  await stopped;
  s.check(/could not be recorded/.test(first.err), `team restart mid-send: alice was not told the answer is unrecorded (${first.err})`);
  const m = s.trial();
  const down = s.batch(`ts${m}`);
  const refused = await submit('bob', down.file);
  s.check(refused.code === 2 && s.standIn.count(down.hash) === 0, `team database down: bob's send ended ${refused.code} (${refused.err})`);
  await cluster.startServer();
  s.standIn.plan = ['ok'];
  const again = await submit('bob', file);
  s.check(
    again.code === 2 && /still being sent|interrupted|no answer recorded/.test(again.err),
    `team restart: bob's re-run (${again.err})`,
  );
  s.noDoubles(hash, 'team restart mid-send');
  const back = await submit('bob', down.file);
  s.check(back.code === 0, `team database back: bob's send ended ${back.code} (${back.err})`);
  s.noDoubles(down.hash, 'team database back');
}
