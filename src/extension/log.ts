import type * as vscode from 'vscode';
import { window } from 'vscode';
import type { Said } from '../core/output';
import { boundary, showError } from './say';

// One LogOutputChannel for the whole extension (architecture habit 6). Never log secrets; card data and
// control characters cannot reach it: every line written passes the output boundary (src/core/output),
// whoever writes it (the features, the local gateway's log, the callback listener's).
// The entry bundle creates it; each lazily loaded bundle (its own copy of this module) adopts that one.
// So the floor that reads a line is the entry's (dist/boundary.js, which the bundles share), not the writer's: a line that shows dates,
// amounts, counts, hashes or ids is a `Said` (plain data: src/core/output/said.ts), which that floor checks
// value by value, whichever bundle laid it out; `log().info(said`…`)`. Anything else is read whole.
// Activation neither makes the channel nor loads the boundary (issue 40): the channel is made on its first
// use, and the boundary (src/core/output, through ./say.ts) is required with the first line written.
let channel: vscode.LogOutputChannel | undefined;

/** A log line or an error as the log shows it: a `Said` part by part, anything else whole. */
function safeLine(value: unknown): string {
  const { isSaid, saidText, terminalSafe } = boundary();
  if (isSaid(value)) return saidText(value);
  if (value instanceof Error) return terminalSafe(value.stack ?? value.message);
  return terminalSafe(typeof value === 'string' ? value : String(value));
}

/**
 * The channel, every write through the boundary; everything else (level, show, dispose) as it is. The host's
 * channel is made when first used (`made`); once disposed, lines are dropped rather than making another.
 */
function throughBoundary(made: () => vscode.LogOutputChannel): vscode.LogOutputChannel {
  let raw: vscode.LogOutputChannel | undefined;
  let closed = false;
  const use = (act: (c: vscode.LogOutputChannel) => void) => {
    if (!closed) act((raw ??= made()));
  };
  const line =
    (write: (c: vscode.LogOutputChannel, message: string) => void) =>
    (message: unknown, ...args: unknown[]) =>
      use((c) => write(c, [message, ...args].map(safeLine).join(' ')));
  return {
    get name() {
      return 'PayGate';
    },
    get logLevel() {
      return (raw ??= made()).logLevel;
    },
    onDidChangeLogLevel: (listener, thisArgs, disposables) => (raw ??= made()).onDidChangeLogLevel(listener, thisArgs, disposables),
    trace: line((c, m) => c.trace(m)),
    debug: line((c, m) => c.debug(m)),
    info: line((c, m) => c.info(m)),
    warn: line((c, m) => c.warn(m)),
    error: line((c, m) => c.error(m)),
    append: (value: string) => use((c) => c.append(safeLine(value))),
    appendLine: (value: string) => use((c) => c.appendLine(safeLine(value))),
    replace: (value: string) => use((c) => c.replace(safeLine(value))),
    clear: () => raw?.clear(),
    show: (columnOrFocus?: vscode.ViewColumn | boolean, preserveFocus?: boolean) =>
      use((c) => (typeof columnOrFocus === 'number' ? c.show(columnOrFocus, preserveFocus) : c.show(columnOrFocus))),
    hide: () => raw?.hide(),
    dispose: () => {
      closed = true;
      raw?.dispose();
    },
  };
}

/** The extension's one channel, made by the host on its first use (not at activation). */
export function createLog(context: vscode.ExtensionContext): vscode.LogOutputChannel {
  channel = throughBoundary(() => {
    const raw = window.createOutputChannel('PayGate', { log: true });
    context.subscriptions.push(raw);
    return raw;
  });
  return channel;
}

/** In a lazily loaded bundle: use the channel the entry created (never a second one). */
export function useLog(created: vscode.LogOutputChannel): void {
  channel = created;
}

type Write = (message: Said | Error, ...args: (Said | Error)[]) => void;
type Levels = 'trace' | 'debug' | 'info' | 'warn' | 'error' | 'append' | 'appendLine' | 'replace';
/**
 * The channel as the features write to it: a line is a `Said` (our words and typed values, which its floor,
 * throughBoundary, reads part by part) or an Error (its stack, read whole); never a string laid out beforehand.
 */
export type PayGateLog = Omit<vscode.LogOutputChannel, Levels> & { trace: Write; debug: Write; info: Write; warn: Write; error: Write };

export function log(): PayGateLog {
  // The channel is throughBoundary's (made here or adopted from the entry's), whose writes read a `Said` part by part.
  return logChannel() as unknown as PayGateLog;
}

/**
 * The same channel as VS Code's type, for a library that writes lines of its own (the language client): each
 * is free text, read whole by the floor. Our own lines go through log(), as a `Said`.
 */
export function logChannel(): vscode.LogOutputChannel {
  if (!channel) throw new Error('PayGate log used before activation');
  return channel;
}

/** A short message for the user with a "Show log" action; the details belong in the log. */
export async function showErrorWithLog(message: Said): Promise<void> {
  const choice = await showError(message, 'Show log');
  if (choice === 'Show log') channel?.show(true);
}
