// A small LSP client for the tests: spawns `node dist/cli.js lsp --stdio` (the build of this checkout)
// and speaks JSON-RPC to it with vscode-languageserver-protocol, recording every publishDiagnostics.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  createProtocolConnection,
  PublishDiagnosticsNotification,
  StreamMessageReader,
  StreamMessageWriter,
  type ClientCapabilities,
  type Diagnostic,
  type ProtocolConnection,
} from 'vscode-languageserver-protocol/node';
import { WAIT_MS } from '../fixtures/deadlines';

export const ROOT = path.resolve(__dirname, '../..');
export const CLI = path.join(ROOT, 'dist', 'cli.js');
export { LANGUAGE_ID } from '../../src/shared/lintProtocol';
const DEADLINE_MS = WAIT_MS;

export interface Published {
  uri: string;
  version?: number;
  diagnostics: Diagnostic[];
  /** Order of arrival among everything the test recorded (publishes and its own marks). */
  seq: number;
  /** When it arrived (performance.now()), read and parsed: what a bench times. */
  at: number;
}

/** A diagnostic's message as text (LSP allows Markdown content there; our server sends a string). */
export const messageText = (d: { message: string | { value: string } }): string =>
  typeof d.message === 'string' ? d.message : d.message.value;

export class TestClient {
  readonly connection: ProtocolConnection;
  readonly published: Published[] = [];
  private seq = 0;
  private waiters: (() => void)[] = [];
  private readonly child: ChildProcess;
  stderr = '';

  /** `env` adds to the test's own; the submission ledger is an empty one of this client's unless it names one. */
  constructor(args: string[] = [CLI, 'lsp', '--stdio'], env: Record<string, string> = {}) {
    const ledger = mkdtempSync(path.join(tmpdir(), 'paygate-lsp-ledger-'));
    this.child = spawn(process.execPath, args, {
      cwd: ROOT,
      stdio: ['pipe', 'pipe', 'pipe'],
      env: { ...process.env, PAYGATE_DATA_DIR: ledger, ...env },
    });
    this.child.stderr!.on('data', (b: Buffer) => (this.stderr += b.toString()));
    this.connection = createProtocolConnection(new StreamMessageReader(this.child.stdout!), new StreamMessageWriter(this.child.stdin!));
    this.connection.onNotification(PublishDiagnosticsNotification.type, (p) => {
      this.published.push({ uri: p.uri, version: p.version, diagnostics: p.diagnostics, seq: this.seq++, at: performance.now() });
      this.wake();
    });
    this.child.on('exit', () => {
      rmSync(ledger, { recursive: true, force: true });
      this.wake();
    });
    this.connection.listen();
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  /** A point in the order of events, to say what arrived before or after something the test did. */
  mark(): number {
    return this.seq++;
  }

  private wake(): void {
    const ws = this.waiters;
    this.waiters = [];
    ws.forEach((w) => w());
  }

  async initialize(capabilities: ClientCapabilities, initializationOptions?: unknown): Promise<Record<string, unknown>> {
    const result = await this.connection.sendRequest('initialize', {
      processId: process.pid,
      rootUri: null,
      capabilities,
      initializationOptions,
    });
    await this.connection.sendNotification('initialized', {});
    return (result as { capabilities: Record<string, unknown> }).capabilities;
  }

  /** The last diagnostics published for `uri` once they satisfy `ok`, waiting on publishes with a deadline. */
  async diagnostics(uri: string, what: string, ok: (p: Published) => boolean, deadlineMs = DEADLINE_MS): Promise<Published> {
    const deadline = Date.now() + deadlineMs;
    for (;;) {
      const last = [...this.published].reverse().find((p) => p.uri === uri);
      if (last && ok(last)) return last;
      if (this.child.exitCode !== null) throw new Error(`server exited (${this.child.exitCode}) waiting for ${what}: ${this.stderr}`);
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`timed out waiting for ${what}; last: ${JSON.stringify(last)}`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  /** Ends the server the way an editor does (shutdown, exit) and waits for the process to go. */
  async stop(): Promise<number | null> {
    const exited = new Promise<number | null>((resolve) => {
      if (this.child.exitCode !== null) resolve(this.child.exitCode);
      else this.child.once('exit', (code) => resolve(code));
    });
    const timer = setTimeout(() => this.child.kill(), DEADLINE_MS);
    try {
      await this.connection.sendRequest('shutdown');
      await this.connection.sendNotification('exit');
    } catch {
      this.child.kill();
    }
    const code = await exited;
    clearTimeout(timer);
    this.connection.dispose();
    return code;
  }
}

/** The range of the `nth` occurrence of `needle` on line `line` of `text` (lines split as LSP does). */
export function cellRange(text: string, line: number, needle: string, nth = 0) {
  const lines = text.split(/\r\n|\r|\n/);
  let at = -1;
  for (let i = 0; i <= nth; i++) {
    at = lines[line].indexOf(needle, at + 1);
    if (at < 0) throw new Error(`"${needle}" not on line ${line}`);
  }
  return { start: { line, character: at }, end: { line, character: at + needle.length } };
}
