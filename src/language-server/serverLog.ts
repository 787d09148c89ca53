import type { Connection } from 'vscode-languageserver';
import { saidText, type Said } from '../core/output';
import { LOG_NOTIFICATION, type LogLine } from '../shared/lintProtocol';

// The lines the language server writes to its client's log (issue 38: mask values, not layouts). A client
// that says it reads them as `Said`s (initializationOptions `{ "paygate": { "saidLog": true } }`: the VS Code
// extension) gets each line as one, by LOG_NOTIFICATION, and its log's floor checks it value by value. Any
// other client (`paygate lsp --stdio` in another editor) gets window/logMessage as before: the line laid out
// here, value by value, then shown by that editor as it is.

/** The server's log: our words and typed values, sent as a `Said` or laid out, as the client reads them. */
export class ServerLog {
  /** Whether the client takes LOG_NOTIFICATION (set once initialize has read its options). */
  saids = false;

  constructor(private readonly connection: Connection) {}

  error(line: Said): void {
    this.write('error', line);
  }

  warn(line: Said): void {
    this.write('warn', line);
  }

  private write(level: LogLine['level'], line: Said): void {
    if (this.saids) void this.connection.sendNotification(LOG_NOTIFICATION, { level, line } satisfies LogLine);
    else this.connection.console[level](saidText(line));
  }
}

/** Whether initializationOptions say the client reads the log as `Said`s. */
export const readsSaidLog = (options: unknown): boolean =>
  (options as { paygate?: { saidLog?: unknown } } | null)?.paygate?.saidLog === true;
