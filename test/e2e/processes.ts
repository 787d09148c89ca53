// Everything this harness starts is stopped, whatever way the run ends: normal completion, a thrown
// error, Ctrl+C / SIGTERM, or the global deadline. Only processes we spawned are signalled, by pid.
import { spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';

type Cleanup = { name: string; fn: () => Promise<void> | void };
const cleanups: Cleanup[] = [];
let cleaning: Promise<void> | undefined;

export function onCleanup(name: string, fn: () => Promise<void> | void): () => void {
  const entry = { name, fn };
  cleanups.push(entry);
  return () => {
    const i = cleanups.indexOf(entry);
    if (i >= 0) cleanups.splice(i, 1);
  };
}

/** True once the run has begun stopping: exits seen after that are expected, not failures. */
export function isStopping(): boolean {
  return cleaning !== undefined;
}

/** Runs the registered cleanups newest first; safe to call more than once. */
export function cleanupAll(): Promise<void> {
  cleaning ??= (async () => {
    while (cleanups.length > 0) {
      const c = cleanups.pop()!;
      try {
        await c.fn();
      } catch (err) {
        console.error(`[e2e] cleanup of ${c.name} failed: ${err instanceof Error ? err.message : String(err)}`);
      }
    }
  })();
  return cleaning;
}

/**
 * Spawns in its own process group so that stopping it also stops what it started (code-server's
 * extension host, its terminals, the watcher). Registers the stop as a cleanup.
 */
export function spawnTracked(name: string, command: string, args: string[], options: SpawnOptions = {}): ChildProcess {
  const child = spawn(command, args, { ...options, detached: true });
  // Stays registered after the leader exits: members of its group may outlive it.
  onCleanup(name, () => stopGroup(child));
  return child;
}

/** SIGTERM to the child's process group, SIGKILL if it has not exited within graceMs. */
export function stopGroup(child: ChildProcess, graceMs = 5000): Promise<void> {
  if (child.pid === undefined) return Promise.resolve();
  const pid = child.pid;
  if (child.exitCode !== null || child.signalCode !== null) {
    signalGroup(pid, 'SIGKILL');
    return Promise.resolve();
  }
  return new Promise<void>((resolve) => {
    const done = () => {
      clearTimeout(timer);
      // Stragglers in the group (e.g. an extension host that ignored SIGTERM) go too.
      signalGroup(pid, 'SIGKILL');
      resolve();
    };
    const timer = setTimeout(() => {
      signalGroup(pid, 'SIGKILL');
    }, graceMs);
    child.once('exit', done);
    signalGroup(pid, 'SIGTERM');
  });
}

function signalGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    // Already gone.
  }
}

/**
 * Installs SIGINT/SIGTERM handlers and a global deadline. Every path out of the run goes through
 * cleanupAll() before the process exits.
 */
export function guardRun(label: string, deadlineSeconds: number): { finish(code: number): Promise<never> } {
  const exitAfterCleanup = async (code: number): Promise<never> => {
    await cleanupAll();
    process.exit(code);
  };
  for (const [signal, code] of [
    ['SIGINT', 130],
    ['SIGTERM', 143],
    ['SIGHUP', 129],
  ] as const) {
    process.once(signal, () => {
      console.error(`\n[${label}] ${signal}: stopping everything this run started`);
      void exitAfterCleanup(code);
    });
  }
  if (deadlineSeconds > 0) {
    const timer = setTimeout(() => {
      console.error(`[${label}] global deadline of ${deadlineSeconds}s exceeded: stopping`);
      console.log('0 passed, 1 failed');
      void exitAfterCleanup(1);
    }, deadlineSeconds * 1000);
    timer.unref();
  }
  process.once('uncaughtException', (err) => {
    console.error(`[${label}] ${err.stack ?? err.message}`);
    void exitAfterCleanup(1);
  });
  return { finish: exitAfterCleanup };
}

/** Waits for a line matching `pattern` on the child's stdout/stderr; rejects on exit or after timeoutMs. */
export function waitForOutput(child: ChildProcess, pattern: RegExp, timeoutMs: number, what: string): Promise<RegExpMatchArray> {
  return new Promise((resolve, reject) => {
    let buffered = '';
    const onData = (chunk: Buffer) => {
      buffered += chunk.toString('utf8');
      const m = buffered.match(pattern);
      if (m) {
        finish();
        resolve(m);
      } else if (buffered.length > 1_000_000) {
        buffered = buffered.slice(-100_000);
      }
    };
    const onExit = (code: number | null, signal: string | null) => {
      finish();
      reject(new Error(`${what} exited (code ${code}, signal ${signal}) before it was ready. Output:\n${buffered.slice(-4000)}`));
    };
    const timer = setTimeout(() => {
      finish();
      reject(new Error(`${what} was not ready within ${timeoutMs / 1000}s. Output:\n${buffered.slice(-4000)}`));
    }, timeoutMs);
    const finish = () => {
      clearTimeout(timer);
      child.stdout?.off('data', onData);
      child.stderr?.off('data', onData);
      child.off('exit', onExit);
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', onExit);
  });
}
