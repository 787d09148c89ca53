import { stat } from 'node:fs/promises';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { State, type LanguageClient } from 'vscode-languageclient/node';
import {
  BATCH_ON_DISK_CHECKED_NOTIFICATION,
  BATCH_ON_DISK_NOTIFICATION,
  type BatchOnDisk,
  type BatchOnDiskChecked,
} from '../../shared/lintProtocol';
import { said, typed } from '../../core/output';
import { Disposable } from '../disposable';
import { log } from '../log';
import { showInfo, shown } from '../say';
import { LARGE_BATCHES_DOCS_URL, beyondSyncLimit, firstLineOf, isBatch, megabytes } from '../bigBatch';
import { errorMessage } from '../../core/errorMessage';

// Batches over 50 MB, which VS Code shows but passes to no extension (bigBatch.ts): found by their tabs,
// named to the language server, which checks them from disk (paygate/batchOnDisk), and checked again
// each time the file changes on disk (a save) through a file watcher. The user is told once per window,
// in a notification with "Learn more", why such a batch is checked on save instead of as they type; a
// status bar item says it whenever such a batch is the active tab, and what the last check found.

interface Entry {
  uri: vscode.Uri;
  bytes: number;
  watcher: vscode.FileSystemWatcher;
  checking: boolean;
  last?: BatchOnDiskChecked;
}

export class BatchesOnDisk extends Disposable {
  private readonly batches = new Map<string, Entry>();
  /** Tabs whose file is being looked at (its size, its first line). */
  private readonly looking = new Set<string>();
  /** Tabs of files over the limit that are not batches: not read again while their tab stays open. */
  private readonly notBatches = new Set<string>();
  private readonly status = this.register(vscode.window.createStatusBarItem('paygate.batchOnDisk', vscode.StatusBarAlignment.Left, 49));
  /**
   * Submit, beside it: such a batch has no CodeLens (no extension sees its document), and a batch known by
   * its first line (not by its name) gets no editor title button from the manifest's name-based `when`.
   */
  private readonly submit = this.register(
    vscode.window.createStatusBarItem('paygate.batchOnDisk.submit', vscode.StatusBarAlignment.Left, 48),
  );
  private activeOnDisk: string | undefined;
  private told = false;
  private wasRunning = false;

  constructor(private readonly client: LanguageClient) {
    super();
    this.status.name = 'PayGate: batch checked on save';
    this.status.command = { title: 'Learn more', command: 'vscode.open', arguments: [vscode.Uri.parse(LARGE_BATCHES_DOCS_URL)] };
    this.register(vscode.window.tabGroups.onDidChangeTabs(() => this.refresh()));
    this.register(vscode.window.tabGroups.onDidChangeTabGroups(() => this.refresh()));
    this.register(vscode.workspace.onDidOpenTextDocument((d) => this.synced(d.uri.toString())));
    this.register(client.onNotification(BATCH_ON_DISK_CHECKED_NOTIFICATION, (c: BatchOnDiskChecked) => this.checked(c)));
    // A language server started again (after a crash) knows no batch: each is named to it again.
    this.register(
      client.onDidChangeState(({ newState }) => {
        if (newState !== State.Running) return;
        if (this.wasRunning) for (const [key, entry] of this.batches) this.send(key, entry, 'opened');
        this.wasRunning = true;
      }),
    );
    this.register({ dispose: () => this.batches.forEach((e) => e.watcher.dispose()) });
    this.refresh();
  }

  private refresh(): void {
    const open = new Map<string, vscode.Uri>();
    for (const group of vscode.window.tabGroups.all)
      for (const tab of group.tabs)
        if (tab.input instanceof vscode.TabInputText && tab.input.uri.scheme === 'file') open.set(tab.input.uri.toString(), tab.input.uri);
    for (const [key, entry] of this.batches) if (!open.has(key)) this.closed(key, entry);
    for (const key of this.notBatches) if (!open.has(key)) this.notBatches.delete(key);
    for (const [key, uri] of open)
      if (!this.batches.has(key) && !this.looking.has(key) && !this.notBatches.has(key) && !synced(key)) void this.look(key, uri);
    this.showStatus();
  }

  /** Whether the tab's file is a batch too large for the editor to pass; if so, it is checked from disk from now on. */
  private async look(key: string, uri: vscode.Uri): Promise<void> {
    this.looking.add(key);
    try {
      const { size } = await stat(uri.fsPath);
      if (!beyondSyncLimit(size)) return;
      if (!isBatch(path.basename(uri.fsPath), await firstLineOf(uri.fsPath))) return void this.notBatches.add(key);
      // Meanwhile the tab may have closed, or the editor passed the file after all.
      if (this.isDisposed || synced(key) || !tabOpen(key)) return;
      this.opened(key, uri, size);
    } catch (err) {
      log().debug(said`PayGate: ${typed.text(uri.fsPath)} is not a file to check: ${typed.text(errorMessage(err))}`);
    } finally {
      this.looking.delete(key);
    }
  }

