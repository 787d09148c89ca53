// A CSV arriving from the host in chunks: parsed in small pieces with a turn for the page between them,
// and followed on screen a few times a second rather than at every piece.
import { CsvReader, type Piece } from './csvReader';
import { yieldToPage } from './dataset';

/**
 * Characters parsed between two yields: a few milliseconds of work. The host's chunks are this size, so
 * each is read whole: cutting it smaller cost a seventh more (each cut is copied again behind the carry).
 */
const PIECE = 1 << 20;
/** The grid and counter follow the rows at most this often while a file loads. */
const PAINT_MS = 120;

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

  start(host: LoadHost, delimiter?: string, totalBytes?: number): void {
    this.expected = totalBytes && totalBytes > 0 ? totalBytes : undefined;
    this.received = 0;
    clearTimeout(this.paintTimer);
    this.paintTimer = undefined;
    const follow = () => {
      this.lastPaint = performance.now();
      host.follow();
    };
    this.stream = new CsvReader({
      delimiter,
      onHeader: (columns) => host.onHeader(columns),
      onPiece: (piece) => {
        host.onPiece(piece);
        // Each update costs a layout, and pieces arrive hundreds of times while a large file loads. A
        // piece inside the pause is followed once the pause is over, so the last rows of a burst are
        // never left out.
        const now = performance.now();
        if (host.firstRowsShown() && now - this.lastPaint < PAINT_MS) {
          this.paintTimer ??= setTimeout(
            () => {
              this.paintTimer = undefined;
              follow();
            },
            PAINT_MS - (now - this.lastPaint),
          );
          return;
        }
        follow();
      },
    });
  }

  async feed(text: string): Promise<void> {
    const stream = this.stream;
    if (!stream) return;
    this.received += text.length;
    for (let i = 0; i < text.length; i += PIECE) {
      stream.push(text.slice(i, i + PIECE));
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
