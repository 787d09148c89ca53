// A CSV arriving from the host as UTF-8 bytes in chunks: read in small pieces with a turn for the page
// between them, and followed on screen a few times a second rather than at every piece. Every other chunk
// is read by a worker (parseWorker.ts) while the page reads the one before it, from where the worker
// guesses a record starts; the page keeps the worker's records only when its own reading ends exactly
// there (CsvReader.pushToRecordStart), and reads the chunk itself otherwise. Reading is two thirds of a
// load, so on two cores a large file loads in about half the time, and exactly as one reader would read it.
// The worker's chunks are decoded by the worker too (their text comes back with the records): the page
// keeps their bytes until then, and decodes them itself only when the worker cannot answer.
import { CsvReader, type Piece } from './csvReader';
import { yieldToPage } from './dataset';
import type { Detached, DetachedReader } from './parseWorker';
import { utf8Decoder, wholeCharacters } from './utf8';

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

interface Chunk {
  /** The page's chunks: decoded on arrival. */
  text?: string;
  /**
   * The worker's chunks: their bytes, kept until the worker answers (the page decodes them should it not).
   * Sent once the header is read (the worker needs its delimiter and width).
   */
  bytes?: Uint8Array;
  /** The worker's decoding and reading, for a chunk sent to it. */
  detached?: Promise<Detached | null>;
}

/** One file's chunks as they arrive, the page's decoded at once; the page reads them in order later (feed). */
class Arrival {
  readonly chunks: Chunk[] = [];
  received = 0;
  /** An incomplete character at the end of the last chunk, put before the next. */
  private tail: Uint8Array | undefined;
  private count = 0;
  private layout: { delimiter: number; width: number } | undefined;

  constructor(
    private readonly worker: DetachedReader | undefined,
    private readonly decoder: TextDecoder,
  ) {}

  add(bytes: Uint8Array): void {
    this.received += bytes.length;
    if (this.tail) {
      const joined = new Uint8Array(this.tail.length + bytes.length);
      joined.set(this.tail);
      joined.set(bytes, this.tail.length);
      bytes = joined;
    }
    const whole = wholeCharacters(bytes);
    this.tail = whole < bytes.length ? bytes.slice(whole) : undefined;
    bytes = bytes.subarray(0, whole);
    // The first chunk holds the header and the first rows: the page reads it, and every other one after.
    const chunk: Chunk = this.worker && this.count++ % 2 === 1 ? { bytes } : { text: this.decoder.decode(bytes) };
    this.chunks.push(chunk);
    this.send();
  }

  /** What is left at the end: an incomplete character, decoded as the replacement character. */
  rest(): string {
    const tail = this.tail;
    this.tail = undefined;
    return tail ? this.decoder.decode(tail) : '';
  }

  /** The header is read: chunks waiting for the worker go to it. */
  headerRead(layout: { delimiter: number; width: number }): void {
    this.layout = layout;
    this.send();
  }

  private send(): void {
    if (!this.layout || !this.worker) return;
    for (const chunk of this.chunks) {
      if (!chunk.bytes || chunk.detached) continue;
      chunk.detached = this.worker.read(chunk.bytes, this.layout.delimiter, this.layout.width).then((answer) => {
        // Its text came back: the bytes are no longer needed.
        if (answer) chunk.bytes = undefined;
        return answer;
      });
    }
  }
}

export class CsvLoad {
  private stream: CsvReader | undefined;
  /** Files announced and not yet read, oldest first (start takes the first). */
  private readonly waiting: Arrival[] = [];
  /** The file announced last: chunks that arrive are its. */
  private arriving: Arrival | undefined;
  private reading: Arrival | undefined;
  private expected: number | undefined;
  private lastPaint = 0;
  /** A follow-up of the rows that came inside the last pause (see start). */
  private paintTimer: ReturnType<typeof setTimeout> | undefined;
  /** The first rows' own task is on its way. */
  private firstQueued = false;
  private firstPieceRead = false;
  private readonly decoder = utf8Decoder();
  /** Chunks of the file being read (or read last) that the worker read (its records kept) and the page read. */
  chunks = { byWorker: 0, byPage: 0 };

  /** `worker` reads every other chunk (the page's parse worker); without one the page reads them all. */
  constructor(private readonly worker?: DetachedReader) {}

  /** A file is announced (csvStart): its chunks follow. Called as each message arrives, not in turn. */
  expect(): void {
    this.arriving = new Arrival(this.worker, this.decoder);
    this.waiting.push(this.arriving);
  }

  /** A chunk of the last file announced arrives: decoded now, and sent to the worker when it is its turn. */
  receive(bytes: Uint8Array): void {
    this.arriving?.add(bytes);
  }

  /** Reading begins, of the oldest file announced. */
  start(host: LoadHost, delimiter?: string, totalBytes?: number): void {
    this.firstQueued = false;
    this.firstPieceRead = false;
    this.expected = totalBytes && totalBytes > 0 ? totalBytes : undefined;
    this.reading = this.waiting.shift();
    this.chunks = { byWorker: 0, byPage: 0 };
    clearTimeout(this.paintTimer);
    this.paintTimer = undefined;
    const arrival = this.reading;
    const follow = () => {
      this.lastPaint = performance.now();
      host.follow();
    };
    const reader: CsvReader = new CsvReader({
      delimiter,
      onHeader: (columns) => {
        host.onHeader(columns);
        const layout = reader.layout;
        if (layout) arrival?.headerRead(layout);
      },
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

  /** Reads the next chunk that arrived (one call per chunk, in turn). */
  async feed(): Promise<void> {
    const stream = this.stream;
    const chunk = this.reading?.chunks.shift();
    if (!stream || !chunk) return;
    const answer = chunk.detached ? await chunk.detached : null;
    if (this.stream !== stream) return;
    // A worker's chunk it did not answer (it failed, or never started, or the header came late): decoded here.
    const text = chunk.text ?? answer?.text ?? this.decoder.decode(chunk.bytes);
    const records = answer?.records;
    if (records && stream.pushToRecordStart(text, records.begin)) {
      stream.adopt(text, records);
      this.chunks.byWorker++;
      return;
    }
    this.chunks.byPage++;
    await this.push(stream, text);
  }

  private async push(stream: CsvReader, text: string): Promise<void> {
    for (let i = 0; i < text.length;) {
      const size = this.firstPieceRead ? PIECE : FIRST_PIECE;
      this.firstPieceRead = true;
      stream.push(text.slice(i, i + size));
      i += size;
      await yieldToPage();
      if (this.stream !== stream) return;
    }
  }

  /** The end of the file: the number of malformed records seen, or undefined when nothing was loading. */
  end(): number | undefined {
    const stream = this.stream;
    if (!stream) return undefined;
    const rest = this.reading?.rest() ?? '';
    if (rest) stream.push(rest);
    stream.end();
    this.stream = undefined;
    this.reading = undefined;
    return stream.errors;
  }

  /** Bytes received against the file's size: a progress figure. */
  progress(): number | undefined {
    const received = this.reading?.received ?? 0;
    return this.expected ? Math.min(99, Math.floor((100 * received) / this.expected)) : undefined;
  }
}
