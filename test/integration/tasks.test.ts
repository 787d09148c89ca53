// The `$paygate` problem matcher: a task that runs `paygate lint` puts its problems in the Problems panel,
// at the places the CLI names, with the rule-book code. Runs the real CLI (dist/cli.js) through a shell task.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';

const EXTENSION_ID = 'paygate.paygate-toolkit';
const DEADLINE_MS = 30_000;

function codeOf(d: vscode.Diagnostic): string {
  const c = d.code;
  return typeof c === 'object' && c !== null ? String(c.value) : String(c);
}

/**
 * The matcher's problems for `uri`, once `complete` says they are all there (the task's output may reach
 * the matcher in several pieces, each published on its own), or an error at the deadline.
 */
async function matcherProblems(uri: vscode.Uri, complete: (found: vscode.Diagnostic[]) => boolean): Promise<vscode.Diagnostic[]> {
  const deadline = Date.now() + DEADLINE_MS;
  for (;;) {
    const found = vscode.languages.getDiagnostics(uri).filter((d) => d.source === 'paygate lint');
    if (found.length > 0 && complete(found)) return found;
    if (Date.now() > deadline) throw new Error(`no problems from the $paygate matcher for ${uri.fsPath}`);
    await new Promise<void>((resolve) => {
      const sub = vscode.languages.onDidChangeDiagnostics(() => done());
      const timer = setTimeout(() => done(), 200);
      function done(): void {
        sub.dispose();
        clearTimeout(timer);
        resolve();
      }
    });
  }
}

describe('problem matcher $paygate', () => {
  let scratch = '';
  after(() => {
    if (scratch) fs.rmSync(scratch, { recursive: true, force: true });
  });

  it('a task running paygate lint fills the Problems panel', async function () {
    this.timeout(DEADLINE_MS + 15_000);
    const ext = vscode.extensions.getExtension(EXTENSION_ID);
    assert.ok(ext);
    await ext.activate();
    scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'paygate-task-'));
    // A .txt copy: no language mode lints it, so every problem seen comes from the task.
    const file = path.join(scratch, 'batch.txt');
    fs.copyFileSync(path.join(ext.extensionPath, 'examples', 'mistakes.rpcsv'), file);
    const cli = path.join(ext.extensionPath, 'dist', 'cli.js');
    const scope = vscode.workspace.workspaceFolders?.[0] ?? vscode.TaskScope.Workspace;
    const task = new vscode.Task(
      { type: 'shell' },
      scope,
      'paygate lint',
      'paygate',
      new vscode.ShellExecution('node', [cli, 'lint', file], { cwd: scratch }),
      '$paygate',
    );
    await vscode.tasks.executeTask(task);

    // The file's last line holds a warning (duplicate-order-id): once it is in, the whole output was read.
    const lastLine = fs.readFileSync(file, 'utf8').trimEnd().split('\n').length - 1;
    const problems = await matcherProblems(vscode.Uri.file(file), (found) => found.some((d) => d.range.start.line === lastLine));
    const alias = problems.find((d) => codeOf(d) === 'column-alias');
    assert.ok(alias, `column-alias among ${problems.map(codeOf).join(', ')}`);
    // `examples/mistakes.rpcsv:1:29: error column-alias …` — line 1, column 29 in the CLI's 1-based terms.
    assert.equal(alias.range.start.line, 0);
    assert.equal(alias.range.start.character, 28);
    assert.equal(alias.severity, vscode.DiagnosticSeverity.Error);
    assert.match(alias.message, /order_desc/);
    assert.ok(
      problems.some((d) => d.severity === vscode.DiagnosticSeverity.Warning),
      'warnings are told apart from errors',
    );
  });
});
