import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { after, before, test } from 'node:test';
import { lintCommand } from '../../src/cli/commands/lint';
import type { CliContext } from '../../src/cli/context';
import { runCommand } from '../../src/cli/parser';
import { startLocalGateway, type LocalGateway } from '../../src/local-gateway';
import { runLedger, runSubmit } from '../fixtures/cli/commands';
import { testContext } from '../fixtures/cli/context';
import { PROCESS_MS } from '../fixtures/deadlines';
import { createTeam, startCluster, type Cluster } from '../fixtures/postgres/cluster';
import { ownPayers } from '../fixtures/ledger/payers';

// same-payer with the team ledger (PostgreSQL, a throwaway cluster): the store answers the lookup by card
// and schedule from its sent batch rows, so bob, on his own machine, is told (lint) and refused (submit)
// when he sends alice's payers under new ids, with the earlier id, who sent it and which submission; he
// sends on purpose with --allow-same-payer. Before the rule, bob's renamed batch was accepted.

const root = join(__dirname, '..', '..');
const validCsv = readFileSync(join(root, 'examples', 'valid.rpcsv'), 'utf8');
const PASSWORDS = { alice: 'alice-pw-1', bob: 'bob-pw-2' } as const;
type Member = keyof typeof PASSWORDS;
let dir: string;
let cluster: Cluster;
let gw: LocalGateway;
let keyFile: string;

function member(who: Member): Record<string, string> {
  const home = join(dir, who);
  return {
    HOME: home,
    PAYGATE_DATA_DIR: join(home, 'data'),
    XDG_CONFIG_HOME: join(home, 'config'),
    PAYGATE_STATE_DIR: join(dir, 'state'),
    PAYGATE_LEDGER_URL: cluster.url(who, PASSWORDS[who], 'team'),
    PAYGATE_LEDGER_KEY_FILE: keyFile,
    PAYGATE_LEDGER_TIMEOUT_MS: '20000',
  };
}

async function run(fn: (args: string[], ctx: CliContext) => Promise<number>, args: string[], env: Record<string, string>) {
  let out = '';
  let err = '';
  const ctx = testContext({ stdout: (t) => void (out += t), stderr: (t) => void (err += t), env, cwd: dir });
  return { code: await fn(args, ctx), out, err };
}

function batch(name: string, id: (n: string) => string): string {
  writeFileSync(
    join(dir, name),
    validCsv.replace(/[A-Z]{3}-2027-(\d{4})/g, (_, n: string) => id(n)),
  );
  return name;
}

const local = () => ['--base-url', gw.baseUrl];
const runLint = (args: string[], ctx: CliContext) => runCommand(lintCommand, args, ctx);

before(
  async () => {
    dir = mkdtempSync(join(tmpdir(), 'paygate-team-same-payer-'));
    for (const m of Object.keys(PASSWORDS)) mkdirSync(join(dir, m), { recursive: true });
    keyFile = join(dir, 'team.key');
    cluster = await startCluster();
    await createTeam(cluster, PASSWORDS);
    const admin = { HOME: join(dir, 'admin'), XDG_CONFIG_HOME: join(dir, 'admin', 'config') };
    const init = await run(
      runLedger,
      ['init', '--ledger', cluster.adminUrl('team'), '--key-out', keyFile, '--grant', 'paygate_team'],
      admin,
    );
    assert.equal(init.code, 0, init.err);
    gw = await startLocalGateway({ stateDir: join(dir, 'state'), port: 0 });
  },
  { timeout: PROCESS_MS },
);

after(
  async () => {
    await gw?.close();
    await cluster?.stop();
    rmSync(dir, { recursive: true, force: true });
  },
  { timeout: PROCESS_MS },
);

test(
  "bob sends alice's payers under -RENEW ids: lint warns naming alice's id, submit refuses, --allow-same-payer sends",
  { timeout: PROCESS_MS },
  async () => {
    const alice = await run(runSubmit, [batch('march.rpcsv', (n) => `MAR-${n}`), ...local()], member('alice'));
    assert.equal(alice.code, 0, alice.err);
    assert.equal(gw.payments().length, 4);

    const renewed = batch('renew.rpcsv', (n) => `MAR-${n}-RENEW`);
    const lint = await run(runLint, [renewed, '--no-git', '--format', 'json'], member('bob'));
    assert.equal(lint.code, 0, lint.err);
    const found = (
      JSON.parse(lint.out) as { files: { diagnostics: { code: string; line: number; message: string }[] }[] }
    ).files[0].diagnostics.filter((d) => d.code === 'same-payer');
    assert.deepEqual(
      found.map((d) => d.line),
      [2, 3, 4, 6],
    );
    assert.match(
      found[0].message,
      /already sent by alice from the CLI on .* under client-orderid "MAR-0001" \(submission of "march\.rpcsv"/,
    );

    const refused = await run(runSubmit, [renewed, ...local()], member('bob'));
    assert.equal(refused.code, 2, refused.err);
    assert.match(refused.err, /renew\.rpcsv:2: same-payer: .*by alice .*"MAR-0001"/);
    assert.equal(gw.payments().length, 4, 'nothing created');

    // Another card on every row: not the same payers.
    writeFileSync(join(dir, 'other.rpcsv'), ownPayers(readFileSync(join(dir, renewed), 'utf8').replaceAll('-RENEW', '-OTHER'), 'other'));
    const other = await run(runSubmit, ['other.rpcsv', ...local()], member('bob'));
    assert.equal(other.code, 0, other.out + other.err);

    const sent = await run(runSubmit, [renewed, ...local(), '--allow-same-payer'], member('bob'));
    assert.equal(sent.code, 0, sent.err);
    assert.equal(gw.payments().length, 12);
  },
);
