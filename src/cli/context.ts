import { said, saidText, type Said } from '../core/output/said';
import { directOutput } from './directOutput';

/**
 * Everything a `paygate` command takes from the outside world, injected so a test runs a command in its
 * own process with its own folder, variables, streams and stop signal. Only main.ts builds the real one.
 */
export interface CliContext {
  /** The folder relative paths are read from (FILE, --config, --out, --state…). */
  cwd: string;
  /** Environment variables: secrets ($PAYGATE_*) and the local gateway's state folder. */
  env: Record<string, string | undefined>;
  stdout(text: string): void;
  stderr(text: string): void;
  /**
   * Standard input, read whole (a FILE argument `-`), or 'too-large' as soon as it passes `maxBytes`:
   * a stream may never end, so the reading stops there.
   */
  stdin(maxBytes?: number): Promise<Buffer | 'too-large'>;
  /** Standard input as it comes, for commands that stream it (`paygate query -`); absent, stdin() is read whole. */
  stdinChunks?(): AsyncIterable<Uint8Array>;
  /** Whether a person can answer a question on the terminal. */
  interactive: boolean;
  /** The terminal's width in characters when standard output is one (`paygate forecast` fits its bars to it). */
  columns?: number;
  /**
   * Asks a yes/no question on the terminal (readline writes it past the output boundary): a `Said`, so each of
   * its values is checked alone before it is written; a plain string does not compile.
   */
  confirm(question: Said): Promise<boolean>;
  /** Resolves with the signal's name when a long-running command (`paygate gateway`) should stop. */
  stopped(): Promise<string>;
}

/** A reader that goes away (`paygate lint … | head`) ends the output, not the program with a stack trace. */
const readerGone = (): never => process.exit(process.exitCode ?? 0);

function quietOnEpipe(stream: NodeJS.WriteStream): void {
  stream.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code === 'EPIPE') readerGone();
    throw err;
  });
}

/**
 * A standard stream, made on its first write: a stream is an object and a handle, and standard error, a
 * pipe, also node:net; a clean `paygate lint` never writes to standard error (issue 40).
 */
function madeOnUse(stream: () => NodeJS.WriteStream): { (): NodeJS.WriteStream; made(): boolean } {
  let made: NodeJS.WriteStream | undefined;
  const get = () => {
    if (made === undefined) quietOnEpipe((made = stream()));
    return made;
  };
  return Object.assign(get, { made: () => made !== undefined });
}

export function processContext(): CliContext {
  const stdout = madeOnUse(() => process.stdout);
  const stderr = madeOnUse(() => process.stderr);
  return {
    cwd: process.cwd(),
    env: process.env,
    // Standard output without its stream while it can (directOutput.ts); standard error is rare.
    stdout: directOutput(1, stdout, stdout.made, readerGone),
    stderr: (t) => void stderr().write(t),
    async stdin(maxBytes = Infinity) {
      const chunks: Buffer[] = [];
      let total = 0;
      for await (const chunk of process.stdin) {
        total += (chunk as Buffer).length;
        if (total > maxBytes) {
          process.stdin.destroy();
          return 'too-large';
        }
        chunks.push(chunk as Buffer);
      }
      return Buffer.concat(chunks);
    },
    stdinChunks: () => process.stdin as AsyncIterable<Uint8Array>,
    // Asked when a command needs it. Standard error first: when it is no terminal, process.stdin (a stream,
    // and the modules under it, that most commands never read) is not made at all.
    get interactive() {
      return stderr().isTTY === true && process.stdin.isTTY === true;
    },
    get columns() {
      return stdout().isTTY ? stdout().columns : undefined;
    },
    async confirm(question) {
      const { createInterface } = await import('node:readline/promises');
      const rl = createInterface({ input: process.stdin, output: process.stderr });
      try {
        return /^y(es)?$/i.test((await rl.question(saidText(said`${question} [y/N] `))).trim());
      } finally {
        rl.close();
      }
    },
    stopped: () =>
      new Promise((resolve) => {
        const on = (signal: NodeJS.Signals) => {
          process.off('SIGINT', on);
          process.off('SIGTERM', on);
          resolve(signal);
        };
        process.on('SIGINT', on);
        process.on('SIGTERM', on);
      }),
  };
}
