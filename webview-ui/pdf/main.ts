// Entry of the PDF report page (bundled by esbuild.js to dist/pdf-view.js and dist/pdf-view.css). Loaded
// only in a panel that shows a PDF, so the renderer costs nothing until then.
import './pdf.css';
import { PDF_PROTOCOL_VERSION, isHostToPdfPage, type PdfPageToHost } from '../../src/shared/pdfProtocol';
import { PdfApp } from './app';
import type { VsCodeApi } from '../dom';
import { startWorker } from './worker';
import { errorMessage } from '../../src/shared/errorMessage';
import { said, typed } from '../../src/shared/said';

declare function acquireVsCodeApi(): VsCodeApi<PdfPageToHost>;

const vscode = acquireVsCodeApi();
const root = document.getElementById('app')!;
const app = new PdfApp(root, vscode);
const workerUrl = root.dataset.worker ?? '';

let work = Promise.resolve();
window.addEventListener('message', (event: MessageEvent) => {
  if (!isHostToPdfPage(event.data)) {
    vscode.postMessage({ type: 'log', level: 'warn', message: 'Ignored a message that does not match the protocol.' });
    return;
  }
  const msg = event.data;
  // One document at a time, in the order the host sent them.
  work = work
    .then(async () => {
      if (msg.type === 'pdf') await startWorker(workerUrl);
      await app.handle(msg);
    })
    .catch((err: unknown) => {
      vscode.postMessage({ type: 'log', level: 'error', message: `PDF page: ${errorMessage(err)}` });
      void app.handle({
        type: 'pdfFailed',
        title: said`${typed.text(document.title)}`,
        message: said`The PDF renderer could not start: ${typed.text(errorMessage(err))}`,
      });
    });
});

vscode.postMessage({ type: 'ready', version: PDF_PROTOCOL_VERSION });
