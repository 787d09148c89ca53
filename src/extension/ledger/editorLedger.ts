import * as vscode from 'vscode';
import { Disposable } from '../disposable';
import { Ledger } from '../../core/ledger';
import { configuredLedgerDirectory, LEDGER_DIRECTORY_SETTING } from '../ledgerDirectory';

// The editor's handle on the submission ledger the CLI writes too (core/ledger). Its directory is the
// CLI's default (the user's data directory) unless `paygate.ledger.directory` moves it; a machine setting,
// so a workspace cannot point it elsewhere. Changes by other processes (the CLI, other windows) are
// picked up by a file watcher.

export class EditorLedger extends Disposable {
  private ledger!: Ledger;
  private readonly changed = this.register(new vscode.EventEmitter<void>());
  readonly onDidChange = this.changed.event;
  /** The watchers of the ledger's current directory, replaced when the setting moves it. */
  private watching: vscode.Disposable[] = [];

  constructor() {
    super();
    this.register({ dispose: () => this.watching.forEach((d) => d.dispose()) });
    this.open();
    this.register(
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (e.affectsConfiguration(`paygate.${LEDGER_DIRECTORY_SETTING}`)) this.open();
      }),
    );
  }

  /** The ledger in the configured directory. */
  get current(): Ledger {
    return this.ledger;
  }

  get filePath(): string {
    return this.ledger.filePath;
  }

  private open(): void {
    for (const d of this.watching) d.dispose();
    this.ledger = new Ledger(configuredLedgerDirectory());
    const own = this.ledger.onDidChange(() => this.changed.fire());
    const watcher = vscode.workspace.createFileSystemWatcher(
      new vscode.RelativePattern(vscode.Uri.file(this.ledger.directory), 'ledger*.jsonl'),
    );
    const fire = () => this.changed.fire();
    this.watching = [own, watcher, watcher.onDidChange(fire), watcher.onDidCreate(fire), watcher.onDidDelete(fire)];
    this.changed.fire();
  }
}
