// How the editor suites wait: on the event that matters, each wait bounded by a deadline that holds on a
// loaded machine. A wait that succeeds ends when its event comes, so a deadline only decides how long a
// failing run takes to say so: it is set for two shared cores at a load of 8 and more (CI and this team's
// machine), where the editor's host runs many times slower than on a quiet one, not for a quiet laptop.
import type * as vscode from 'vscode';

/** One wait for the editor, the language server, a task or a page to do one thing. */
export const DEADLINE_MS = 60_000;

/** One test (mocha's timeout): a few waits and the work between them. */
export const TEST_TIMEOUT_MS = 180_000;

/** At most this many probes per wait, whatever the clock says (a backstop; the deadline decides first). */
const MAX_PROBES = 100_000;

export interface UntilOptions {
  /** Probe again when one of these fires (the diagnostics, the tabs…). */
  events?: vscode.Event<unknown>[];
  /** And at least this often, for what no event announces (a file written by another process). */
  everyMs?: number;
  ms?: number;
}

/**
 * Probes until `probe` gives a value (anything but undefined or false), waking on `events` and at least
 * every `everyMs`; fails naming `what` at the deadline.
 */
export async function until<T>(
  what: string,
  probe: () => T | undefined | false | Promise<T | undefined | false>,
  o: UntilOptions = {},
): Promise<T> {
  const deadline = Date.now() + (o.ms ?? DEADLINE_MS);
  for (let probes = 1; ; probes++) {
    const value = await probe();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline || probes >= MAX_PROBES) throw new Error(`timed out waiting for ${what}`);
    await nextChance(o.events ?? [], o.everyMs ?? 100);
  }
}

/** Resolves at the first of the events, or after `ms`. */
function nextChance(events: vscode.Event<unknown>[], ms: number): Promise<void> {
  return new Promise<void>((resolve) => {
    const subs: vscode.Disposable[] = [];
    const timer = setTimeout(done, ms);
    for (const event of events) subs.push(event(done));
    function done(): void {
      clearTimeout(timer);
      for (const s of subs) s.dispose();
      resolve();
    }
  });
}
