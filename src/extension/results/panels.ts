import type * as vscode from 'vscode';
import { contentTitle, ResultsPanel, type PanelActions, type PanelContent } from './panel';
import type { Said } from '../../core/output';
import { PdfPanel } from './pdfPanel';

// The open results and PDF panels, one per thing shown: opening the same file or re-running the same
// report reuses its panel. Disposing this closes them all (the extension stopping).

export class Panels implements vscode.Disposable {
  private readonly tables = new Map<string, ResultsPanel>();
  private readonly pdfs = new Map<string, PdfPanel>();
  /** What "Reconcile…" on a report's page does (the reconciliation feature sets it). */
  reconcileRequest: PanelActions['reconcile'];

  constructor(readonly extensionUri: vscode.Uri) {}

  /** A table panel of ours, known by `key` until it closes. */
  track(key: string, panel: ResultsPanel): void {
    this.tables.set(key, panel);
    panel.actions.reconcile = (report) => this.reconcileRequest?.(report);
    panel.onDidDispose(() => {
      if (this.tables.get(key) === panel) this.tables.delete(key);
    });
  }

  trackPdf(key: string, panel: PdfPanel): void {
    this.pdfs.set(key, panel);
    panel.onDidDispose(() => {
      if (this.pdfs.get(key) === panel) this.pdfs.delete(key);
    });
  }

  table(key: string): ResultsPanel | undefined {
    return this.tables.get(key);
  }

  /** Shows `content` in the panel of `key`, opened when there is none. */
  async openIn(key: string, content: PanelContent): Promise<ResultsPanel> {
    let panel = this.tables.get(key);
    if (!panel) {
      panel = ResultsPanel.create(this.extensionUri, contentTitle(content));
      this.track(key, panel);
    }
    await panel.show(content);
    return panel;
  }

  pdfPanelFor(key: string, title: Said): PdfPanel {
    let panel = this.pdfs.get(key);
    if (!panel) {
      panel = PdfPanel.create(this.extensionUri, title);
      this.trackPdf(key, panel);
    }
    return panel;
  }

  dispose(): void {
    this.tables.forEach((p) => p.panel.dispose());
    this.pdfs.forEach((p) => p.panel.dispose());
  }
}
