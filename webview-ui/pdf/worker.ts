// pdf.js parses a PDF in a worker, so a hostile file can keep the worker busy but never the window. A
// webview's resources are served from another origin than the page, and a worker must be same-origin:
// the worker file (dist/pdf.worker.mjs, the extension's own) is fetched and started from a blob. The CSP
// allows exactly that: connect-src the extension's files, worker-src blob:, scripts by nonce only.
import { pdfjsLib } from './pdfjs';

let started: Promise<Worker> | undefined;

export function startWorker(workerUrl: string): Promise<Worker> {
  started ??= (async () => {
    const response = await fetch(workerUrl);
    if (!response.ok) throw new Error(`the PDF renderer's worker could not be loaded (HTTP ${response.status})`);
    const code = await response.text();
    const url = URL.createObjectURL(new Blob([code], { type: 'text/javascript' }));
    const worker = new Worker(url, { type: 'module', name: 'pdf.js' });
    pdfjsLib.GlobalWorkerOptions.workerPort = worker;
    return worker;
  })();
  return started;
}
