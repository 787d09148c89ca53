// Knowing what was already sent, in a running editor: an unchanged file with mixed line breaks sent from
// the editor (whose buffer makes every line break CRLF) and then from the terminal is one submission; an
// edited, reordered and extended resend is asked about (Don't send first) and its sent rows can be moved
// to a new file; already-sent and cvv-after-send appear in Problems; Compare with Last Sent opens the diff
// editor; an accepted batch's CVVs are emptied on the spot. Dialogs are answered through the commands'
// option arguments; waits poll with a deadline.
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { Ledger } from '../../src/core/ledger';
import type { CompareResult } from '../../src/extension/ledger/compare';
import type { SubmitResult } from '../../src/extension/submit/submit';

const EXTENSION_ID = 'paygate.paygate-toolkit';
const DEADLINE_MS = 20_000;

let root = '';
let scratch = '';
let valid = '';

// eslint-disable-next-line no-restricted-syntax -- bounded: a command's arguments forwarded as they came
const run = <T>(command: string, ...args: unknown[]) => vscode.commands.executeCommand<T>(command, ...args);

async function waitFor<T>(what: string, probe: () => T | undefined | false): Promise<T> {
  const deadline = Date.now() + DEADLINE_MS;
  for (;;) {
    const value = probe();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise<void>((resolve) => {
      const sub = vscode.languages.onDidChangeDiagnostics(() => done());
      const timer = setTimeout(() => done(), 100);
      function done(): void {
        sub.dispose();
        clearTimeout(timer);
        resolve();
      }
    });
  }
}

const codeOf = (d: vscode.Diagnostic) => String(typeof d.code === 'object' && d.code !== null ? d.code.value : d.code);
const withCode = (uri: vscode.Uri, code: string) => vscode.languages.getDiagnostics(uri).filter((d) => codeOf(d) === code);

/** The example with its client-orderids tagged, written to the scratch folder as it is (CRLF rows, a bare LF in a quoted field). */
function writeBatch(name: string, tag: string, edit: (rows: string[]) => string[] = (r) => r): vscode.Uri {
  const [head, ...rows] = valid.replace(/[A-Z]{3}-2027-/g, `${tag}-`).split(/(?<=\r\n)(?=[A-Z])/);
  const file = path.join(scratch, name);
  fs.writeFileSync(file, [head, ...edit(rows)].join(''));
  return vscode.Uri.file(file);
}

function sent(r: SubmitResult | undefined): Extract<SubmitResult, { status: 'sent' }> {
  assert.ok(r?.status === 'sent', `not sent: ${JSON.stringify(r)}`);
  return r;
}

