// The page's side of the parse worker (csvWorker.ts): the worker's code is in the page's bundle as text
// (main.ts imports it through esbuild.js's worker-source plugin) and starts from a blob, as a webview's own
// files are served from another origin than the page and a worker must be same-origin; the CSP allows
// worker-src blob: for it.
// Where no worker can start (no Worker, or a policy that refuses it) or it fails, every answer is null
// and the page reads the chunk itself: nothing depends on the worker but speed.
import type { DetachedRecords } from './csvReader';
import type { ReadAnswer, ReadRequest } from './csvWorker';

/** Reads a chunk's records from its first record start elsewhere; null: the page must read it. */
export interface DetachedReader {
  read(bytes: Uint8Array, delimiter: number, width: number): Promise<DetachedRecords | null>;
}

export class ParseWorker implements DetachedReader {
  /** Undefined until first needed; null when it cannot start or has failed. */
  private worker: Worker | null | undefined;
  private next = 0;
  private readonly waiting = new Map<number, (records: DetachedRecords | null) => void>();

  /** `source`: the worker's bundle (csvWorker.ts), as text. */
  constructor(private readonly source: string) {}

  read(bytes: Uint8Array, delimiter: number, width: number): Promise<DetachedRecords | null> {
    const worker = this.start();
    if (!worker) return Promise.resolve(null);
    const id = this.next++;
    return new Promise((resolve) => {
      this.waiting.set(id, resolve);
      const request: ReadRequest = { id, bytes, delimiter, width };
      // The bytes move to the worker (no copy); the page keeps its decoded text.
      worker.postMessage(request, [bytes.buffer]);
    });
  }

  private start(): Worker | null {
    if (this.worker !== undefined) return this.worker;
    this.worker = null;
    if (typeof Worker === 'undefined') return null;
    try {
      const url = URL.createObjectURL(new Blob([this.source], { type: 'text/javascript' }));
      const worker = new Worker(url, { name: 'csv' });
      worker.onmessage = (event: MessageEvent<ReadAnswer>) => {
        const resolve = this.waiting.get(event.data.id);
        this.waiting.delete(event.data.id);
        resolve?.(event.data.records);
      };
      worker.onerror = () => this.fail();
      worker.onmessageerror = () => this.fail();
      this.worker = worker;
    } catch {
      // A policy that refuses blob workers throws here: the page reads everything itself.
    }
    return this.worker;
  }

  /** The worker broke: what it had is read by the page, and so is everything after. */
  private fail(): void {
    this.worker?.terminate();
    this.worker = null;
    for (const resolve of this.waiting.values()) resolve(null);
    this.waiting.clear();
  }
}
