// Who uses the local gateway of a state directory: every editor window and CLI command that talks to it
// announces itself with a lease file in `{stateDir}/clients/` while it does, so `paygate gateway` can say
// who depends on it before someone stops it. A lease names a process; one whose process is gone (closed,
// killed, a zombie) is stale and removed by whoever reads the list, so a crash leaves nothing behind for long.
// A lease says "this process uses the local gateway of this directory", whichever process runs it: an
// editor keeps its lease across the gateway's restarts and take-overs.

import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ensureStateDir, writePrivateFile } from './merchant';
import { processAlive } from './running';
import { ourWords, said, typed, type Said } from '../core/output/said';

export const CLIENTS_DIR = 'clients';

export type ClientFace = 'editor' | 'cli';

/** Who a client is, in its own words. */
export interface ClientInfo {
  face: ClientFace;
  /** A few words: "paygate submit", "VS Code (folder examples)". */
  label: string;
}

export interface GatewayClient extends ClientInfo {
  pid: number;
  /** ISO time the lease was taken. */
  since: string;
}

export interface ClientLease {
  readonly file: string;
  /** Removes the lease (again: nothing). */
  release(): void;
}

const LEASE = /^(editor|cli)-(\d+)-[0-9a-f]+\.json$/;

function clientsDir(stateDir: string): string {
  return path.join(stateDir, CLIENTS_DIR);
}

/** Announces that process `pid` (this one by default) uses the local gateway of `stateDir`. */
export function takeClientLease(stateDir: string, who: ClientInfo, pid = process.pid): ClientLease {
  ensureStateDir(stateDir);
  const dir = clientsDir(stateDir);
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  const file = path.join(dir, `${who.face}-${pid}-${randomBytes(4).toString('hex')}.json`);
  const lease: GatewayClient = { ...who, pid, since: new Date().toISOString() };
  writePrivateFile(file, `${JSON.stringify(lease)}\n`);
  let released = false;
  return {
    file,
    release() {
      if (released) return;
      released = true;
      fs.rmSync(file, { force: true });
    },
  };
}

function readLease(file: string, pid: number): GatewayClient | undefined {
  try {
    const v = JSON.parse(fs.readFileSync(file, 'utf8')) as Partial<GatewayClient>;
    if ((v.face === 'editor' || v.face === 'cli') && typeof v.label === 'string' && v.pid === pid && typeof v.since === 'string')
      return { face: v.face, label: v.label, pid, since: v.since };
  } catch {
    // removed meanwhile, or not ours
  }
  return undefined;
}

/**
 * The processes using the local gateway of `stateDir`, oldest first. Leases of processes that are gone are
 * removed on the way. Bounded by the directory: one small file per live editor window or command.
 */
export function gatewayClients(stateDir: string): GatewayClient[] {
  let names: string[];
  try {
    names = fs.readdirSync(clientsDir(stateDir));
  } catch {
    return [];
  }
  const out: GatewayClient[] = [];
  for (const name of names) {
    const m = LEASE.exec(name);
    if (!m) continue; // a temporary file being written, or something not ours
    const file = path.join(clientsDir(stateDir), name);
    const pid = Number(m[2]);
    if (!processAlive(pid)) {
      fs.rmSync(file, { force: true });
      continue;
    }
    const lease = readLease(file, pid);
    if (lease) out.push(lease);
  }
  return out.sort((a, b) => a.since.localeCompare(b.since) || a.pid - b.pid);
}

/** "the editor VS Code (folder examples), process 4711" / "paygate submit, process 815": the label (any process's words) as free text. */
export function clientSaid(c: Pick<GatewayClient, 'face' | 'label' | 'pid'>): Said {
  return said`${ourWords(c.face === 'editor' ? 'the editor ' : '')}${typed.text(c.label)}, process ${typed.count(c.pid)}`;
}
