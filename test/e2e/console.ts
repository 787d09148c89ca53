// The extension host's console output reaches the browser console. Forward it to stdout so CI shows
// the suite's lines; keep everything (workbench noise included) in a log file for diagnosis.
import * as fs from 'node:fs';
import type { Page } from 'playwright-core';

export interface ForwardedConsole {
  /** the suite's last `N passed, N failed` line, once seen */
  summary(): string | undefined;
  /** resolves with 1 if the extension host dies before the suite settles */
  hostCrashed: Promise<number>;
}

const SUMMARY = /^\d+ passed, \d+ failed(, \d+ skipped)?$/;

/** `say`: where the suite's lines go (default: standard output, and the host's crash to standard error). */
export function forwardConsole(page: Page, logFile: string, say?: (line: string) => void): ForwardedConsole {
  const log = fs.createWriteStream(logFile);
  let summary: string | undefined;
  let inSuite = false;
  let crashed: (code: number) => void = () => undefined;
  const hostCrashed = new Promise<number>((resolve) => (crashed = resolve));
  page.on('console', (msg) => {
    const text = msg.text();
    log.write(`[${msg.type()}] ${text}\n`);
    const message = loggedMessage(text);
    // The workbench logs through the same channel; from the runner's banner to its summary the lines
    // are the suite's (with the odd workbench line between them, which is harmless).
    if (message !== undefined) {
      if (message.startsWith(SUITE_BANNER)) inSuite = true;
      if (inSuite) {
        for (const line of message.split('\n')) {
          (say ?? console.log)(line);
          if (SUMMARY.test(line.trim())) {
            summary = line.trim();
            inSuite = false;
          }
        }
      }
    }
    if (/Extension host .*terminated unexpectedly/i.test(text)) {
      (say ?? console.error)(`[e2e] ${text}`);
      crashed(1);
    }
  });
  page.on('pageerror', (err) => log.write(`[pageerror] ${err.stack ?? err.message}\n`));
  page.on('close', () => log.end());
  return { summary: () => summary, hostCrashed };
}

/** Printed first by test/integration/index.ts. */
export const SUITE_BANNER = 'PayGate integration suite:';

/**
 * The workbench's log service prints `%c LEVEL` + a CSS argument + the message, which msg.text()
 * joins with spaces: `%c INFO color: #33f message`. Returns the message, or undefined for other lines.
 */
export function loggedMessage(text: string): string | undefined {
  const m = text.match(/^%c\s*(?:TRACE|DEBUG|INFO|WARN|ERR|ERROR)\s+color:\s*[^ ]+ ([\s\S]*)$/);
  return m ? m[1] : undefined;
}
