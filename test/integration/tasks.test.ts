// The `$paygate` problem matcher: a task that runs `paygate lint` puts its problems in the Problems panel,
// at the places the CLI names, with the rule-book code. Runs the real CLI (dist/cli.js) in a task.
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { TEST_TIMEOUT_MS, until } from './wait';

const EXTENSION_ID = 'paygate.paygate-toolkit';

function codeOf(d: vscode.Diagnostic): string {
  const c = d.code;
  return typeof c === 'object' && c !== null ? String(c.value) : String(c);
}

/** How many problems `paygate lint` reports for the file (its JSON output, read here, not by the matcher). */
function cliProblemCount(cli: string, file: string): number {
  let out: string;
  try {
    // The host's own Node (under Electron, as Node), so the count does not depend on the PATH.
    const env = { ...process.env, ELECTRON_RUN_AS_NODE: '1' };
    out = execFileSync(process.execPath, [cli, 'lint', '--format', 'json', file], { encoding: 'utf8', env });
  } catch (err) {
    out = (err as { stdout: string }).stdout; // exit 1: the file has errors
  }
  return (JSON.parse(out) as { files: { diagnostics: unknown[] }[] }).files[0].diagnostics.length;
}

/** The matcher's problems for `uri`, once all `count` of them are in (see lintTask for when that is). */
async function matcherProblems(uri: vscode.Uri, count: number): Promise<vscode.Diagnostic[]> {
  let found: vscode.Diagnostic[] = [];
  try {
    return await until(
      `the $paygate matcher's ${count} problems for ${uri.fsPath}`,
      () => {
        found = vscode.languages.getDiagnostics(uri).filter((d) => d.source === 'paygate lint');
        return found.length === count && found;
      },
      { events: [vscode.languages.onDidChangeDiagnostics] },
    );
  } catch (err) {
    throw new Error(
      `${(err as Error).message}; it has ${found.length}: ${found.map((d) => `${d.range.start.line + 1}:${d.range.start.character + 1} ${codeOf(d)}`).join(', ')}`,
      { cause: err },
    );
  }
}

/**
 * A shell task that runs `paygate lint FILE NEXT` and then waits, reading a FIFO, until `release()` writes
 * to it. A task's problem matcher hands the editor a file's problems when the output moves on to another
 * file, or when the task ends; and it stops reading 100 ms after the task's process ends, which a loaded
 * machine's terminal may not meet (seen: 7 of 21 problems at a load of 14 from a task that ended with the
 * CLI). So FILE's problems reach the editor once NEXT's first line is read, which means all of FILE's were;
 * the test waits for that, and only then lets the task end.
 */
function lintTask(
  cli: string,
  file: string,
  next: string,
  scope: vscode.WorkspaceFolder | vscode.TaskScope,
): { task: vscode.Task; release(): Promise<void> } {
  const fifo = path.join(path.dirname(file), 'release');
  execFileSync('mkfifo', [fifo]);
  const command = `node '${cli}' lint '${file}' '${next}'; read -r _ < '${fifo}'`;
  const execution = new vscode.ShellExecution(command, { cwd: path.dirname(file) });
  return {
    task: new vscode.Task({ type: 'shell' }, scope, 'paygate lint', 'paygate', execution, '$paygate'),
    // Opening a FIFO to write waits for its reader (in the thread pool, not the host's event loop).
    release: async () => {
      const h = await fs.promises.open(fifo, 'w');
      await h.write('done\n');
      await h.close();
    },
  };
}

describe('problem matcher $paygate', () => {
  let scratch = '';
  after(() => {
    if (scratch) fs.rmSync(scratch, { recursive: true, force: true });
  });

  it('a task running paygate lint fills the Problems panel', async function () {
    this.timeout(TEST_TIMEOUT_MS);
    const ext = vscode.extensions.getExtension(EXTENSION_ID);
    assert.ok(ext);
    await ext.activate();
    scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'paygate-task-'));
    // A .txt copy: no language mode lints it, so every problem seen comes from the task.
    const file = path.join(scratch, 'batch.txt');
    fs.copyFileSync(path.join(ext.extensionPath, 'examples', 'mistakes.rpcsv'), file);
    const cli = path.join(ext.extensionPath, 'dist', 'cli.js');
    const scope = vscode.workspace.workspaceFolders?.[0] ?? vscode.TaskScope.Workspace;
    const count = cliProblemCount(cli, file);
    assert.ok(count > 2, `paygate lint reports ${count} problems in mistakes.rpcsv`);
    const next = path.join(scratch, 'next.txt');
    fs.copyFileSync(file, next);
    const { task, release } = lintTask(cli, file, next, scope);
    const execution = await vscode.tasks.executeTask(task);
    let problems: vscode.Diagnostic[];
    try {
      problems = await matcherProblems(vscode.Uri.file(file), count);
    } finally {
      const ended = until('the task to end', () => !vscode.tasks.taskExecutions.includes(execution), {
        events: [vscode.tasks.onDidEndTask],
      });
      await Promise.race([release(), ended]);
      await ended;
    }
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
