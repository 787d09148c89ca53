// The local gateway's store: the snapshot (state.json) plus an append-only journal (journal.ndjson) of
// what each request changed. A request commits one line — the new payments whole, for the others only
// their new charges and status, the counters, the clock and the nonce it spent — and fsyncs it before the
// answer leaves, so a 1-row create costs one short append whatever the size of the state. When the
// journal has grown as large as the snapshot, a new snapshot is written and the journal emptied, so the
// cost of rewriting the whole state is paid once per doubling, not per request.
//
// Why not SQLite: node:sqlite does not exist in Node 20, the maintained native bindings need a build per
// platform (this product ships as one bundled file), and sql.js (wasm) keeps the database in memory and
// can only save by exporting the whole file — the very rewrite-per-request this replaces.
//
// A line torn by a crash (kill -9 mid-write, power loss) is the last one; it fails to parse and is cut
// off at start, so the state is that of the last whole commit. Only one process writes (running.ts).

import * as fs from 'node:fs';
import * as path from 'node:path';
import type { CalendarDate } from '../core/dates';
import { maskCardNumbers, maskStoredText } from '../core/output';
import { loadSnapshot, saveSnapshot, syncDir, type Snapshot } from './state';
import type { GatewayState, StoredCharge, StoredPayment } from './types';

export const JOURNAL_FILE = 'journal.ndjson';
/** The journal is folded into a new snapshot once it is larger than this and than the snapshot. */
export const MIN_COMPACT_BYTES = 4 * 1024 * 1024;

interface PaymentUpdate {
  id: string;
  status: StoredPayment['status'];
  stopReason?: StoredPayment['stopReason'];
  nextIndex: number;
  /** Charges made since the last commit that mentioned this payment. */
  charges: StoredCharge[];
}

interface CommitLine {
  seq: number;
  today: string;
  ids: [number, number, number];
  created?: StoredPayment[];
  updated?: PaymentUpdate[];
  nonces?: [string, number][];
}

export class JournalStore {
  readonly state: GatewayState;
  private seq: number;
  private fd: number;
  private journalBytes: number;
  private snapshotBytes: number;
  /** Per payment id: how many of its charges are already on disk; absent means the payment itself is not. */
  private readonly stored = new Map<string, number>();
  private readonly byId = new Map<string, StoredPayment>();
  private broken: Error | undefined;
  /** Nonces read back from disk, for the caller's NonceCache. */
  readonly restoredNonces: [string, number][];
  readonly notes: string[] = [];

  constructor(
    private readonly stateDir: string,
    initialDate: CalendarDate | undefined,
    /** The nonces a snapshot keeps (those still inside the timestamp window). */
    private readonly liveNonces: () => [string, number][],
    keepNonce: (timestamp: number) => boolean,
  ) {
    const loaded = loadSnapshot(stateDir, initialDate);
    const journalPath = path.join(stateDir, JOURNAL_FILE);
    if (loaded.damaged) {
      this.notes.push(`state file was unreadable; moved to ${loaded.damaged} and started afresh`);
      // The journal continues the damaged snapshot, so it cannot be replayed onto a fresh state.
      if (fs.existsSync(journalPath)) fs.renameSync(journalPath, `${journalPath}.damaged-${Date.now()}`);
    }
    this.state = loaded.snapshot.state;
    this.seq = loaded.snapshot.seq;
    const nonces = loaded.snapshot.nonces.filter(([, ts]) => keepNonce(ts));
    for (const p of this.state.payments) this.remember(p);

    this.fd = fs.openSync(journalPath, fs.constants.O_RDWR | fs.constants.O_CREAT | fs.constants.O_APPEND, 0o600);
    const replayed = this.replay(nonces, keepNonce);
    this.journalBytes = replayed;
    this.restoredNonces = nonces;
    this.snapshotBytes = 0;
    try {
      this.snapshotBytes = fs.statSync(path.join(stateDir, 'state.json')).size;
    } catch {
      this.compact(); // first start: write the snapshot so the directory is complete from the outset
      return;
    }
    if (this.scrub()) {
      // Kept in clear by an older version: a new snapshot, and the journal that held them emptied.
      this.compact();
      this.notes.push('card numbers in stored descriptions and order ids were masked');
    }
  }

  /**
   * Masks card data in every stored description and order id (new ones are masked when made); true if
   * any changed.
   */
  private scrub(): boolean {
    let changed = false;
    for (const p of this.state.payments) {
      if (typeof p.order_desc === 'string') {
        const masked = maskStoredText(p.order_desc);
        if (masked !== p.order_desc) {
          p.order_desc = masked;
          changed = true;
        }
      }
      const id = p['client-orderid'];
      if (typeof id === 'string' && maskCardNumbers(id) !== id) {
        p['client-orderid'] = maskCardNumbers(id);
        changed = true;
      }
    }
    return changed;
  }

