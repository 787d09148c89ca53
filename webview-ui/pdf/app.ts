// The PDF report page: the report's banner, a toolbar (pages, zoom, find, save) and the document.
import {
  formatBytes,
  PDF_PROTOCOL_VERSION,
  type HostToPdfPage,
  type PdfPageToHost,
  type PdfPersistedState,
  type ReportInfo,
} from '../../src/shared/pdfProtocol';
import { el, type VsCodeApi } from '../dom';
import { renderReportBanner } from '../reportBanner';
import { guardLinks } from './links';
import { PdfDocumentView, type FindStatus } from './viewer';
import { errorMessage } from '../../src/shared/errorMessage';
import { said, saidText, typed } from '../../src/shared/said';

function findText(s: FindStatus): string {
  if (s.state === 'pending') return 'Searching…';
  if (s.state === 'not-found' || s.total === 0) return 'No match';
  const wrapped = s.state === 'wrapped' ? ' (wrapped)' : '';
  return `${s.current} of ${s.total} ${s.total === 1 ? 'match' : 'matches'}${wrapped}`;
}

export class PdfApp {
  private readonly banner = el('div', { class: 'banner-host' });
  private readonly message = el('div', { class: 'pdf-message', role: 'status', 'aria-live': 'polite' });
  private readonly pageInput = el('input', { type: 'number', min: '1', value: '1', 'aria-label': 'Page', class: 'pdf-page-input' });
  private readonly pageCount = el('span', { class: 'pdf-page-count' }, '/ 0');
  private readonly zoomLabel = el('span', { class: 'pdf-zoom', 'aria-live': 'polite' }, '');
  private readonly findInput = el('input', { type: 'search', placeholder: 'Find in PDF (Ctrl+F)', 'aria-label': 'Find in PDF' });
  private readonly findCount = el('span', { class: 'pdf-find-count', 'aria-live': 'polite' }, '');
  readonly container = el('div', { class: 'pdf-container', tabindex: '0', 'aria-label': 'PDF pages' });
  private view: PdfDocumentView | undefined;

  constructor(
    root: HTMLElement,
    private readonly vscode: VsCodeApi<PdfPageToHost>,
  ) {
    this.container.append(el('div', { class: 'pdfViewer' }));
    const button = (label: string, title: string, run: () => void) => {
      const b = el('button', { type: 'button', title, 'aria-label': title }, label);
      b.addEventListener('click', run);
      return b;
    };
    const toolbar = el('div', { class: 'pdf-toolbar', role: 'toolbar', 'aria-label': 'PDF' });
    toolbar.append(
      button('‹', 'Previous page', () => this.view?.goTo(this.view.page - 1)),
      this.pageInput,
      this.pageCount,
      button('›', 'Next page', () => this.view?.goTo(this.view.page + 1)),
      el('span', { class: 'pdf-sep' }),
      button('−', 'Zoom out', () => this.view?.zoom(-1)),
      this.zoomLabel,
      button('+', 'Zoom in', () => this.view?.zoom(1)),
      button('Fit width', 'Fit the page to the width of the pane', () => this.view?.fitWidth()),
      el('span', { class: 'pdf-sep' }),
      this.findInput,
      button('↑', 'Previous match', () => this.find(true)),
      button('↓', 'Next match', () => this.find(false)),
      this.findCount,
      el('span', { class: 'pdf-grow' }),
      button('Save PDF…', 'Save the PDF as it was received', () => this.vscode.postMessage({ type: 'save' })),
    );
    const body = el('div', { class: 'pdf-body' });
    body.append(this.container);
    root.append(this.banner, toolbar, this.message, body);

    this.pageInput.addEventListener('change', () => this.view?.goTo(Number(this.pageInput.value)));
    this.findInput.addEventListener('keydown', (e) => {
      if (e.key === 'Enter') this.find(e.shiftKey);
      if (e.key === 'Escape') {
        this.findInput.value = '';
        this.findCount.textContent = '';
        this.view?.clearFind();
      }
    });
    document.addEventListener('keydown', (e) => {
      if ((e.ctrlKey || e.metaKey) && e.key.toLowerCase() === 'f') {
        e.preventDefault();
        this.findInput.focus();
        this.findInput.select();
      }
    });
    guardLinks(this.container, (url) => this.vscode.postMessage({ type: 'openLink', url }));
  }

  private find(previous: boolean): void {
    const q = this.findInput.value;
    if (q.trim() === '') return;
    this.view?.find(q, previous);
  }

  private say(text: string, kind: 'info' | 'error' = 'info'): void {
    this.message.textContent = text;
    this.message.dataset.kind = kind;
    this.message.hidden = text === '';
  }

  private showBanner(title: string, info?: ReportInfo): void {
    document.title = title;
    this.banner.replaceChildren(renderReportBanner(title, info));
  }

  async handle(msg: HostToPdfPage): Promise<void> {
    switch (msg.type) {
      case 'pdf': {
        // The title laid out value by value (issue 38), once: the state keeps the text shown.
        const title = saidText(msg.title);
        this.vscode.setState({ v: PDF_PROTOCOL_VERSION, title, file: msg.file } satisfies PdfPersistedState);
        await this.show(title, msg.info, msg.data);
        break;
      }
      case 'pdfFailed':
        this.showBanner(saidText(msg.title));
        this.say(saidText(msg.message), 'error');
        document.body.dataset.state = 'refused';
        break;
      case 'saveDone':
        this.say(saidText(msg.message), msg.ok ? 'info' : 'error');
        break;
    }
  }

  private async show(title: string, info: ReportInfo, data: Uint8Array): Promise<void> {
    this.showBanner(title, info);
    this.say('Opening the PDF…');
    document.body.dataset.state = 'loading';
    try {
      await this.view?.dispose();
      this.view = new PdfDocumentView(this.container, {
        onPageChange: (page, pages) => {
          this.pageInput.value = String(page);
          this.pageCount.textContent = `/ ${pages}`;
        },
        onScaleChange: (percent) => (this.zoomLabel.textContent = `${percent}%`),
        onFind: (s) => (this.findCount.textContent = findText(s)),
      });
      const { pages } = await this.view.open(data);
      this.pageInput.max = String(pages);
      this.pageCount.textContent = `/ ${pages}`;
      this.say('');
      document.body.dataset.state = 'ready';
      document.body.dataset.pages = String(pages);
      this.vscode.postMessage({ type: 'log', level: 'info', message: `PDF shown: ${pages} pages, ${formatBytes(info.bytes)}` });
    } catch (err) {
      const message = errorMessage(err);
      this.say(saidText(said`${typed.text(message)} “Save PDF…” still writes the bytes as they were received.`), 'error');
      document.body.dataset.state = 'refused';
      this.vscode.postMessage({ type: 'log', level: 'warn', message: `PDF refused: ${message}` });
    }
  }
}
