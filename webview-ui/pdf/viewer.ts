// One PDF on the page, drawn by pdf.js's own viewer: pages are laid out at once but rendered lazily (only
// those in view and a few around them), with a text layer for selection and pdf.js's find controller for
// search. Nothing in the document can act: no scripts (no scripting manager, no eval), forms drawn as
// their appearance only, and links handed to the host instead of followed (links.ts).
import './pdfjs';
import { AnnotationMode, InvalidPDFException, type PDFDocumentProxy } from 'pdfjs-dist';
import { EventBus, GenericL10n, LinkTarget, PDFFindController, PDFLinkService, PDFViewer } from 'pdfjs-dist/web/pdf_viewer.mjs';
import { MAX_CANVAS_PIXELS, MAX_IMAGE_PIXELS, MAX_PDF_PAGES } from '../../src/shared/pdfProtocol';
import { pdfjsLib } from './pdfjs';
import { errorMessage } from '../../src/shared/errorMessage';

export interface FindStatus {
  /** 1-based index of the current match, 0 when none. */
  current: number;
  total: number;
  state: 'found' | 'not-found' | 'wrapped' | 'pending';
}

export interface ViewerEvents {
  onPageChange(page: number, pages: number): void;
  onScaleChange(percent: number): void;
  onFind(status: FindStatus): void;
}

/** Why a PDF is not shown, in the merchant's words; pdf.js's own text goes to the log. */
export function refusalMessage(err: unknown): string {
  if (err instanceof InvalidPDFException) return 'This file is damaged or is not a PDF: it cannot be shown.';
  const name = (err as { name?: string } | null)?.name;
  if (name === 'PasswordException') return 'This PDF is protected by a password: it is not shown here.';
  if (name === 'InvalidPDFException') return 'This file is damaged or is not a PDF: it cannot be shown.';
  return `This PDF cannot be shown: ${errorMessage(err)}`;
}

const FIND_STATE: Record<number, FindStatus['state']> = { 0: 'found', 1: 'not-found', 2: 'wrapped', 3: 'pending' };

export class PdfDocumentView {
  readonly eventBus = new EventBus();
  private readonly linkService: PDFLinkService;
  private readonly findController: PDFFindController;
  private readonly viewer: PDFViewer;
  private document: PDFDocumentProxy | undefined;
  private lastQuery = '';
  /** True until the person zooms: the page then keeps the width of the pane as the pane changes size. */
  private fitting = true;

  constructor(
    readonly container: HTMLDivElement,
    events: ViewerEvents,
  ) {
    // Links never navigate the page: NONE leaves the href for show, links.ts intercepts the click.
    this.linkService = new PDFLinkService({ eventBus: this.eventBus, externalLinkTarget: LinkTarget.NONE });
    this.findController = new PDFFindController({ eventBus: this.eventBus, linkService: this.linkService });
    const viewerDiv = container.querySelector<HTMLDivElement>('.pdfViewer')!;
    this.viewer = new PDFViewer({
      container,
      viewer: viewerDiv,
      eventBus: this.eventBus,
      linkService: this.linkService,
      findController: this.findController,
      // The fallback strings are built in: no locale files are fetched.
      l10n: new GenericL10n(undefined),
      annotationMode: AnnotationMode.ENABLE,
      maxCanvasPixels: MAX_CANVAS_PIXELS,
      removePageBorders: false,
    });
    this.linkService.setViewer(this.viewer);
    this.eventBus.on('pagechanging', (e: { pageNumber: number }) => events.onPageChange(e.pageNumber, this.viewer.pagesCount));
    this.eventBus.on('scalechanging', (e: { scale: number }) => events.onScaleChange(Math.round(e.scale * 100)));
    const onFind = (e: { state?: number; matchesCount?: { current: number; total: number } }) =>
      events.onFind({
        current: e.matchesCount?.current ?? 0,
        total: e.matchesCount?.total ?? 0,
        state: FIND_STATE[e.state ?? 0] ?? 'found',
      });
    this.eventBus.on('updatefindcontrolstate', onFind);
    // A pane opened narrow, or before its layout settled, fitted the page to that width (a report read at
    // 49 %); re-fit as the pane takes its real size, until the person chooses a zoom of their own.
    new ResizeObserver(() => {
      if (this.fitting && this.document && container.clientWidth > 0) this.viewer.currentScaleValue = 'page-width';
    }).observe(container);
    this.eventBus.on('updatefindmatchescount', (e: { matchesCount: { current: number; total: number } }) =>
      events.onFind({ current: e.matchesCount.current, total: e.matchesCount.total, state: 'found' }),
    );
  }

  /** Opens the bytes; rejects with a merchant-readable message when the PDF cannot or may not be shown. */
  async open(data: Uint8Array): Promise<{ pages: number }> {
    const task = pdfjsLib.getDocument({
      // A copy: pdf.js transfers the buffer to its worker, and the page keeps the original for nothing.
      data: data.slice(),
      isEvalSupported: false,
      enableXfa: false,
      maxImageSize: MAX_IMAGE_PIXELS,
      stopAtErrors: false,
      // Fonts a report does not embed (Helvetica) are drawn with the system's: nothing is fetched.
      useSystemFonts: true,
      useWasm: false,
    });
    // No onPassword handler: pdf.js then rejects a protected file with a PasswordException.
    let doc: PDFDocumentProxy;
    try {
      doc = await task.promise;
    } catch (err) {
      throw new Error(refusalMessage(err), { cause: err });
    }
    if (doc.numPages > MAX_PDF_PAGES) {
      await doc.destroy();
      throw new Error(
        `This PDF has ${doc.numPages.toLocaleString('en-US')} pages, more than the ${MAX_PDF_PAGES.toLocaleString('en-US')} the pane shows. Save it and open it with a PDF reader.`,
      );
    }
    this.document = doc;
    const ready = new Promise<void>((resolve) => this.eventBus.on('pagesinit', () => resolve(), { once: true }));
    this.viewer.setDocument(doc);
    this.linkService.setDocument(doc, null);
    await ready;
    this.fitWidth();
    return { pages: doc.numPages };
  }

  get pages(): number {
    return this.viewer.pagesCount;
  }

  get page(): number {
    return this.viewer.currentPageNumber;
  }

  goTo(page: number): void {
    if (!this.document) return;
    this.viewer.currentPageNumber = Math.min(Math.max(1, Math.round(page)), this.viewer.pagesCount);
  }

  fitWidth(): void {
    this.fitting = true;
    this.viewer.currentScaleValue = 'page-width';
  }

  zoom(steps: number): void {
    this.fitting = false;
    if (steps > 0) this.viewer.increaseScale({ steps });
    else this.viewer.decreaseScale({ steps: -steps });
  }

  /** A new query starts at the current page; the same one again moves to the next (or previous) match. */
  find(query: string, previous = false): void {
    const again = query === this.lastQuery;
    this.lastQuery = query;
    this.eventBus.dispatch('find', {
      source: this,
      type: again ? 'again' : '',
      query,
      caseSensitive: false,
      entireWord: false,
      highlightAll: true,
      findPrevious: previous,
      matchDiacritics: false,
    });
  }

  clearFind(): void {
    this.lastQuery = '';
    this.eventBus.dispatch('findbarclose', { source: this });
  }

  async dispose(): Promise<void> {
    this.viewer.setDocument(null as unknown as PDFDocumentProxy);
    await this.document?.destroy();
    this.document = undefined;
  }
}
