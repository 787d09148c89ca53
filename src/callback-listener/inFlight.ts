// The calls a listener has received and not yet answered, so that stopping it (Ctrl+C, SIGTERM, the
// editor's Stop) answers them first: a gateway that gets no answer retries, and its handler sees the call
// twice or, when it stops retrying, never.

import type * as http from 'node:http';

export class InFlight {
  private readonly calls = new Map<http.ServerResponse, http.IncomingMessage>();
  private readonly waiters = new Set<() => void>();

  get size(): number {
    return this.calls.size;
  }

  /** Tracks one call until its answer is out (or its connection is gone). */
  add(req: http.IncomingMessage, res: http.ServerResponse): void {
    this.calls.set(res, req);
    res.once('close', () => {
      this.calls.delete(res);
      if (this.calls.size === 0) for (const w of [...this.waiters]) w();
    });
  }

  /** The calls not answered yet. */
  unanswered(): [http.IncomingMessage, http.ServerResponse][] {
    return [...this.calls].filter(([res]) => !res.headersSent).map(([res, req]) => [req, res]);
  }

  /** Resolves once every tracked call is answered, or after `ms`, whichever comes first. */
  drained(ms: number): Promise<void> {
    if (this.calls.size === 0) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.waiters.delete(done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.waiters.add(done);
    });
  }
}
