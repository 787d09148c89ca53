// A PDF report in the pane: the page (webview-ui/pdf) draws it with pdf.js; the host hands it the bytes,
// saves them as received, and asks the user before opening any link the PDF holds.
import * as vscode from 'vscode';
import { log } from '../log';
import { pdfDirectives } from './html';
import { PanelPage, webviewOptions } from './webviewPage';
import { saveAs } from './saveAs';
import {
  formatBytes,
  isPdfPageToHost,
  MAX_PDF_BYTES,
  PDF_VIEW_TYPE,
  type HostToPdfPage,
  type PdfPageToHost,
  type ReportInfo,
} from '../../shared/pdfProtocol';
import { shown, showWarning } from '../say';
import { ourWords, said, typed, type Said } from '../../core/output';

export interface PdfContent {
  /** Our words and the report's name: the panel's title (read here) and the page's (laid out there). */
  title: Said;
  info: ReportInfo;
  bytes: Uint8Array;
  /** Suggested file name for "Save PDF…". */
  fileName: string;
  /** The saved report it was read from, so a reloaded window reads it again. */
  file?: vscode.Uri;
}

export class PdfPanel extends PanelPage {
  private content: PdfContent | { title: Said; failed: Said } | undefined;

  constructor(panel: vscode.WebviewPanel, extensionUri: vscode.Uri) {
    super(panel, extensionUri, {
      name: 'pdf-view',
      extraDirectives: pdfDirectives(panel.webview.cspSource),
      assets: { worker: 'pdf.worker.mjs' },
    });
  }

  static create(extensionUri: vscode.Uri, title: Said): PdfPanel {
    const panel = vscode.window.createWebviewPanel(
      PDF_VIEW_TYPE,
      shown(title),
      { viewColumn: vscode.ViewColumn.Active, preserveFocus: false },
      webviewOptions(extensionUri),
    );
    return new PdfPanel(panel, extensionUri);
  }

  async show(content: PdfContent): Promise<void> {
    this.content = content;
    this.panel.title = shown(content.title);
    this.panel.reveal(undefined, false);
    if (this.isReady) await this.send();
  }

  /** Shows why there is nothing to draw (unreadable or oversized file) in the pane itself. */
  async fail(title: Said, message: Said): Promise<void> {
    this.content = { title, failed: message };
    this.panel.title = shown(title);
    this.panel.reveal(undefined, false);
    if (this.isReady) await this.send();
  }

  private post(msg: HostToPdfPage): Thenable<boolean> {
    return this.panel.webview.postMessage(msg);
  }

  private async send(): Promise<void> {
    const c = this.content;
    if (!c) return;
    if ('failed' in c) await this.post({ type: 'pdfFailed', title: c.title, message: c.failed });
    else if (c.bytes.length > MAX_PDF_BYTES) {
      // Kept for "Save PDF…", never handed to the renderer.
      const message = said`This PDF is ${typed.text(formatBytes(c.bytes.length))}, more than the ${typed.text(formatBytes(MAX_PDF_BYTES))} the pane shows. “Save PDF…” writes it as it was received.`;
      await this.post({ type: 'pdfFailed', title: c.title, message });
    } else await this.post({ type: 'pdf', title: c.title, info: c.info, data: c.bytes, file: c.file?.toString() });
  }

  protected async onMessage(raw: unknown): Promise<void> {
    if (!isPdfPageToHost(raw)) {
      log().warn(said`PDF panel: ignored a message that does not match the protocol`);
      return;
    }
    const msg: PdfPageToHost = raw;
    switch (msg.type) {
      case 'ready':
        this.isReady = true;
        await this.send();
        break;
      case 'save':
        await this.save();
        break;
      case 'openLink':
        await openLinkWithConfirmation(msg.url);
        break;
      case 'log':
        log()[msg.level](said`PDF panel: ${typed.text(msg.message)}`);
        break;
    }
  }

  private async save(): Promise<void> {
    const c = this.content;
    if (!c || 'failed' in c) {
      await this.post({ type: 'saveDone', ok: false, message: ourWords('There is no PDF to save.') });
      return;
    }
    await saveAs({
      title: 'PayGate: save the PDF report',
      suggestedName: c.fileName,
      filters: { PDF: ['pdf'] },
      // The bytes as received: never re-encoded by the renderer.
      bytes: () => c.bytes,
      tell: (ok, message) => this.post({ type: 'saveDone', ok, message }),
      words: {
        cancelled: ourWords('Not saved.'),
        saved: (file) => said`Saved to ${typed.text(file)}.`,
        failed: (why) => said`Not saved: ${typed.text(why)}`,
      },
      logAs: 'PDF panel: saving',
      afterSave: (target) => log().info(said`Report PDF saved to ${typed.text(target.fsPath)} (${typed.count(c.bytes.length)} bytes)`),
    });
  }

  override dispose(): void {
    this.content = undefined;
    super.dispose();
  }
}

/** Only links a browser would open elsewhere are offered; javascript:, file:, data: and the like never. */
export function isOpenableLink(url: string): boolean {
  try {
    const u = new URL(url);
    return u.protocol === 'https:' || u.protocol === 'http:' || u.protocol === 'mailto:';
  } catch {
    return false;
  }
}

/** A link from a PDF is untrusted: only web and mail links, and only after the user says yes. */
export async function openLinkWithConfirmation(url: string): Promise<boolean> {
  if (!isOpenableLink(url)) {
    log().warn(said`PDF panel: a link that is not a web or mail address was not opened (${typed.text(url.slice(0, 200))})`);
    void showWarning(said`PayGate: this link in the PDF is not a web or mail address, so it is not opened.`);
    return false;
  }
  const choice = await showWarning(
    said`Open a link from the PDF report?`,
    { modal: true, detail: said`${typed.text(url)}\n\nThe PDF came from the gateway; open the link only if you expected it.` },
    'Open Link',
  );
  if (choice !== 'Open Link') return false;
  return vscode.env.openExternal(vscode.Uri.parse(url, true));
}
