// A full garbage collection on demand, for the one place where what the last step left behind is as large
// as the file itself: between two passes of `paygate fix` on a big file. Without it, when V8 collects
// the previous pass's text and fix list is a matter of timing, and fix's peak varies by a copy of the file.
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/** Texts at least this long (characters) are worth a full collection between passes. */
export const COLLECT_FROM_CHARS = 16 * 1024 * 1024;

let gc: (() => void) | undefined;

export function collectGarbage(): void {
  if (!gc) {
    // The flag exposes `gc` to contexts made after it is set; a fresh one hands the function over.
    setFlagsFromString('--expose-gc');
    gc = runInNewContext('gc') as () => void;
  }
  gc();
}
