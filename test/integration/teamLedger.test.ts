// The team ledger in a running editor (issue 41), against a throwaway PostgreSQL cluster this suite starts
// and stops (test/fixtures/postgres/cluster.ts): alice sends a batch from the CLI through the team ledger;
// the editor, with `paygate.ledger.url` naming bob's role, his password and the team key stored through
// the commands, refuses bob's copy (already-sent, naming alice), records bob's approval through
// "PayGate: Approve Batch", and fails closed (nothing sent, the ledger named, never the file ledger
// instead) when the password is wrong or the setting holds one.
import * as assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { prepareSubmission } from '../../src/core/gateway';
import type { ApproveCommandResult } from '../../src/extension/submit/approve';
import type { SubmitResult } from '../../src/extension/submit/submit';
import { ownPayers } from '../fixtures/ledger/payers';
import { createTeam, startCluster, type Cluster } from '../fixtures/postgres/cluster';
import { TEST_TIMEOUT_MS } from './wait';

const EXTENSION_ID = 'paygate.paygate-toolkit';
const PASSWORDS = { alice: 'alice-it:1', bob: 'bob it 2' } as const;

// eslint-disable-next-line no-restricted-syntax -- bounded: a command's arguments forwarded as they came
const run = <T>(command: string, ...args: unknown[]) => vscode.commands.executeCommand<T>(command, ...args);
const config = () => vscode.workspace.getConfiguration('paygate');

