// already-sent from the team ledger in the language server, as the editor's client names it (the target's
// `team`: the URL, and the password and team key from the editor's secret storage) and as `paygate lsp`
// beside $PAYGATE_LEDGER_URL does: a teammate's (alice's) send, read by bob's server against a throwaway
// PostgreSQL cluster, puts already-sent on the rows naming alice; a team ledger that cannot be reached is
// said ("the resend guard could not be checked"), never taken as "nothing was sent".
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import path from 'node:path';
import { ShowMessageRequest, type ShowMessageRequestParams } from 'vscode-languageserver-protocol';
import { prepareSubmission } from '../../src/core/gateway';
import { guardedSend } from '../../src/core/ledger';
import { writeNewTeamKey } from '../../src/core/ledger/team/key';
import { TeamLedger } from '../../src/core/ledger/team/teamLedger';
import { LEDGER_TARGET_NOTIFICATION } from '../../src/shared/lintProtocol';
import { PROCESS_MS } from '../fixtures/deadlines';
import { newSubmission } from '../fixtures/ledger/entry';
import { ownPayers } from '../fixtures/ledger/payers';
import { demoEndpointId, loadOrCreateDemoMerchant } from '../../src/local-gateway/merchant';
import { startCluster, type Cluster } from '../fixtures/postgres/cluster';
import { CLI, LANGUAGE_ID, messageText, ROOT, TestClient } from './client';

const valid = readFileSync(path.join(ROOT, 'examples', 'valid.rpcsv'), 'utf8');
const sentText = valid.replace(/[A-Z]{3}-2027-/g, 'TEAM-');
/** alice's send to the local gateway of a state directory, which `paygate lsp` beside $PAYGATE_LEDGER_URL checks. */
const localText = ownPayers(valid.replace(/[A-Z]{3}-2027-/g, 'TEAMLOC-'), 'TEAMLOC');
const PASSWORDS = { alice: 'alice-lsp-1', bob: 'bob lsp:2' } as const;