  private remember(p: StoredPayment): void {
    this.stored.set(p['recurring-payment-id'], p.charges.length);
    this.byId.set(p['recurring-payment-id'], p);
  }

  find(id: string): StoredPayment | undefined {
    return this.byId.get(id);
  }

  /** Applies every whole journal line after the snapshot's seq; cuts off a torn last line. */
  private replay(nonces: [string, number][], keepNonce: (ts: number) => boolean): number {
    const size = fs.fstatSync(this.fd).size;
    if (size === 0) return 0;
    const buf = Buffer.alloc(size);
    fs.readSync(this.fd, buf, 0, size, 0);
    let good = 0;
    let applied = 0;
    for (let start = 0; start < size;) {
      const nl = buf.indexOf(0x0a, start);
      if (nl < 0) break; // torn: no newline yet
      let line: CommitLine;
      try {
        line = JSON.parse(buf.toString('utf8', start, nl)) as CommitLine;
      } catch {
        break; // torn or damaged: everything from here on is dropped
      }
      if (line.seq > this.seq) {
        this.apply(line);
        applied++;
      }
      for (const n of line.nonces ?? []) if (keepNonce(n[1])) nonces.push(n);
      start = nl + 1;
      good = start;
    }
    if (good < size) {
      fs.ftruncateSync(this.fd, good);
      fs.fsyncSync(this.fd);
      this.notes.push(`journal: cut off ${size - good} byte(s) of an unfinished commit (the process stopped mid-write)`);
    }
    if (applied > 0) this.notes.push(`journal: ${applied} commit(s) replayed`);
    return good;
  }

  private apply(line: CommitLine): void {
    const s = this.state;
    s.today = line.today;
    [s.nextPaymentId, s.nextSerial, s.nextTransactionId] = line.ids;
    for (const p of line.created ?? []) {
      s.payments.push(p);
      this.remember(p);
    }
    for (const u of line.updated ?? []) {
      const p = this.byId.get(u.id);
      if (!p) continue;
      p.status = u.status;
      if (u.stopReason) p.stopReason = u.stopReason;
      else delete p.stopReason;
      p.nextIndex = u.nextIndex;
      for (const c of u.charges) p.charges.push(c);
      this.stored.set(u.id, p.charges.length);
    }
    this.seq = line.seq;
  }

  /**
   * Makes what one request changed durable: `touched` are the payments it created or changed, `nonces`
   * those it spent. Throws when the disk refuses; the store then refuses every later commit, since its
   * memory is ahead of its file (restart to continue from the last good commit).
   */
  commit(touched: Iterable<StoredPayment>, nonces: [string, number][] = []): void {
    if (this.broken) throw this.broken;
    const s = this.state;
    const line: CommitLine = { seq: this.seq + 1, today: s.today, ids: [s.nextPaymentId, s.nextSerial, s.nextTransactionId] };
    const created: StoredPayment[] = [];
    const updated: PaymentUpdate[] = [];
    for (const p of touched) {
      const id = p['recurring-payment-id'];
      const known = this.stored.get(id);
      if (known === undefined) {
        if (!this.byId.has(id)) created.push(p);
        continue;
      }
      updated.push({
        id,
        status: p.status,
        ...(p.stopReason ? { stopReason: p.stopReason } : {}),
        nextIndex: p.nextIndex,
        charges: p.charges.slice(known),
      });
    }
    if (created.length) line.created = created;
    if (updated.length) line.updated = updated;
    if (nonces.length) line.nonces = nonces;
    const bytes = Buffer.from(`${JSON.stringify(line)}\n`, 'utf8');
    try {
      fs.writeSync(this.fd, bytes);
      fs.fdatasyncSync(this.fd);
    } catch (err) {
      this.broken = new Error(`the state journal cannot be written (${(err as Error).message}); restart the local gateway`);
      throw this.broken;
    }
    this.seq = line.seq;
    this.journalBytes += bytes.length;
    for (const p of created) this.remember(p);
    for (const u of updated) this.stored.set(u.id, this.byId.get(u.id)!.charges.length);
    if (this.journalBytes > Math.max(MIN_COMPACT_BYTES, this.snapshotBytes)) this.compact();
  }

  /** Folds the journal into a new snapshot: the snapshot first (with its seq), then the journal emptied. */
  compact(): void {
    const snapshot: Snapshot = { state: this.state, seq: this.seq, nonces: this.liveNonces() };
    this.snapshotBytes = saveSnapshot(this.stateDir, snapshot);
    // A crash between the two leaves journal lines with seq <= the snapshot's: replay skips them.
    fs.ftruncateSync(this.fd, 0);
    fs.fsyncSync(this.fd);
    syncDir(this.stateDir);
    this.journalBytes = 0;
  }

  close(): void {
    try {
      fs.closeSync(this.fd);
    } catch {
      // already closed
    }
  }
}
