import * as vscode from 'vscode';
import { isSaid, saidText, terminalSafe } from '../core/output';
import { showError, type Shown } from './say';

// One LogOutputChannel for the whole extension (architecture habit 6). Never log secrets; card data and
// control characters cannot reach it: every line written passes the output boundary (src/core/output),
// whoever writes it (the features, the local gateway's log, the callback listener's).
// The entry bundle creates it; each lazily loaded bundle (its own copy of this module) adopts that one.
// So the floor that reads a line is the entry's copy of the core, not the writer's: a line that shows dates,
// amounts, counts, hashes or ids is a `Said` (plain data: src/core/output/said.ts), which that floor checks
// value by value, whichever bundle laid it out; `log().info(said`…`)`. Anything else is read whole.
let channel: vscode.LogOutputChannel | undefined;

/** A log line or an error as the log shows it: a `Said` part by part, anything else whole. */
function safeLine(value: unknown): string {
  if (isSaid(value)) return saidText(value);
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

type Write = (message: Shown, ...args: unknown[]) => void;
/** The channel as the features write to it: a line may be a `Said` (its floor, throughBoundary, reads one). */
export type PayGateLog = vscode.LogOutputChannel & { trace: Write; debug: Write; info: Write; warn: Write; error: Write };

export function log(): PayGateLog {
  if (!channel) throw new Error('PayGate log used before activation');
  return channel as PayGateLog;
}

/** A short message for the user with a "Show log" action; the details belong in the log. */
export async function showErrorWithLog(message: Shown): Promise<void> {
  const choice = await showError(message, 'Show log');
  if (choice === 'Show log') channel?.show(true);
}