describe('the team ledger in the language server', { timeout: PROCESS_MS }, () => {
  let cluster: Cluster;
  let client: TestClient;
  let dir: string;
  let keyHex: string;
  let keyFile: string;
  let stateDir: string;
  const target = (team: { url: string; password?: string; key?: string }) => ({
    directory: dir,
    environment: 'local',
    endpointId: '1001',
    team,
  });

  before(async () => {
    assert.ok(existsSync(CLI), `${CLI} is built (npm run build)`);
    dir = mkdtempSync(path.join(tmpdir(), 'paygate-lsp-team-'));
    cluster = await startCluster();
    for (const [role, pw] of Object.entries(PASSWORDS)) await cluster.createRole(role, pw);
    await cluster.createDatabase('team', ['alice']);
    const key = writeNewTeamKey(path.join(dir, 'team.key'));
    keyHex = readFileSync(key.file, 'utf8').trim();
    keyFile = key.file;
    stateDir = path.join(dir, 'state');
    loadOrCreateDemoMerchant(stateDir);
    // alice, from the CLI on her machine: the ledger made, then her send of the batch.
    const alice = new TeamLedger({ url: new URL(cluster.url('alice', PASSWORDS.alice, 'team')), env: {}, home: dir, key });
    try {
      await alice.init(key, ['bob']);
      const prepared = prepareSubmission(sentText);
      const sent = await guardedSend({
        ledger: alice,
        entry: newSubmission({ face: 'cli', contentHash: prepared.contentHash, rowCount: prepared.rowCount }),
        batch: prepared.lint.batch,
        send: async () => 'sent',
        completion: () => ({ outcome: 'accepted', serialNumbers: ['s-team-1'] }),
      });
      assert.equal(sent.status, 'sent');
      const local = prepareSubmission(localText);
      const toLocal = await guardedSend({
        ledger: alice,
        entry: newSubmission({
          face: 'cli',
          contentHash: local.contentHash,
          rowCount: local.rowCount,
          endpointId: demoEndpointId(stateDir),
          localGateway: { stateDir, startId: '' },
        }),
        batch: local.lint.batch,
        send: async () => 'sent',
        completion: () => ({ outcome: 'accepted', serialNumbers: ['s-team-2'] }),
      });
      assert.equal(toLocal.status, 'sent');
    } finally {
      await alice.close();
    }
    client = new TestClient();
    await client.initialize({ textDocument: { synchronization: { didSave: true } } });
  });

  after(async () => {
    await client?.stop();
    await cluster?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  const open = (name: string, text: string) => {
    const uri = `file:///nowhere/${name}`;
    void client.connection.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: LANGUAGE_ID, version: 1, text } });
    return uri;
  };

  it("puts already-sent on bob's copy of the rows alice sent, naming her", async () => {
    // The password as the editor's secret storage gives it, not in the URL.
    const url = cluster.url('bob', PASSWORDS.bob, 'team').replace(`:${encodeURIComponent(PASSWORDS.bob)}@`, '@');
    await client.connection.sendNotification(LEDGER_TARGET_NOTIFICATION, target({ url, password: PASSWORDS.bob, key: keyHex }));
    const rows = sentText.split(/(?<=\r\n)(?=TEAM-)/);
    const uri = open('copy.rpcsv', [rows[0], rows[2], rows[1]].join(''));
    const { diagnostics } = await client.diagnostics(
      uri,
      'two already-sent',
      (p) => p.diagnostics.filter((d) => d.code === 'already-sent').length === 2,
    );
    for (const d of diagnostics.filter((x) => x.code === 'already-sent'))
      assert.match(
        messageText(d),
        new RegExp(
          `^client-orderid "TEAM-000\\d" was already sent by alice from the CLI on ${hostname()} on .* to local, endpoint 1001 \\(serial-number s-team-1, accepted\\)`,
        ),
      );
    assert.ok(!client.stderr.includes(PASSWORDS.bob), 'no password in the server output');
  });

  it('says the resend guard could not be checked when the team ledger cannot be reached', async () => {
    const said: ShowMessageRequestParams[] = [];
    let heard: () => void = () => undefined;
    const warned = new Promise<void>((resolve) => (heard = resolve));
    // The server's window/showMessageRequest (vscode-languageserver's showWarningMessage), answered with no action.
    client.connection.onRequest(ShowMessageRequest.type, (p) => {
      said.push(p);
      if (/resend guard could not be checked/.test(p.message)) heard();
      return null;
    });
    // A port where nothing listens: the cluster's own, once it is stopped.
    await cluster.stopServer();
    try {
      const url = `postgres://bob@127.0.0.1:${cluster.port}/team`;
      await client.connection.sendNotification(LEDGER_TARGET_NOTIFICATION, target({ url, password: PASSWORDS.bob, key: keyHex }));
      open('later.rpcsv', sentText);
      let timer: ReturnType<typeof setTimeout> | undefined;
      await Promise.race([
        warned,
        new Promise((_, reject) => (timer = setTimeout(() => reject(new Error(`no warning; said: ${JSON.stringify(said)}`)), 120_000))),
      ]).finally(() => clearTimeout(timer));
      const warning = said.find((p) => /resend guard could not be checked/.test(p.message))!;
      assert.equal(warning.type, 2, 'a warning');
      assert.match(
        warning.message,
        /^PayGate: the team ledger postgres:\/\/bob@127\.0\.0\.1:\d+\/team could not be used: connection refused .*; the resend guard could not be checked \(already-sent and cvv-after-send are not checked\)$/,
      );
      assert.ok(!warning.message.includes(PASSWORDS.bob), 'no password in the message');
    } finally {
      await cluster.startServer();
    }
  });

  it('paygate lsp beside $PAYGATE_LEDGER_URL and $PAYGATE_LEDGER_KEY_FILE reads the team ledger as submit does', async () => {
    const beside = new TestClient([CLI, 'lsp', '--stdio'], {
      PAYGATE_STATE_DIR: stateDir,
      PAYGATE_LEDGER_URL: cluster.url('bob', PASSWORDS.bob, 'team'),
      PAYGATE_LEDGER_KEY_FILE: keyFile,
    });
    try {
      await beside.initialize({ textDocument: { synchronization: { didSave: true } } });
      const uri = 'file:///nowhere/local-copy.rpcsv';
      void beside.connection.sendNotification('textDocument/didOpen', {
        textDocument: { uri, languageId: LANGUAGE_ID, version: 1, text: localText },
      });
      const { diagnostics } = await beside.diagnostics(
        uri,
        'four already-sent',
        (p) => p.diagnostics.filter((d) => d.code === 'already-sent').length === 4,
      );
      assert.match(
        messageText(diagnostics.find((d) => d.code === 'already-sent')!),
        /was already sent by alice from the CLI on .*serial-number s-team-2/,
      );
      assert.ok(!beside.stderr.includes(PASSWORDS.bob), 'no password in the server output');
    } finally {
      await beside.stop();
    }
  });
});