  private opened(key: string, uri: vscode.Uri, bytes: number): void {
    const dir = vscode.Uri.file(path.dirname(uri.fsPath));
    const watcher = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(dir, path.basename(uri.fsPath)));
    const entry: Entry = { uri, bytes, watcher, checking: true };
    const changed = () => this.send(key, entry, 'changed');
    watcher.onDidChange(changed);
    watcher.onDidCreate(changed);
    watcher.onDidDelete(changed);
    this.batches.set(key, entry);
    log().info(
      said`PayGate: ${typed.text(uri.fsPath)} (${typed.text(megabytes(bytes))}) is too large for VS Code to pass to extensions; it is checked from disk on open and on save`,
    );
    this.send(key, entry, 'opened');
    this.tellOnce(entry);
    this.showStatus();
  }

  private closed(key: string, entry: Entry): void {
    entry.watcher.dispose();
    this.batches.delete(key);
    this.send(key, entry, 'closed');
  }

  /** The editor passed the document after all (fewer characters than bytes): the language server's own sync takes over. */
  private synced(key: string): void {
    const entry = this.batches.get(key);
    if (!entry) return;
    entry.watcher.dispose();
    this.batches.delete(key);
    this.showStatus();
  }

  private send(key: string, entry: Entry, event: BatchOnDisk['event']): void {
    if (event !== 'closed') entry.checking = true;
    this.showStatus();
    this.client
      .sendNotification(BATCH_ON_DISK_NOTIFICATION, { uri: key, event } satisfies BatchOnDisk)
      .catch((err: unknown) =>
        log().warn(said`PayGate: could not ask for a check of ${typed.text(entry.uri.fsPath)}: ${typed.text(String(err))}`),
      );
  }

  private checked(c: BatchOnDiskChecked): void {
    const entry = this.batches.get(c.uri);
    if (!entry) return;
    entry.checking = false;
    entry.last = c;
    const file = typed.text(entry.uri.fsPath);
    const count = (n: number) => typed.count(n.toLocaleString('en-US'));
    const what = said`${count(c.rows)} rows, ${count(c.problems)} problem${c.problems === 1 ? said`` : said`s`} in ${typed.amount((c.ms / 1000).toFixed(1))} s`;
    if (c.problem) log().warn(said`PayGate: ${file}: ${typed.text(c.problem)}`);
    else log().info(said`PayGate: checked ${file} from disk: ${what}`);
    this.showStatus();
  }

  /** Once per window: why this batch's problems are the saved file's, checked on save. */
  private tellOnce(entry: Entry): void {
    if (this.told) return;
    this.told = true;
    const name = typed.text(path.basename(entry.uri.fsPath));
    const message = said`PayGate checks ${name} each time you save it, not as you type: VS Code passes no file over 50 MB to extensions, and this one is ${typed.text(megabytes(entry.bytes))}. Its problems are those of the file as saved.`;
    void showInfo(message, 'Learn more').then((choice) => {
      if (choice) void vscode.env.openExternal(vscode.Uri.parse(LARGE_BATCHES_DOCS_URL));
    });
  }

  /** The status bar item, while a batch checked from disk is the active tab. */
  private showStatus(): void {
    const input = vscode.window.tabGroups.activeTabGroup.activeTab?.input;
    const entry = input instanceof vscode.TabInputText ? this.batches.get(input.uri.toString()) : undefined;
    this.showSubmit(entry);
    if (!entry) return this.status.hide();
    const name = typed.text(path.basename(entry.uri.fsPath));
    const last = entry.last;
    let icon = '$(history)';
    if (entry.checking) icon = '$(sync~spin)';
    else if (last?.problem) icon = '$(warning)';
    this.status.text = `${icon} PayGate: checked on save`;
    // The file's name and the problem are the person's and the server's words: as text, never as Markdown.
    const tooltip = new vscode.MarkdownString('**');
    tooltip.appendText(shown(said`${name}`));
    tooltip.appendMarkdown(
      `** is ${shown(said`${typed.text(megabytes(entry.bytes))}`)}: VS Code passes no file over 50 MB to extensions, so PayGate cannot check it as you type. It checks the file on disk when it is opened and each time it is saved.\n\n`,
    );
    if (entry.checking) tooltip.appendMarkdown('Checking now…\n\n');
    else if (last?.problem) tooltip.appendText(`${shown(said`${typed.text(last.problem)}`)}\n\n`);
    else if (last)
      tooltip.appendMarkdown(
        shown(
          said`Last check: ${typed.count(last.rows.toLocaleString('en-US'))} rows, ${typed.count(last.problems.toLocaleString('en-US'))} problem${last.problems === 1 ? said`` : said`s`}, ${typed.amount((last.ms / 1000).toFixed(1))} s.\n\n`,
        ),
      );
    tooltip.appendMarkdown('Click to learn more.');
    this.status.tooltip = tooltip;
    this.status.show();
  }

  /** The Submit item and the context key the editor title's Submit and Forecast buttons read. */
  private showSubmit(entry: Entry | undefined): void {
    const key = entry?.uri.toString();
    if (key !== this.activeOnDisk) {
      this.activeOnDisk = key;
      void vscode.commands.executeCommand('setContext', 'paygate.batchOnDiskActive', key !== undefined);
    }
    if (!entry || !vscode.workspace.isTrusted) return this.submit.hide();
    const name = typed.text(path.basename(entry.uri.fsPath));
    this.submit.text = '$(cloud-upload) Submit';
    this.submit.name = 'PayGate: submit the batch checked on save';
    this.submit.tooltip = shown(
      said`Submit ${name} (${typed.text(megabytes(entry.bytes))}) to the environment in the status bar: read from disk as saved, with its progress shown`,
    );
    this.submit.command = { title: 'Submit', command: 'paygate.submit', arguments: [entry.uri] };
    this.submit.show();
  }
}

function synced(key: string): boolean {
  return vscode.workspace.textDocuments.some((d) => d.uri.toString() === key);
}

function tabOpen(key: string): boolean {
  return vscode.window.tabGroups.all.some((g) =>
    g.tabs.some((t) => t.input instanceof vscode.TabInputText && t.input.uri.toString() === key),
  );
}
