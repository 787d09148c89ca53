import * as vscode from 'vscode';
import { terminalSafe } from '../core/output';
import { showError } from './say';

// One LogOutputChannel for the whole extension (architecture habit 6). Never log secrets; card data and
// control characters cannot reach it: every line written passes the output boundary (src/core/output),
// whoever writes it (the features, the local gateway's log, the callback listener's).
// The entry bundle creates it; each lazily loaded bundle (its own copy of this module) adopts that one.
let channel: vscode.LogOutputChannel | undefined;

/** A log line or an error as the log shows it. */
function safeLine(value: unknown): string {
  if (value instanceof Error) return terminalSafe(value.stack ?? value.message);
  return terminalSafe(typeof value === 'string' ? value : String(value));
}

/** The channel, every write through the boundary; everything else (level, show, dispose) as it is. */
function throughBoundary(raw: vscode.LogOutputChannel): vscode.LogOutputChannel {
  const line =
    (write: (message: string) => void) =>
    (message: unknown, ...args: unknown[]) =>
      write([message, ...args].map(safeLine).join(' '));
  return {
    get name() {
      return raw.name;
    },
    get logLevel() {
      return raw.logLevel;
    },
    onDidChangeLogLevel: raw.onDidChangeLogLevel,
    trace: line((m) => raw.trace(m)),
    debug: line((m) => raw.debug(m)),
    info: line((m) => raw.info(m)),
    warn: line((m) => raw.warn(m)),
    error: line((m) => raw.error(m)),
    append: (value: string) => raw.append(safeLine(value)),
    appendLine: (value: string) => raw.appendLine(safeLine(value)),
    replace: (value: string) => raw.replace(safeLine(value)),
    clear: () => raw.clear(),
    show: (columnOrFocus?: vscode.ViewColumn | boolean, preserveFocus?: boolean) =>
      typeof columnOrFocus === 'number' ? raw.show(columnOrFocus, preserveFocus) : raw.show(columnOrFocus),
    hide: () => raw.hide(),
    dispose: () => raw.dispose(),
  };
}

export function createLog(context: vscode.ExtensionContext): vscode.LogOutputChannel {
  const raw = vscode.window.createOutputChannel('PayGate', { log: true });
  context.subscriptions.push(raw);
  channel = throughBoundary(raw);
  return channel;
}

/** In a lazily loaded bundle: use the channel the entry created (never a second one). */
export function useLog(created: vscode.LogOutputChannel): void {
  channel = created;
}

export function log(): vscode.LogOutputChannel {
  if (!channel) throw new Error('PayGate log used before activation');
  return channel;
}

/** A short message for the user with a "Show log" action; the details belong in the log. */
export async function showErrorWithLog(message: string): Promise<void> {
  const choice = await showError(message, 'Show log');
  if (choice === 'Show log') channel?.show(true);
}
