import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { startLocalGateway, type LocalGateway } from '../../src/local-gateway';
import { REPORT_COLUMNS } from '../../src/local-gateway/report';
import { Ledger, type SubmissionRecord } from '../../src/core/ledger';
import type { LocalGatewayInfo } from '../../src/extension/environments/localGateway';
import type { ReportResult } from '../../src/extension/report/run';
import type { SetSecretResult } from '../../src/extension/environments/secrets';
import type { SignatureDetailsResult } from '../../src/extension/submit/signatureDetails';
import type { SelectEnvironmentResult } from '../../src/extension/environments/statusBar';
import type { SubmitResult } from '../../src/extension/submit/submit';
import type { NewReportTemplateResult } from '../../src/extension/report/templates';
import type { SubmissionView } from '../../src/shared/submissionView';
import { TEST_TIMEOUT_MS, until } from './wait';

// The gateway commands against real local gateways: the extension's own built-in `local` one, and one
// this suite starts itself (as a settings environment named TEST_ENV) so secrets set through the commands
// can be checked by whether the gateway accepts the signature. Dialogs are answered through the commands'
// option arguments, so nothing waits for a person.

const EXTENSION_ID = 'paygate.paygate-toolkit';
const TEST_ENV = 'it-loopback';
const VALID_CARDS = ['4111111111111111', '5555555555554444'];
const CVV = '737';

let root: string;
let scratch: string;
let own: LocalGateway;
let ledgerFile: string;

const fixture = (name: string) => vscode.Uri.file(path.join(root, 'test', 'fixtures', 'gateway-ext', name));
// eslint-disable-next-line no-restricted-syntax -- bounded: a command's arguments forwarded as they came
const run = <T>(command: string, ...args: unknown[]) => vscode.commands.executeCommand<T>(command, ...args);
const config = () => vscode.workspace.getConfiguration('paygate');

/** The ledger's records, newest first, as the Submissions view shows them. */
async function ledgerRecords(file: string): Promise<SubmissionRecord[]> {
  return new Ledger(path.dirname(file)).list();
}

/** Probes until `check` gives a value, waking when the tabs, the visible editors or the diagnostics change. */
function eventually<T>(what: string, check: () => T | undefined | Promise<T | undefined>): Promise<T> {
  const events = [
    vscode.window.tabGroups.onDidChangeTabs,
    vscode.window.onDidChangeVisibleTextEditors,
    vscode.languages.onDidChangeDiagnostics,
  ];
  return until(what, check, { events });
}

function sent(r: SubmitResult | undefined): Extract<SubmitResult, { status: 'sent' }> {
  assert.ok(r, 'the command returned nothing');
  assert.equal(r.status, 'sent', `not sent: ${JSON.stringify(r)}`);
  return r as Extract<SubmitResult, { status: 'sent' }>;
}

async function documentText(uri: vscode.Uri): Promise<string> {
  return (await vscode.workspace.openTextDocument(uri)).getText();
}

