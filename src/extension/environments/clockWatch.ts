import * as vscode from 'vscode';
import { formatGatewayDate } from '../../core/dates';
import { JOURNAL_FILE } from '../../local-gateway/journal';
import { simulatedToday } from '../../local-gateway/simulatedDate';
import { STATE_FILE } from '../../local-gateway/state';

// The local gateway's clock as the editor sees it: whoever moves it (this window, another, a terminal's
// `paygate gateway`, curl), the journal or the snapshot of its state directory changes, and the previews
// counting from its date (hovers, the forecast panel) are told, once per new day, not once per request.

const SETTLE_MS = 300;

export class LocalClockWatch implements vscode.Disposable {
  private watching: vscode.Disposable[] = [];
  private dir = '';
  private day: string | undefined;
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly stateDir: () => string,
    private readonly moved: () => void,
  ) {
    this.follow();
  }

  /** Watches the state directory `stateDir()` names now (again after it changed). */
  follow(): void {
    const dir = this.stateDir();
    if (dir === this.dir) return;
    this.stop();
    this.dir = dir;
    this.day = this.read();
    const watcher = vscode.workspace.createFileSystemWatcher(
      new vscode.RelativePattern(vscode.Uri.file(dir), `{${JOURNAL_FILE},${STATE_FILE}}`),
    );
    const look = () => {
      clearTimeout(this.timer);
      this.timer = setTimeout(() => this.check(), SETTLE_MS);
    };
    this.watching = [watcher, watcher.onDidChange(look), watcher.onDidCreate(look), watcher.onDidDelete(look)];
  }

  private read(): string | undefined {
    const d = simulatedToday(this.dir);
    return d && formatGatewayDate(d);
  }

  private check(): void {
    const day = this.read();
    if (day === this.day) return;
    this.day = day;
    this.moved();
  }

  private stop(): void {
    clearTimeout(this.timer);
    for (const d of this.watching) d.dispose();
    this.watching = [];
  }

  dispose(): void {
    this.stop();
  }
}
