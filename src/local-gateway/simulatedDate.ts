import * as fs from 'node:fs';
import * as path from 'node:path';
import { parseGatewayDate, type CalendarDate } from '../core/dates';
import { JOURNAL_FILE } from './journal';
import { STATE_FILE } from './state';

// The local gateway's simulated day, read from its state directory without starting it, taking its lock or
// writing anything, so previews (the hover, `paygate schedule`) can say "today" in the gateway's words.
// Every commit appends a journal line that starts {"seq":…,"today":"DD.MM.YYYY",…}; a compaction writes
// the snapshot (whose head holds "today") and empties the journal. So the newest day is in the journal's
// last whole line, else in the snapshot's first bytes. Bounded reads only: the files can be large.

const TODAY = /"today":"(\d{2}\.\d{2}\.\d{4})"/;
const HEAD_BYTES = 4096;
const CHUNK = 64 * 1024;

function readAt(fd: number, position: number, length: number): Buffer {
  const buf = Buffer.alloc(length);
  const n = fs.readSync(fd, buf, 0, length, position);
  return buf.subarray(0, n);
}

/** The start offset of the last newline-terminated line of the file, or undefined when it has none. */
function lastLineStart(fd: number, size: number): number | undefined {
  const tail = readAt(fd, Math.max(0, size - CHUNK), Math.min(size, CHUNK));
  const end = tail.lastIndexOf(0x0a);
  if (end < 0) return undefined; // only a torn line, which the gateway drops
  const endAt = size - tail.length + end;
  // Walk back chunk by chunk to the newline before it (a commit of many payments is one long line).
  for (let to = endAt; to > 0; to -= CHUNK) {
    const from = Math.max(0, to - CHUNK);
    const nl = readAt(fd, from, to - from).lastIndexOf(0x0a);
    if (nl >= 0) return from + nl + 1;
  }
  return 0;
}

function dayIn(file: string, fromEnd: boolean): string | undefined {
  let fd: number;
  try {
    fd = fs.openSync(file, 'r');
  } catch {
    return undefined;
  }
  try {
    const size = fs.fstatSync(fd).size;
    const start = fromEnd ? lastLineStart(fd, size) : 0;
    if (start === undefined) return undefined;
    return TODAY.exec(readAt(fd, start, Math.min(HEAD_BYTES, size - start)).toString('utf8'))?.[1];
  } finally {
    fs.closeSync(fd);
  }
}

/** The simulated day of the local gateway that keeps its state in `stateDir`; undefined when none ever ran there. */
export function simulatedToday(stateDir: string): CalendarDate | undefined {
  const day = dayIn(path.join(stateDir, JOURNAL_FILE), true) ?? dayIn(path.join(stateDir, STATE_FILE), false);
  return day === undefined ? undefined : parseGatewayDate(day);
}
