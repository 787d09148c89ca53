// A batch over 50 MB in a running editor (issue 32). VS Code passes no such file to an extension: no
// document, no didOpen for the language server, only a tab. The extension finds it by its tab, the
// language server checks it from disk (its problems and its payload's size: batch-too-large), and the
// commands read it from disk. The batch is generated here (300,000 rows, about 54 MB, with wrong rows),
// in a scratch folder, and removed after.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { SubmitResult } from '../../src/extension/submit/submit';
import { generateBatch } from '../bench/generate';

const EXTENSION_ID = 'paygate.paygate-toolkit';
const ROWS = 300_000;
const DEADLINE_MS = 60_000;

/** The batch with an rp_card_type the gateway does not know on these data rows (0-based; SRC rows). */
function batch(wrong: number[]): string {
  const lines = generateBatch(ROWS).split('\r\n');
  for (const r of wrong) lines[r + 1] = lines[r + 1].replace(';SRC;', ';SRX;');
  return lines.join('\r\n');
}

/** Our diagnostics of `uri` once they satisfy `ok`, waking on every change of diagnostics, with a deadline. */
async function diagnosticsWhere(uri: vscode.Uri, what: string, ok: (ds: vscode.Diagnostic[]) => boolean): Promise<vscode.Diagnostic[]> {
  const deadline = Date.now() + DEADLINE_MS;
  for (;;) {
    const ds = vscode.languages.getDiagnostics(uri).filter((d) => d.source === 'paygate');
    if (ok(ds)) return ds;
    if (Date.now() > deadline)
      throw new Error(`timed out waiting for ${what}; ${ds.length} diagnostics: ${ds.map((d) => d.message).join(' | ')}`);
    await new Promise<void>((resolve) => {
      const sub = vscode.languages.onDidChangeDiagnostics(() => done());
      const timer = setTimeout(() => done(), 250);
      function done(): void {
        sub.dispose();
        clearTimeout(timer);
        resolve();
      }
    });
  }
}

const codeOf = (d: vscode.Diagnostic) => (typeof d.code === 'object' ? String(d.code.value) : String(d.code));
const lines = (ds: vscode.Diagnostic[]) => ds.map((d) => d.range.start.line).sort((a, b) => a - b);

function tabOf(uri: vscode.Uri): vscode.Tab | undefined {
  for (const g of vscode.window.tabGroups.all)
    for (const t of g.tabs) if (t.input instanceof vscode.TabInputText && t.input.uri.toString() === uri.toString()) return t;
  return undefined;
}

describe('a batch over 50 MB (checked from disk)', function () {
  this.timeout(180_000);
  let scratch = '';
  let uri: vscode.Uri;

  before(async () => {
    const ext = vscode.extensions.getExtension(EXTENSION_ID);
    assert.ok(ext, `extension ${EXTENSION_ID} is installed`);
    await ext.activate();
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'paygate-big-it-'));
    uri = vscode.Uri.file(path.join(scratch, 'big.rpcsv'));
    fs.writeFileSync(uri.fsPath, batch([3, 150_000, 299_990]));
    assert.ok(fs.statSync(uri.fsPath).size > 50 * 1024 * 1024, 'the batch is over VS Code’s 50 MB limit');
  });

  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    if (scratch) fs.rmSync(scratch, { recursive: true, force: true });
  });

  it('shows its problems, read from disk, though the editor passes the extension no document', async () => {
    await vscode.commands.executeCommand('vscode.open', uri);
    assert.ok(tabOf(uri), 'the batch has a tab');
    // The three wrong rows, and batch-too-large on the header as `paygate lint` says it: about 72 MB of
    // Base64 against the local gateway's 8 MiB (the file is weighed as it is read from disk).
    const ds = await diagnosticsWhere(uri, 'the three wrong rows and batch-too-large', (d) => d.length === 4);
    const rows = ds.filter((d) => codeOf(d) !== 'batch-too-large');
    assert.deepEqual(lines(rows), [4, 150_001, 299_991]);
    assert.deepEqual(
      rows.map((d) => [codeOf(d), d.severity]),
      rows.map(() => ['invalid-value', vscode.DiagnosticSeverity.Error]),
    );
    const tooLarge = ds.filter((d) => codeOf(d) === 'batch-too-large');
    assert.equal(tooLarge.length, 1, ds.map((d) => codeOf(d)).join(', '));
    assert.equal(tooLarge[0].severity, vscode.DiagnosticSeverity.Warning);
    assert.equal(tooLarge[0].range.start.line, 0);
    assert.match(tooLarge[0].message, /over the environment's maximum of 8,388,608.*paygate split --max-bytes 8388608/);
    assert.ok(
      !vscode.workspace.textDocuments.some((d) => d.uri.toString() === uri.toString()),
      'VS Code did not pass the document (the premise of this test)',
    );
  });

  it('lets Submit read it from disk, with its Uri and from the palette (the active tab): refused for its errors', async () => {
    const withUri = await vscode.commands.executeCommand<SubmitResult>('paygate.submit', uri);
    assert.equal(withUri.status, 'refused');
    assert.equal(withUri.status === 'refused' && withUri.reason, 'lint-errors', JSON.stringify(withUri));
    assert.match(withUri.status === 'refused' ? withUri.message : '', /^big\.rpcsv has 3 lint errors; nothing was sent/);
    const fromTab = await vscode.commands.executeCommand<SubmitResult>('paygate.submit');
    assert.equal(fromTab.status === 'refused' && fromTab.reason, 'lint-errors', JSON.stringify(fromTab));
  });

  it('lets Reconcile with Report read it from disk (the active tab) and mark its rows', async () => {
    // A report of one charge: every other row of the batch has nothing in it, and says so.
    const report = vscode.Uri.file(path.join(scratch, 'report.csv'));
    fs.writeFileSync(report.fsPath, 'Merchant_OID,Amount,Currency,Created_date\r\nORD-0000000,19.90,EUR,26.11.2026\r\n');
    await vscode.commands.executeCommand('vscode.open', uri);
    await vscode.commands.executeCommand('paygate.reconcileWithReport', report);
    await diagnosticsWhere(uri, 'the reconciliation on the batch', () =>
      vscode.languages.getDiagnostics(uri).some((d) => d.source === 'paygate-reconcile'),
    );
    await vscode.commands.executeCommand('vscode.open', uri);
  });

  it('checks it again when the file changes on disk (a save)', async () => {
    fs.writeFileSync(uri.fsPath, batch([7]));
    const ds = await diagnosticsWhere(uri, 'the one wrong row left, and batch-too-large', (d) => d.length === 2);
    assert.deepEqual(lines(ds.filter((d) => codeOf(d) === 'invalid-value')), [8]);
    assert.deepEqual(
      ds.map((d) => codeOf(d)),
      ['invalid-value', 'batch-too-large'],
    );
  });

  it('clears its problems when its tab closes', async () => {
    const tab = tabOf(uri);
    assert.ok(tab);
    await vscode.window.tabGroups.close(tab);
    await diagnosticsWhere(uri, 'no problems once closed', (d) => d.length === 0);
  });
});