describe('the team ledger in the editor', function () {
  this.timeout(TEST_TIMEOUT_MS);
  let cluster: Cluster;
  let scratch = '';
  let root = '';
  let keyFile = '';
  let bobUrl = '';
  let copy: vscode.Uri;

  /**
   * `paygate` as a member runs it on their machine (this editor's local gateway state, their own data). Run
   * without blocking: the editor's local gateway answers from this very process, so a synchronous spawn
   * would keep it from answering the CLI's probe.
   */
  const paygate = (args: string[], env: Record<string, string>) =>
    new Promise<string>((resolve, reject) => {
      execFile(
        process.execPath,
        [path.join(root, 'dist', 'cli.js'), ...args],
        { cwd: scratch, env: { ...process.env, ...env }, encoding: 'utf8', timeout: 120_000 },
        (err, stdout, stderr) => {
          if (err)
            reject(new assert.AssertionError({ message: `paygate ${args.join(' ')}: ${stdout}${stderr}`, actual: err.code, expected: 0 }));
          else resolve(stdout);
        },
      );
    });
  const submissions = async () => (await cluster.sql('team', 'SELECT role FROM paygate_submissions ORDER BY seq')).map((r) => r.role);

  before(async function () {
    this.timeout(TEST_TIMEOUT_MS);
    const ext = vscode.extensions.getExtension(EXTENSION_ID);
    assert.ok(ext);
    await ext.activate();
    root = ext.extensionPath;
    scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'paygate-team-it-'));
    keyFile = path.join(scratch, 'team.key');
    cluster = await startCluster();
    await createTeam(cluster, PASSWORDS);
    await paygate(['ledger', 'init', '--ledger', cluster.adminUrl('team'), '--key-out', keyFile, '--grant', 'paygate_team'], {});
    const valid = fs.readFileSync(path.join(root, 'examples', 'valid.rpcsv'), 'utf8');
    // Cards of its own, so no other suite's send of the example is the same payer.
    const sent = ownPayers(valid.replace(/[A-Z]{3}-2027-/g, 'TEAMIT-'), 'TEAMIT');
    fs.mkdirSync(path.join(scratch, 'alice'));
    fs.writeFileSync(path.join(scratch, 'alice', 'team.rpcsv'), sent);
    await paygate(['submit', path.join(scratch, 'alice', 'team.rpcsv')], {
      PAYGATE_DATA_DIR: path.join(scratch, 'alice', 'data'),
      XDG_CONFIG_HOME: path.join(scratch, 'alice', 'config'),
      PAYGATE_LEDGER_URL: cluster.url('alice', PASSWORDS.alice, 'team'),
      PAYGATE_LEDGER_KEY_FILE: keyFile,
    });
    // bob's copy: the same rows, reordered, one description edited.
    const [head, ...rows] = sent.split(/(?<=\r\n)(?=TEAMIT-)/);
    fs.writeFileSync(
      path.join(scratch, 'team.rpcsv'),
      [head, ...rows.reverse()].join('').replace('Gym membership, monthly', 'Gym (monthly)'),
    );
    copy = vscode.Uri.file(path.join(scratch, 'team.rpcsv'));
    bobUrl = `postgres://bob@127.0.0.1:${cluster.port}/team`;
    await config().update('ledger.url', bobUrl, vscode.ConfigurationTarget.Global);
    const stored = await run<{ ok: boolean }>('paygate.ledger.setPassword', { password: PASSWORDS.bob });
    assert.equal(stored?.ok, true, JSON.stringify(stored));
    const imported = await run<{ ok: boolean }>('paygate.ledger.importKey', { file: keyFile });
    assert.equal(imported?.ok, true, JSON.stringify(imported));
  });

  after(async function () {
    this.timeout(TEST_TIMEOUT_MS);
    await config().update('ledger.url', undefined, vscode.ConfigurationTarget.Global);
    await cluster?.stop();
    if (scratch) fs.rmSync(scratch, { recursive: true, force: true });
  });

  it("refuses bob's copy of alice's rows with already-sent, naming alice; nothing more is recorded", async () => {
    assert.deepEqual(await submissions(), ['alice']);
    const r = await run<SubmitResult>('paygate.submit', copy, { sendRowsAgain: false });
    assert.equal(r?.status, 'refused', JSON.stringify(r));
    assert.equal(r.reason, 'already-sent');
    assert.match(
      r.message,
      /^Not sent: 4 rows of team\.rpcsv were already sent to local: client-orderid "TEAMIT-000\d" was already sent by alice from the CLI on /,
    );
    assert.deepEqual(await submissions(), ['alice']);
  });

  it('records bob\'s approval of the copy with "PayGate: Approve Batch"', async () => {
    const r = await run<ApproveCommandResult>('paygate.approve', copy, { environment: 'local' });
    assert.equal(r?.status, 'approved', JSON.stringify(r));
    assert.equal(r.role, 'bob');
    assert.equal(r.added, true);
    assert.deepEqual(
      r.approvals.map((a) => [a.role, a.mine]),
      [['bob', true]],
    );
    const rows = await cluster.sql('team', 'SELECT environment, role FROM paygate_approvals');
    assert.deepEqual(rows, [{ environment: 'local', role: 'bob' }]);
  });

  it('fails closed with a wrong password: nothing sent, the team ledger named, no file ledger instead', async () => {
    await run('paygate.ledger.setPassword', { password: 'not bob' });
    try {
      // Rows not to be sent again either way: a wrong store would refuse them, never send them.
      const r = await run<SubmitResult>('paygate.submit', copy, { sendRowsAgain: false });
      assert.equal(r?.status, 'refused', JSON.stringify(r));
      assert.equal(r.reason, 'ledger-failed');
      assert.match(r.message, /^Nothing was sent: the team ledger postgres:\/\/bob@127\.0\.0\.1:\d+\/team could not be used: .*password/);
      assert.ok(!r.message.includes('not bob'), 'no password in the message');
      assert.deepEqual(await submissions(), ['alice']);
    } finally {
      await run('paygate.ledger.setPassword', { password: PASSWORDS.bob });
    }
  });

  it('refuses a setting that holds a password, naming the setting', async () => {
    await config().update('ledger.url', cluster.url('bob', PASSWORDS.bob, 'team'), vscode.ConfigurationTarget.Global);
    try {
      // Rows not to be sent again either way: a wrong store would refuse them, never send them.
      const r = await run<SubmitResult>('paygate.submit', copy, { sendRowsAgain: false });
      assert.equal(r?.status, 'refused', JSON.stringify(r));
      assert.equal(r.reason, 'ledger-failed');
      assert.match(r.message, /the setting "paygate\.ledger\.url" holds a password/);
      assert.ok(!r.message.includes(PASSWORDS.bob), 'no password in the message');
      assert.deepEqual(await submissions(), ['alice']);
    } finally {
      await config().update('ledger.url', bobUrl, vscode.ConfigurationTarget.Global);
    }
  });

  it('an environment with "approvals": 1 sends only once another member approved; the confirmation is then asked', async () => {
    await config().update(
      'environments',
      [
        {
          name: 'team-env',
          baseUrl: 'http://127.0.0.1:9/paygate',
          reportBaseUrl: 'http://127.0.0.1:9',
          endpointId: '4242',
          consumerKey: 'team',
          approvals: 1,
        },
      ],
      vscode.ConfigurationTarget.Global,
    );
    try {
      await run('paygate.setConsumerSecret', { environment: 'team-env', secret: 'team-secret' });
      const valid = fs.readFileSync(path.join(root, 'examples', 'valid.rpcsv'), 'utf8');
      const text = ownPayers(valid.replace(/[A-Z]{3}-2027-/g, 'TEAMAPP-'), 'TEAMAPP');
      fs.writeFileSync(path.join(scratch, 'approve-me.rpcsv'), text);
      const file = vscode.Uri.file(path.join(scratch, 'approve-me.rpcsv'));
      const submit = () => run<SubmitResult>('paygate.submit', file, { environment: 'team-env', confirm: false });

      const none = await submit();
      assert.equal(none?.status === 'refused' && none.reason, 'needs-approval', JSON.stringify(none));
      const own = await run<ApproveCommandResult>('paygate.approve', file, { environment: 'team-env' });
      assert.equal(own?.status, 'approved', JSON.stringify(own));
      const mine = await submit();
      assert.equal(mine?.status === 'refused' && mine.reason, 'needs-approval', JSON.stringify(mine));
      assert.match(mine.status === 'refused' ? mine.message : '', /your own approval does not count/);

      // alice's approval of this exact content, as `paygate approve` on her machine records it.
      await cluster.sql(
        'team',
        `INSERT INTO paygate_approvals (environment, content_hash, role, host) VALUES ('team-env', $1, 'alice', 'laptop')`,
        [prepareSubmission(text).contentHash],
      );
      // Approved by another member: the send goes as far as its confirmation (which lists the approvals; an
      // environment without approvals and not production asks none), here declined: nothing is sent.
      const approved = await submit();
      assert.equal(approved?.status === 'refused' && approved.reason, 'not-confirmed', JSON.stringify(approved));
      assert.deepEqual(await submissions(), ['alice']);
    } finally {
      await config().update('environments', undefined, vscode.ConfigurationTarget.Global);
    }
  });
});
