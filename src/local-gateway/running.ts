// `{stateDir}/gateway.json`: how other CLI runs find a `paygate gateway` that is already running.

import * as fs from 'node:fs';
import * as path from 'node:path';

export const RUNNING_FILE = 'gateway.json';

export interface RunningGateway {
  pid: number;
  baseUrl: string;
  reportBaseUrl: string;
}

export function writeRunningGateway(stateDir: string, info: RunningGateway): void {
  fs.writeFileSync(path.join(stateDir, RUNNING_FILE), `${JSON.stringify(info, null, 2)}\n`, { mode: 0o600 });
}

/** Removes the file only when it is this process's own, so a second gateway's file survives the first's exit. */
export function removeRunningGateway(stateDir: string, pid = process.pid): void {
  const file = path.join(stateDir, RUNNING_FILE);
  const info = readFile(file);
  if (info && info.pid === pid) fs.rmSync(file, { force: true });
}

function readFile(file: string): RunningGateway | undefined {
  try {
    const v = JSON.parse(fs.readFileSync(file, 'utf8')) as RunningGateway;
    if (Number.isSafeInteger(v.pid) && typeof v.baseUrl === 'string' && typeof v.reportBaseUrl === 'string') return v;
  } catch {
    // missing or unreadable: no gateway known
  }
  return undefined;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The running gateway on this state directory, if its process is still alive (a stale file is ignored). */
export function readRunningGateway(stateDir: string): RunningGateway | undefined {
  const info = readFile(path.join(stateDir, RUNNING_FILE));
  return info && alive(info.pid) ? info : undefined;
}
