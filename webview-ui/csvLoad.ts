// A CSV arriving from the host in chunks: parsed in small pieces with a turn for the page between them,
// and followed on screen a few times a second rather than at every piece.
import { CsvReader, type Piece } from './csvReader';
import { yieldToPage } from './dataset';

/**
 * Characters parsed between two yields: a few milliseconds of work. The host's chunks are this size, so
 * each is read whole: cutting it smaller cost a seventh more (each cut is copied again behind the carry).
 */
const PIECE = 1 << 20;
/**
 * The first piece of a file is small: the reader's code is still cold then (interpreted, several times
 * slower), and the first rows, the grid and the column widths all come in that one task.
 */
const FIRST_PIECE = 1 << 16;
/** The grid and counter follow the rows at most this often while a file loads. */
const PAINT_MS = 120;

const scheduler = (globalThis as { scheduler?: { postTask?: (task: () => void, options: { priority: string }) => Promise<void> } })
  .scheduler;

/**
 * A task ahead of the chunks already waiting (the browser's scheduler.postTask where there is one, as in
 * the webview's Chromium): a timer would wait behind hundreds of them, and the first rows with it.
 */
function firstTask(task: () => void): void {
  if (scheduler?.postTask) void scheduler.postTask(task, { priority: 'user-blocking' });
  else setTimeout(task, 0);
}

export interface LoadHost {
  onHeader(columns: string[]): void;
  onPiece(piece: Piece): void;
  /** Show the rows parsed so far. */
  follow(): void;
  /** Whether the first rows are on screen (before that every piece is shown at once). */
  firstRowsShown(): boolean;
}

export class CsvLoad {
  private stream: CsvReader | undefined;
  private expected: number | undefined;
  private received = 0;
  private lastPaint = 0;
  /** A follow-up of the rows that came inside the last pause (see start). */
  private paintTimer: ReturnType<typeof setTimeout> | undefined;
  /** The first rows' own task is on its way. */
  private firstQueued = false;

  start(host: LoadHost, delimiter?: string, totalBytes?: number): void {
    this.firstQueued = false;
    this.expected = totalBytes && totalBytes > 0 ? totalBytes : undefined;
    this.received = 0;
    clearTimeout(this.paintTimer);
    this.paintTimer = undefined;
    const follow = () => {
      this.lastPaint = performance.now();
      host.follow();
    };
    const reader: CsvReader = new CsvReader({
      delimiter,
      onHeader: (columns) => host.onHeader(columns),
      onPiece: (piece) => {
        host.onPiece(piece);
        // Each update costs a layout, and pieces arrive hundreds of times while a large file loads. A
        // piece inside the pause is followed once the pause is over, so the last rows of a burst are
        // never left out. The first rows get a task of their own: the grid was just built in this one,
        // and both together were the longest task of a load.
        // (Once, and not once the load is over or another has begun: the end shows every row itself.)
        if (!host.firstRowsShown()) {
          if (!this.firstQueued) firstTask(() => this.stream === reader && follow());
          this.firstQueued = true;
          return;
        }
        const wait = PAINT_MS - (performance.now() - this.lastPaint);
        if (wait <= 0) return follow();
        this.paintTimer ??= setTimeout(() => {
          this.paintTimer = undefined;
          follow();
        }, wait);
      },
    });
    this.stream = reader;
  }

  async feed(text: string): Promise<void> {
    const stream = this.stream;
    if (!stream) return;
    const first = this.received === 0;
    this.received += text.length;
    for (let i = 0; i < text.length;) {
      const size = first && i === 0 ? FIRST_PIECE : PIECE;
      stream.push(text.slice(i, i + size));
      i += size;
      await yieldToPage();
    }
  }

  /** The end of the file: the number of malformed records seen, or undefined when nothing was loading. */
  end(): number | undefined {
    const stream = this.stream;
    if (!stream) return undefined;
    stream.end();
    this.stream = undefined;
    return stream.errors;
  }

  /** Characters received against the file's bytes: close enough for a progress figure. */
  progress(): number | undefined {
    return this.expected ? Math.min(99, Math.floor((100 * this.received) / this.expected)) : undefined;
  }
}
