// The page's side of the parse worker (csvWorker.ts): the worker's code is in the page's bundle as text
// (main.ts imports it through esbuild.js's worker-source plugin) and starts from a blob, as a webview's own
// files are served from another origin than the page and a worker must be same-origin; the CSP allows
// worker-src blob: for it.
// Where no worker can start (no Worker, or a policy that refuses it) or it fails, every answer is null
// and the page decodes and reads the chunk itself (it keeps the bytes): nothing depends on the worker but speed.
import type { DetachedRecords } from './csvReader';
import type { ReadAnswer, ReadRequest } from './csvWorker';

/** A chunk read elsewhere: its text, and its records from the first record start (null: none found). */
export interface Detached {
  text: string;
  records: DetachedRecords | null;
}

/** Decodes a chunk and reads its records from its first record start elsewhere; null: the page must do both. */
export interface DetachedReader {
  read(bytes: Uint8Array, delimiter: number, width: number): Promise<Detached | null>;
}

export class ParseWorker implements DetachedReader {
  /** Undefined until first needed; null when it cannot start or has failed. */
  private worker: Worker | null | undefined;
  private next = 0;
  private readonly waiting = new Map<number, (answer: Detached | null) => void>();

  /** `source`: the worker's bundle (csvWorker.ts), as text. */
  constructor(private readonly source: string) {}

  read(bytes: Uint8Array, delimiter: number, width: number): Promise<Detached | null> {
    const worker = this.start();
    if (!worker) return Promise.resolve(null);
    const id = this.next++;
    return new Promise((resolve) => {
      this.waiting.set(id, resolve);
      const request: ReadRequest = { id, bytes, delimiter, width };
      // The worker gets a copy of the bytes (not transferred): the page keeps them until the answer, to
      // decode and read them itself should the worker fail.
      worker.postMessage(request);
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
        resolve?.({ text: event.data.text, records: event.data.records });
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