describe('knowing what was already sent', function () {
  this.timeout(90_000);

  before(async () => {
    const ext = vscode.extensions.getExtension(EXTENSION_ID);
    assert.ok(ext);
    await ext.activate();
    root = ext.extensionPath;
    valid = fs.readFileSync(path.join(root, 'examples', 'valid.rpcsv'), 'utf8');
    scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'paygate-resend-it-'));
    await run('paygate.selectEnvironment', 'local');
  });

  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    fs.rmSync(scratch, { recursive: true, force: true });
  });

  it('an unchanged file with mixed line breaks, sent from the editor, is refused when the terminal sends it', async () => {
    assert.match(valid, /[^\r]\n/, 'the example holds a bare LF in a quoted field');
    const uri = writeBatch('mixed.rpcsv', 'IT-MIX');
    const first = sent(await run<SubmitResult>('paygate.submit', uri, { sendSamePayer: true, stripCvv: false }));
    assert.equal(first.outcome, 'accepted');
    const cli = path.join(root, 'dist', 'cli.js');
    assert.ok(fs.existsSync(cli), 'dist/cli.js is built (npm run build)');
    // The terminal's face, on the same ledger: it is refused before anything is sent, so the address is never used.
    const terminal = spawnSync(
      process.execPath,
      [
        cli,
        'submit',
        uri.fsPath,
        '--state',
        path.dirname(first.ledgerFile),
        '--base-url',
        'http://127.0.0.1:9/',
        '--endpoint-id',
        first.record.endpointId,
      ],
      {
        encoding: 'utf8',
        timeout: 60_000,
        env: { ...process.env, PAYGATE_STATE_DIR: path.join(scratch, 'cli-state'), ELECTRON_RUN_AS_NODE: '1' },
      },
    );
    assert.equal(terminal.status, 2, terminal.stderr);
    assert.match(terminal.stderr, /the same content was already sent to local, endpoint \S+: .* from the editor/);
  });

  it('an edited, reordered and extended resend is asked about: "Don\'t send" sends nothing, the move keeps the sent rows in a new file and sends the rest', async () => {
    const uri = writeBatch('resend.rpcsv', 'IT-RS');
    const first = sent(await run<SubmitResult>('paygate.submit', uri, { sendSamePayer: true, stripCvv: false }));
    const ledger = new Ledger(path.dirname(first.ledgerFile));
    const before = (await ledger.list()).length;
    const extra = 'IT-RS-NEW;DST;Payout;;;;;;;;;;;;;;;10.00;;;;EUR;P LTD;6011000990139424;05;2030;;;\r\n';
    writeBatch('resend.rpcsv', 'IT-RS', (rows) => [
      ...rows.reverse().map((r) => r.replace('Gym membership, monthly', 'Gym (monthly)')),
      extra,
    ]);
    // Shown in an editor, the document is compared with the disk (the scratch folder is watched by no one).
    const doc = await vscode.workspace.openTextDocument(uri);
    await vscode.window.showTextDocument(doc);
    await waitFor('the edited file in the editor', () => doc.getText().includes('IT-RS-NEW'));
    const refused = await run<SubmitResult>('paygate.submit', uri, { sendSamePayer: true, sendRowsAgain: false });
    assert.deepEqual(
      [refused?.status, refused?.status === 'refused' && refused.reason, refused?.status === 'refused' && refused.rows],
      ['refused', 'already-sent', 4],
    );
    assert.equal((await ledger.list()).length, before, 'nothing recorded, nothing sent');
    // "Move the 4 already-sent rows to a new file — then send what is left": both happen, the file stays saved.
    const moved = await run<SubmitResult>('paygate.submit', uri, { sendSamePayer: true, sendRowsAgain: 'move', stripCvv: false });
    assert.ok(moved?.status === 'sent' && moved.moved, JSON.stringify(moved));
    const movedText = fs.readFileSync(moved.moved.to, 'utf8');
    assert.equal(path.basename(moved.moved.to), 'resend.already-sent.rpcsv');
    assert.equal(moved.moved.rows, 4);
    assert.equal(movedText.split('\r\n').filter((l) => /^IT-RS-000\d;/.test(l)).length, 4, 'the four sent rows, kept');
    assert.ok(!movedText.includes('IT-RS-NEW'));
    assert.ok(!doc.isDirty, 'the batch is saved as it was sent');
    const onDisk = fs.readFileSync(uri.fsPath, 'utf8');
    assert.deepEqual(
      onDisk
        .split(/\r\n/)
        .filter((l) => l !== '')
        .map((l) => l.split(';')[0]),
      ['client-orderid', 'IT-RS-NEW'],
    );
    assert.equal(moved.record.rowCount, 1, 'only the row not sent before was sent');
    assert.equal((await ledger.list()).length, before + 1, 'one submission: what was left');
  });

  it('the same cards and schedules under new ids: same-payer in Problems; "Don\'t Send" sends nothing, "Send Anyway" sends', async () => {
    const first = sent(
      await run<SubmitResult>('paygate.submit', writeBatch('payer.rpcsv', 'IT-SP'), { sendSamePayer: true, stripCvv: false }),
    );
    const ledger = new Ledger(path.dirname(first.ledgerFile));
    const before = (await ledger.list()).length;
    const uri = writeBatch('payer-renew.rpcsv', 'IT-SP-RENEW');
    const doc = await vscode.workspace.openTextDocument(uri);
    await vscode.window.showTextDocument(doc);
    const flagged = await waitFor(
      'same-payer on the four rows',
      () => withCode(uri, 'same-payer').length === 4 && withCode(uri, 'same-payer'),
    );
    assert.match(flagged[0].message, /under client-orderid "IT-SP-0001" \(submission of "payer\.rpcsv"/);
    assert.equal(withCode(uri, 'already-sent').length, 0, 'other ids to the gateway');
    // The modal's answers, given as the command's option (its words are the same as the diagnostic's).
    const refused = await run<SubmitResult>('paygate.submit', uri, { sendSamePayer: false, stripCvv: false });
    assert.deepEqual(
      [refused?.status, refused?.status === 'refused' && refused.reason, refused?.status === 'refused' && refused.rows],
      ['refused', 'same-payer', 4],
    );
    assert.equal((await ledger.list()).length, before, 'nothing recorded, nothing sent');
    sent(await run<SubmitResult>('paygate.submit', uri, { sendSamePayer: true, stripCvv: false }));
  });

  it('shows already-sent on the client-orderid cells and Compare with Last Sent opens the diff editor', async () => {
    const uri = writeBatch('shown.rpcsv', 'IT-SH');
    sent(await run<SubmitResult>('paygate.submit', uri, { sendSamePayer: true, stripCvv: false }));
    writeBatch('shown.rpcsv', 'IT-SH', (rows) => [rows[1].replace('5.00;15.00', '6.00;15.00'), ...rows.slice(2)]);
    const doc = await vscode.workspace.openTextDocument(uri);
    await vscode.window.showTextDocument(doc);
    await waitFor('the changed file in the editor', () => !doc.getText().includes('IT-SH-0001'));
    const errors = await waitFor('already-sent on three rows', () => {
      const ds = withCode(uri, 'already-sent');
      return ds.length === 3 ? ds : undefined;
    });
    assert.ok(errors.every((d) => d.severity === vscode.DiagnosticSeverity.Error && d.range.start.character === 0));
    assert.match(errors[0].message, /was already sent on .* UTC to local, endpoint \S+ \(serial-number \S+, accepted\)/);
    const compared = await run<CompareResult>('paygate.compareWithLastSent', uri);
    assert.ok(compared?.status === 'compared', JSON.stringify(compared));
    assert.deepEqual(
      [
        compared.diff.added.length,
        compared.diff.removed.map((r) => r['client-orderid']),
        compared.diff.changed.map((c) => c.columns),
        compared.diff.unchanged,
      ],
      [0, ['IT-SH-0001'], [['amount-from']], 2],
    );
    await waitFor('the diff editor', () =>
      vscode.window.tabGroups.all
        .flatMap((g) => g.tabs)
        .some((t) => t.input instanceof vscode.TabInputTextDiff && t.label.startsWith('shown.rpcsv')),
    );
    assert.match(compared.right, /IT-SH-0002 {2}\(changed: amount-from\)/);
    assert.ok(compared.left.includes('IT-SH-0001') && !compared.right.includes('IT-SH-0001'));
  });

  it('after an accepted send: cvv-after-send on the CVVs, and the offer empties them on disk', async () => {
    const kept = writeBatch('kept.rpcsv', 'IT-CV');
    sent(await run<SubmitResult>('paygate.submit', kept, { sendSamePayer: true, stripCvv: false }));
    await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(kept));
    const warnings = await waitFor('cvv-after-send on the two CVVs', () => {
      const ds = withCode(kept, 'cvv-after-send');
      return ds.length === 2 ? ds : undefined;
    });
    assert.ok(warnings.every((d) => d.severity === vscode.DiagnosticSeverity.Warning));
    const stripped = writeBatch('stripped.rpcsv', 'IT-ST');
    sent(await run<SubmitResult>('paygate.submit', stripped, { sendSamePayer: true, stripCvv: true }));
    const text = fs.readFileSync(stripped.fsPath, 'utf8');
    assert.ok(!/;(123|456);/.test(text), 'no CVV left on disk');
    assert.equal(text.split('\r\n')[0], valid.split('\r\n')[0], 'the cvv2 column stays');
  });
});