describe('gateway commands', function () {
  this.timeout(TEST_TIMEOUT_MS);

  before(async () => {
    const ext = vscode.extensions.getExtension(EXTENSION_ID);
    assert.ok(ext, `${EXTENSION_ID} is not installed`);
    await ext.activate();
    root = ext.extensionPath;
    scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'paygate-gateway-it-'));
    own = await startLocalGateway({ stateDir: path.join(scratch, 'own-gateway'), port: 0 });
    await config().update(
      'environments',
      [
        {
          name: TEST_ENV,
          baseUrl: own.baseUrl,
          reportBaseUrl: own.reportBaseUrl,
          endpointId: own.environment.endpointId,
          consumerKey: own.merchant.consumerKey,
          production: true,
        },
      ],
      vscode.ConfigurationTarget.Global,
    );
    await run('paygate.selectEnvironment', 'local');
    assert.equal(await run<boolean>('paygate.history.clear', { confirm: true }), true);
  });

  after(async () => {
    await run('paygate.selectEnvironment', 'local');
    await config().update('environments', undefined, vscode.ConfigurationTarget.Global);
    await own?.close();
    fs.rmSync(scratch, { recursive: true, force: true });
  });

  describe('local gateway', () => {
    it('starts on 127.0.0.1, stops, and starts again', async () => {
      const started = await run<LocalGatewayInfo>('paygate.startLocalGateway');
      assert.equal(started?.running, true);
      assert.match(started.baseUrl ?? '', /^http:\/\/127\.0\.0\.1:\d+\//);
      assert.equal(await run<boolean>('paygate.stopLocalGateway'), true);
      assert.equal(await run<boolean>('paygate.stopLocalGateway'), false, 'a second stop finds nothing running');
      const again = await run<LocalGatewayInfo>('paygate.startLocalGateway');
      assert.equal(again?.running, true);
    });
  });

  describe('submit to local', () => {
    let first: Extract<SubmitResult, { status: 'sent' }>;

    it('sends the valid fixture and records ids and a serial number', async () => {
      first = sent(await run<SubmitResult>('paygate.submit', fixture('valid.rpcsv'), { sendSamePayer: true }));
      ledgerFile = first.ledgerFile;
      assert.equal(first.outcome, 'accepted', JSON.stringify(first.record));
      const r = first.record;
      assert.equal(r.state, 'done');
      assert.equal(r.environment, 'local');
      assert.equal(r.rowCount, 2);
      assert.equal(r.recurringPaymentIds.length, 2, 'one id per row');
      assert.equal(r.serialNumbers.length, 1);
      assert.match(r.contentHash, /^[0-9a-f]{64}$/);
      assert.match(r.endpoint, /\/api\/v4\/create-recurring-payments\/[^/]+\/$/);
      assert.equal(r.signatureMethod, 'RSA-SHA256');
    });

    it('keeps the record on disk without card numbers or the CVV', async () => {
      const text = fs.readFileSync(first.ledgerFile, 'utf8');
      const records = await ledgerRecords(first.ledgerFile);
      const onDisk = records.find((x) => x.id === first.record.id);
      assert.ok(onDisk, 'the record is in the ledger');
      assert.deepEqual(onDisk.recurringPaymentIds, first.record.recurringPaymentIds);
      for (const card of VALID_CARDS) assert.ok(!text.includes(card), `card number ${card.slice(0, 6)}… in the history`);
      // Ids, times, the endpoint's port and sequence numbers are made of digits of their own: the CVV
      // would show as a value of its own (a message, a field), so it is looked for as a whole token there.
      const { contentHash: _hash, pid: _pid, id: _id, time: _time, completedAt: _done, endpoint: _endpoint, seq: _seq, ...rest } = onDisk;
      assert.ok(!new RegExp(`(^|[^0-9])${CVV}([^0-9]|$)`).test(JSON.stringify(rest)), 'CVV in the history record');
      assert.ok(!/cvv/i.test(text));
    });

    it('warns before the same content goes to the same endpoint again', async () => {
      const declined = await run<SubmitResult>('paygate.submit', fixture('valid.rpcsv'), { sendSamePayer: true, sendAgain: false });
      assert.deepEqual([declined?.status, declined?.status === 'refused' && declined.reason], ['refused', 'duplicate-declined']);
      const again = sent(await run<SubmitResult>('paygate.submit', fixture('valid.rpcsv'), { sendSamePayer: true, sendAgain: true }));
      assert.equal(again.outcome, 'accepted');
      assert.notEqual(again.record.id, first.record.id);
      assert.notDeepEqual(again.record.recurringPaymentIds, first.record.recurringPaymentIds, 'the gateway created new payments');
    });

    it('two submits of one new file at the same moment send it once', async () => {
      const doc = await vscode.workspace.openTextDocument({
        language: 'paygate-recurring-csv',
        content: fs.readFileSync(fixture('valid.rpcsv').fsPath, 'utf8').replace(/IT-GW-000/g, 'IT-TWICE-'),
      });
      const results = await Promise.all([
        run<SubmitResult>('paygate.submit', doc.uri, { sendSamePayer: true }),
        run<SubmitResult>('paygate.submit', doc.uri, { sendSamePayer: true }),
      ]);
      const statuses = results
        .map((r) => {
          if (r?.status === 'sent') return 'sent';
          return r?.status === 'refused' ? r.reason : '?';
        })
        .sort();
      assert.deepEqual(statuses, ['in-flight', 'sent'], JSON.stringify(results));
    });

    it('refuses a file with lint errors and sends nothing', async () => {
      const before = (await ledgerRecords(first.ledgerFile)).length;
      const r = await run<SubmitResult>('paygate.submit', fixture('lint-errors.rpcsv'), { sendSamePayer: true });
      assert.equal(r?.status, 'refused');
      assert.equal(r.status === 'refused' && r.reason, 'lint-errors');
      assert.equal((await ledgerRecords(first.ledgerFile)).length, before, 'no ledger record for a refused file');
    });

    it('opens a history record in the results panel: answer columns first, rows from the file, no card numbers', async () => {
      const view = await run<SubmissionView>('paygate.history.open', first.record.id);
      assert.ok(view);
      assert.equal(view.outcome.outcome, 'accepted');
      assert.equal(view.submittedAt, first.record.time, 'the exact instant stays ISO in the view; the page shows local time');
      assert.deepEqual(view.columns.slice(0, 3), ['recurring-payment-id', 'status', 'serial-number']);
      assert.deepEqual(
        view.rows.map((r) => r[0]),
        first.record.recurringPaymentIds,
      );
      assert.ok(view.columns.includes('credit-card-number'), 'the rows come from the file, which is still what was sent');
      await eventually('the results panel', () =>
        vscode.window.tabGroups.all.flatMap((g) => g.tabs).find((t) => t.label === view.title && t.input instanceof vscode.TabInputWebview)
          ? true
          : undefined,
      );
      const text = JSON.stringify(view);
      for (const card of VALID_CARDS) assert.ok(!text.includes(card));
      assert.ok(!view.columns.includes('cvv2'), 'the CVV column is left out');
    });
  });

  describe('reports from local', () => {
    it('runs a CSV report template', async () => {
      const r = await run<ReportResult>('paygate.runReport', fixture('transactions.report.json'));
      assert.equal(r?.status, 'received', JSON.stringify(r));
      assert.ok(r.status === 'received' && r.format === 'csv');
      assert.deepEqual(r.columns, [...REPORT_COLUMNS]);
    });

    it('opens a PDF report in the pane, and saves it where it is told to', async () => {
      const target = path.join(scratch, 'report.pdf');
      const r = await run<ReportResult>('paygate.runReport', fixture('transactions-pdf.report.json'), { pdfTarget: target });
      assert.ok(r?.status === 'received' && r.format === 'pdf', JSON.stringify(r));
      assert.equal(r.shown, true);
      assert.equal(r.savedTo, target);
      assert.equal(fs.readFileSync(target).subarray(0, 4).toString('latin1'), '%PDF');
      // The PDF page's panel is a webview tab of its own view type, not the system's viewer.
      await eventually('a PDF report tab', () =>
        vscode.window.tabGroups.all
          .flatMap((g) => g.tabs)
          .find((t) => t.input instanceof vscode.TabInputWebview && t.input.viewType.endsWith('paygate.pdfReport')),
      );
    });

    it('names the file, line and column of a template problem and sends nothing', async () => {
      const r = await run<ReportResult>('paygate.runReport', fixture('broken.report.json'));
      assert.ok(r?.status === 'refused' && r.reason === 'invalid-template', JSON.stringify(r));
      assert.match(r.message, /^broken\.report\.json:5:\d+: reportCsvDelimiter/);
    });
  });

  describe('signature details', () => {
    it('shows the create request of a batch without secrets, key or card data', async () => {
      const r = await run<SignatureDetailsResult>('paygate.showSignatureDetails', fixture('valid.rpcsv'), { environment: TEST_ENV });
      // No credential stored for TEST_ENV yet: refused, naming what is missing.
      assert.equal(r?.ok, false);
      const local = await run<SignatureDetailsResult>('paygate.showSignatureDetails', fixture('valid.rpcsv'));
      assert.ok(local?.ok, JSON.stringify(local));
      const text = await documentText(local.uri);
      assert.match(text, /## Authorization header\n\n```text\nOAuth oauth_consumer_key="/);
      assert.match(text, /oauth_signature_method: RSA-SHA256/);
      assert.match(text, /## Signature \(hex\)\n\n```text\n[0-9a-f]{512}\n/);
      assert.match(text, /POST&http%3A%2F%2F127\.0\.0\.1%3A\d+%2F/);
      assert.ok(!text.includes('PRIVATE KEY'), 'no key material');
      for (const card of VALID_CARDS) assert.ok(!text.includes(card));
      const payload = Buffer.from(fs.readFileSync(fixture('valid.rpcsv').fsPath, 'utf8'), 'utf8').toString('base64');
      assert.ok(!text.includes(payload.slice(0, 40)), 'the Base64 payload (card data) is left out');
    });

    it('shows the report request of a template with realm="" and no secret', async () => {
      await run<SetSecretResult>('paygate.setConsumerSecret', { environment: TEST_ENV, secret: own.merchant.consumerSecret });
      const r = await run<SignatureDetailsResult>('paygate.showSignatureDetails', fixture('transactions.report.json'), {
        environment: TEST_ENV,
      });
      assert.ok(r?.ok, JSON.stringify(r));
      const text = await documentText(r.uri);
      assert.match(text, /OAuth realm="", oauth_consumer_key=/);
      assert.match(text, /oauth_signature_method: HMAC-SHA1/);
      assert.ok(!text.includes(own.merchant.consumerSecret), 'the consumer secret is not shown');
    });
  });

  describe('secrets and a production environment', () => {
    it('a wrong consumer secret is reported as an authentication failure naming the environment', async () => {
      const set = await run<SetSecretResult>('paygate.setConsumerSecret', { environment: TEST_ENV, secret: 'not-the-secret' });
      assert.deepEqual(set, { ok: true, environment: TEST_ENV });
      const r = await run<ReportResult>('paygate.runReport', fixture('transactions.report.json'), { environment: TEST_ENV });
      assert.ok(r?.status === 'failed', JSON.stringify(r));
      assert.equal(r.outcome, 'auth-failed');
      // The outcome table's words, the same as the CLI's: the outcome, the environment and what to check.
      assert.match(
        r.message,
        new RegExp(`^Authentication failed \\(HTTP 200\\) at ${TEST_ENV}: .*consumer secret of this environment\\.$`),
      );
    });

    it('the stored consumer secret signs a report the gateway accepts', async () => {
      await run<SetSecretResult>('paygate.setConsumerSecret', { environment: TEST_ENV, secret: own.merchant.consumerSecret });
      const r = await run<ReportResult>('paygate.runReport', fixture('transactions.report.json'), { environment: TEST_ENV });
      assert.equal(r?.status, 'received', JSON.stringify(r));
    });

    it('refuses an RSA key that does not parse and keeps none for local', async () => {
      const junk = path.join(scratch, 'junk.pem');
      fs.writeFileSync(junk, '-----BEGIN PRIVATE KEY-----\nnot a key\n-----END PRIVATE KEY-----\n');
      const bad = await run<SetSecretResult>('paygate.setRsaPrivateKey', { environment: TEST_ENV, file: junk, passphrase: '' });
      assert.equal(bad?.ok, false);
      assert.ok(bad && !bad.ok && !bad.reason.includes('not a key'), 'the message does not echo the file');
      const local = await run<SetSecretResult>('paygate.setRsaPrivateKey', { environment: 'local', file: junk });
      assert.equal(local?.ok, false);
    });

    it('signs a batch with the stored RSA key after the production confirmation', async () => {
      const pem = path.join(scratch, 'merchant.pem');
      fs.writeFileSync(pem, own.merchant.rsaPrivateKeyPem, { mode: 0o600 });
      const set = await run<SetSecretResult>('paygate.setRsaPrivateKey', { environment: TEST_ENV, file: pem, passphrase: '' });
      assert.deepEqual(set, { ok: true, environment: TEST_ENV });

      const declined = await run<SubmitResult>('paygate.submit', fixture('valid.rpcsv'), {
        sendSamePayer: true,
        environment: TEST_ENV,
        confirm: false,
        sendAgain: true,
      });
      assert.ok(declined?.status === 'refused' && declined.reason === 'not-confirmed', JSON.stringify(declined));
      const before = own.payments().length;

      const r = sent(
        await run<SubmitResult>('paygate.submit', fixture('valid.rpcsv'), {
          sendSamePayer: true,
          environment: TEST_ENV,
          confirm: true,
          sendAgain: true,
        }),
      );
      assert.equal(r.outcome, 'accepted', JSON.stringify(r.record));
      assert.equal(r.record.signatureMethod, 'RSA-SHA256');
      assert.equal(r.record.production, true);
      assert.equal(own.payments().length, before + 2, 'the gateway registered both rows');
      assert.deepEqual(
        own
          .payments()
          .slice(-2)
          .map((p) => p['recurring-payment-id']),
        r.record.recurringPaymentIds,
      );
    });
  });

  describe('failed submissions', () => {
    it('records a 500 as a server error with its error id', async () => {
      const r = sent(await run<SubmitResult>('paygate.submit', fixture('server-error.rpcsv'), { sendSamePayer: true }));
      assert.equal(r.outcome, 'server-error');
      assert.equal(r.record.httpStatus, 500);
      assert.match(r.record.errorId ?? '', /^[0-9a-f-]{36}$/);
      assert.deepEqual(r.record.recurringPaymentIds, []);
    });

    it('records a gateway that never answers as a transport error after the configured timeout', async () => {
      const hanging = http.createServer(() => undefined);
      await new Promise<void>((resolve) => hanging.listen(0, '127.0.0.1', resolve));
      const origin = `http://127.0.0.1:${(hanging.address() as AddressInfo).port}`;
      try {
        await config().update('requestTimeoutSeconds', 1, vscode.ConfigurationTarget.Global);
        await config().update(
          'environments',
          [
            ...(config().get<unknown[]>('environments') ?? []),
            { name: 'it-silent', baseUrl: origin, reportBaseUrl: origin, endpointId: '1', consumerKey: 'k' },
          ],
          vscode.ConfigurationTarget.Global,
        );
        await run('paygate.setConsumerSecret', { environment: 'it-silent', secret: 'any' });
        const r = sent(
          await run<SubmitResult>('paygate.submit', fixture('valid.rpcsv'), { sendSamePayer: true, environment: 'it-silent' }),
        );
        // The request went out and no answer came: unknown, never "not delivered".
        assert.equal(r.outcome, 'unknown');
        assert.equal(r.record.state, 'done');
        assert.equal(r.record.kind, 'timeout');
        assert.match(r.record.message ?? '', /may have created the payments/);
      } finally {
        await config().update('requestTimeoutSeconds', undefined, vscode.ConfigurationTarget.Global);
        hanging.closeAllConnections();
        await new Promise((resolve) => hanging.close(resolve));
      }
    });
  });

  describe('environments', () => {
    it('Select Environment by argument updates the setting and the status bar', async () => {
      const r = await run<SelectEnvironmentResult>('paygate.selectEnvironment', TEST_ENV);
      assert.ok(r?.ok, JSON.stringify(r));
      assert.equal(config().get('environment'), TEST_ENV);
      assert.match(r.statusText, new RegExp(`PayGate: ${TEST_ENV}$`));
      assert.match(r.statusText, /^\$\(warning\)/, 'a production environment is marked');
      const unknown = await run<SelectEnvironmentResult>('paygate.selectEnvironment', 'no-such-environment');
      assert.equal(unknown?.ok, false);
      assert.equal(config().get('environment'), TEST_ENV, 'an unknown name changes nothing');
      const back = await run<SelectEnvironmentResult>('paygate.selectEnvironment', 'local');
      assert.ok(back?.ok && back.statusText.endsWith('PayGate: local'));
    });

    it('the header line offers "Submit to ‹env›" for the active environment', async () => {
      const doc = await vscode.workspace.openTextDocument(fixture('valid.rpcsv'));
      assert.equal(doc.languageId, 'paygate-recurring-csv');
      const titles = async () => {
        const lenses = (await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', doc.uri)) ?? [];
        return lenses.filter((l) => l.command?.command === 'paygate.submit' && l.range.start.line === 0).map((l) => l.command!.title);
      };
      assert.deepEqual(await titles(), ['$(cloud-upload) Submit to local']);
      await run('paygate.selectEnvironment', TEST_ENV);
      assert.deepEqual(await titles(), [`$(cloud-upload) Submit to ${TEST_ENV} (production)`]);
      await run('paygate.selectEnvironment', 'local');
    });

    it('every submission of this suite is completed in the history the Submissions view shows', async () => {
      await run('paygate.submissions.focus');
      const records = await ledgerRecords(ledgerFile);
      assert.deepEqual(
        records.map((r) => [r.environment, r.state, r.outcome]),
        [
          ['it-silent', 'done', 'unknown'],
          ['local', 'done', 'server-error'],
          [TEST_ENV, 'done', 'accepted'],
          ['local', 'done', 'accepted'],
          ['local', 'done', 'accepted'],
          ['local', 'done', 'accepted'],
        ],
        'newest first: the timeout, the 500, the production submission, the one submitted twice at once, the repeated one, the first one',
      );
    });
  });

  describe('report templates', () => {
    it('New Report Template writes every field of the report request and opens it', async () => {
      const target = path.join(scratch, 'monthly');
      const r = await run<NewReportTemplateResult>('paygate.newReportTemplate', { uri: target });
      assert.ok(r?.ok, JSON.stringify(r));
      assert.equal(r.uri.fsPath, `${target}.report.json`, 'the .report.json suffix is added');
      const body = JSON.parse(fs.readFileSync(r.uri.fsPath, 'utf8')) as Record<string, unknown>;
      assert.deepEqual(Object.keys(body).sort(), [
        'configurationReportParameters',
        'filters',
        'inputReportParameters',
        'outputReportParameters',
        'reportCsvDelimiter',
        'reportEncode',
        'reportFormat',
        'reportIdentifier',
        'reportName',
      ]);
      await eventually('the new template in an editor', () =>
        vscode.window.visibleTextEditors.find((e) => e.document.uri.fsPath === r.uri.fsPath) ? true : undefined,
      );
      const again = await run<NewReportTemplateResult>('paygate.newReportTemplate', { uri: r.uri });
      assert.equal(again?.ok, false, 'an existing file is not overwritten');
    });

    it('the editor checks *.report.json files against the schema', async () => {
      const doc = await vscode.workspace.openTextDocument(fixture('broken.report.json'));
      await vscode.window.showTextDocument(doc);
      // "reportCsvDelimiter": ";;" is on line 5 (0-based 4); the JSON language service reports it there.
      const problem = await eventually('a schema diagnostic on reportCsvDelimiter', () =>
        vscode.languages.getDiagnostics(doc.uri).find((d) => d.range.start.line === 4),
      );
      assert.match(problem.message, /length|long/i);
    });

    it('contributes the JSON schema and the snippet for *.report.json', () => {
      const manifest = vscode.extensions.getExtension(EXTENSION_ID)!.packageJSON as {
        contributes: { jsonValidation: { fileMatch: string; url: string }[]; snippets: { language: string; path: string }[] };
      };
      const v = manifest.contributes.jsonValidation.find((j) => j.fileMatch === '*.report.json');
      assert.ok(v);
      assert.ok(fs.existsSync(path.join(root, v.url)), `${v.url} exists`);
      const s = manifest.contributes.snippets.find((x) => x.path.includes('report-template'));
      assert.ok(s && fs.existsSync(path.join(root, s.path)));
    });
  });
});
