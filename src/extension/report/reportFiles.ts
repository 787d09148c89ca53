import * as fs from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import type * as vscode from 'vscode';
import type { ResultsPanel } from '../results/panel';

// Where the editor streams the reports it runs, as the terminal does (core/report/runReport.ts): a private
// folder of this window's own (0700, each file 0600), so a report costs disk, not the extension host's
// memory. A report's answer may hold what the gateway put in it, so no file outlives its use: a PDF's goes
// once it is read into its pane, a CSV's when its table closes or shows another run, and the folder when
// the extension stops. A window that crashed leaves its folder to the system's temporary-file cleaning.

export class ReportFiles implements vscode.Disposable {
  private dir: string | undefined;
  private count = 0;
  /** The file each open table streams from. */
  private readonly shown = new Map<ResultsPanel, string>();

  /** A new file for one run (not created: the run creates it). */
  next(): string {
    this.dir ??= fs.mkdtempSync(path.join(tmpdir(), 'paygate-reports-'));
    return path.join(this.dir, `report-${++this.count}`);
  }

  /** `file` is what `panel` shows now: the file it showed before goes, and this one when the panel closes. */
  shownIn(panel: ResultsPanel, file: string): void {
    const before = this.shown.get(panel);
    if (before === undefined)
      panel.onDidDispose(() => {
        this.remove(this.shown.get(panel));
        this.shown.delete(panel);
      });
    else if (before !== file) this.remove(before);
    this.shown.set(panel, file);
  }

  remove(file: string | undefined): void {
    if (file !== undefined) fs.rmSync(file, { force: true });
  }

  dispose(): void {
    if (this.dir !== undefined) fs.rmSync(this.dir, { recursive: true, force: true });
    this.shown.clear();
  }
}
