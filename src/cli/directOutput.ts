import { fstatSync, writeSync } from 'node:fs';

// Standard output written straight to its file descriptor (issue 40). Making `process.stdout` loads Node's
// stream modules (and, for a file or /dev/null, its SyncWriteStream; for a pipe, node:net): about 2.5 ms of
// CPU time of a one-row `paygate lint`, a fifth of what it adds to Node's own start. Node writes standard
// output synchronously on Linux whatever it is (file, pipe, socket, terminal), and to a file everywhere,
// so a write(2) of our own does what the stream would, in the same order, without the modules.
// - Elsewhere than Linux only a regular file is written so (pipes and terminals are asynchronous there).
// - A reader that went away (EPIPE: `paygate lint … | head -1`): `gone()`, as the stream's error did.
// - A descriptor left non-blocking (EAGAIN: Node makes a pipe so once its stream is made, and a process
//   sharing the pipe may have): the rest of this text and every later one go through the stream, which
//   waits for the reader; so do all writes once the stream is made for another reason (its width).

/** What a direct writer needs from the process; a test passes its own. */
export interface DirectIo {
  /** writeSync: bytes written, or throws (EAGAIN, EPIPE…). */
  writeSync(fd: number, data: Uint8Array, offset: number, length: number): number;
  /** Whether this descriptor may be written directly at all (decided once, at the first write). */
  direct(fd: number): boolean;
}

/** Linux: any descriptor; elsewhere, a regular file only. */
function directHere(fd: number): boolean {
  if (process.platform === 'linux') return true;
  try {
    return fstatSync(fd).isFile();
  } catch {
    return false;
  }
}

const processIo: DirectIo = { writeSync: (fd, data, offset, length) => writeSync(fd, data, offset, length), direct: directHere };

/**
 * A writer of text to `fd`: directly while it can, else through `stream()` (made on first use, and
 * `streamMade()` true from then on). `gone()` is called when the reader went away.
 */
export function directOutput(
  fd: number,
  stream: () => { write(data: string | Uint8Array): unknown },
  streamMade: () => boolean,
  gone: () => void,
  io: DirectIo = processIo,
): (text: string) => void {
  let direct: boolean | undefined;
  return (text) => {
    direct ??= io.direct(fd);
    if (!direct || streamMade()) {
      stream().write(text);
      return;
    }
    const bytes = Buffer.from(text, 'utf8');
    let at = 0;
    try {
      while (at < bytes.length) at += io.writeSync(fd, bytes, at, bytes.length - at);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'EPIPE') return gone();
      if (code !== 'EAGAIN') throw err;
      direct = false;
      stream().write(bytes.subarray(at));
    }
  };
}
