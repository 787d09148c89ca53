import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { readRecords } from '../../src/core/csv/reportScan';
import { CsvLoad } from '../../webview-ui/csvLoad';
import { CsvReader, readDetached, unescape, type DetachedRecords, type Piece } from '../../webview-ui/csvReader';
import type { Detached, DetachedReader } from '../../webview-ui/parseWorker';
import { utf8Decoder, wholeCharacters } from '../../webview-ui/utf8';

// The results page reads a CSV with two readers: itself, and a worker that reads every other chunk from
// where it guesses a record starts (webview-ui/csvLoad.ts). Whatever the worker answers — a right guess, a
// wrong one, nothing — the page must end with exactly the records, errors and ragged rows one reader
// reading the whole text in order gets. The worker here is csvWorker.ts's work done in this process.

interface Read {
  header: string[];
  rows: string[][];
  errors: number | undefined;
}

function addRows(rows: string[][], p: Piece, header: string[]): void {
  const width = Math.max(1, header.length);
  for (let r = 0; r < p.rows; r++)
    rows.push(
      Array.from({ length: width }, (_, c) =>
        unescape(p.text, p.start[r * width + c], p.end[r * width + c], p.escaped?.[r * width + c] === 1),
      ),
    );
}

/** One reader, the whole text at once: what every way of loading must give. */
function oneReader(text: string): Read {
  let header: string[] = [];
  const rows: string[][] = [];
  const reader = new CsvReader({ delimiter: ',', onHeader: (h) => (header = h), onPiece: (p) => addRows(rows, p, header) });
  reader.push(text);
  reader.end();
  return { header, rows, errors: reader.errors };
}

/**
 * The worker's decoding and reading, answered a turn later as a message would be; `guess` may replace
 * readDetached; `failFrom`: from that request on, no answer (null), as ParseWorker gives once its worker failed.
 */
class InProcessWorker implements DetachedReader {
  asked = 0;
  constructor(
    private readonly guess: (text: string, delimiter: number, width: number) => DetachedRecords | undefined = readDetached,
    private readonly failFrom = Infinity,
  ) {}
  read(bytes: Uint8Array, delimiter: number, width: number): Promise<Detached | null> {
    const failed = this.asked++ >= this.failFrom;
    const text = utf8Decoder().decode(bytes);
    return new Promise((resolve) =>
      setImmediate(() => resolve(failed ? null : { text, records: this.guess(text, delimiter, width) ?? null })),
    );
  }
}

function chunksOf(text: string, size: number): Uint8Array[] {
  const bytes = new TextEncoder().encode(text);
  const chunks: Uint8Array[] = [];
  for (let at = 0; at < bytes.length; at += size) chunks.push(bytes.slice(at, at + size));
  return chunks;
}

/**
 * Loads the chunks as the page does; `early`: every chunk arrives before reading begins (a large file in
 * a burst), otherwise each arrives just before its turn (the worker then waits for the header).
 */
async function viaLoad(chunks: Uint8Array[], worker: DetachedReader | undefined, early: boolean): Promise<Read & { load: CsvLoad }> {
  const load = new CsvLoad(worker);
  let header: string[] = [];
  const rows: string[][] = [];
  load.expect();
  if (early) for (const c of chunks) load.receive(c);
  load.start(
    { onHeader: (h) => (header = h), onPiece: (p) => addRows(rows, p, header), follow: () => undefined, firstRowsShown: () => false },
    ',',
  );
  for (const c of chunks) {
    if (!early) load.receive(c);
    await load.feed();
  }
  const errors = load.end();
  return { header, rows, errors, load };
}

const corpus = (
  JSON.parse(readFileSync(join(__dirname, '../fixtures/rfc4180/corpus.json'), 'utf8')) as { cases: { name: string; text: string }[] }
).cases;

/** A report like the gateway's, with what makes guessing hard: quoted line breaks, doubled quotes, non-ASCII, blank lines. */
function report(rows: number): string {
  const descs = ['Plain order', 'Two\r\nlines', 'He said "stop", then left', 'Straße № 5 — ok', 'emoji 💳 card', '"\r\n"', ''];
  let text = '"Merchant","Transaction_id","Amount","Description"\r\n';
  for (let i = 0; i < rows; i++) {
    text += `"Shop ${i % 7}","${1_000_000 + i}","${(i * 7.31).toFixed(2)}","${descs[i % descs.length].replace(/"/g, '""')}"\r\n`;
    if (i % 997 === 0) text += '\r\n';
  }
  return text;
}

describe('the results page reads a CSV with a worker as one reader would', () => {
  for (const c of corpus) {
    it(`${c.name}: cut into chunks of every size, with and without the worker`, async () => {
      const expected = oneReader(c.text);
      const size = new TextEncoder().encode(c.text).length;
      for (let chunk = 1; chunk <= size; chunk++) {
        for (const early of [true, false]) {
          const chunks = chunksOf(c.text, chunk);
          const { load: _, ...alone } = await viaLoad(chunks, undefined, early);
          assert.deepEqual(alone, expected, `page alone, chunks of ${chunk} bytes`);
          const { load: __, ...paired } = await viaLoad(chunksOf(c.text, chunk), new InProcessWorker(), early);
          assert.deepEqual(paired, expected, `page and worker, chunks of ${chunk} bytes${early ? ', all arrived first' : ''}`);
        }
      }
    });
  }

  it('a report of 20,000 rows: the same rows, and the worker reads most of its chunks', async () => {
    const text = report(20_000);
    const expected = oneReader(text);
    for (const size of [4093, 65_536 + 7]) {
      for (const early of [true, false]) {
        const worker = new InProcessWorker();
        const chunks = chunksOf(text, size);
        const { load, ...got } = await viaLoad(chunks, worker, early);
        assert.deepEqual(got, expected, `chunks of ${size} bytes`);
        assert.equal(worker.asked, Math.floor(chunks.length / 2), 'the worker is asked for every other chunk');
        assert.ok(
          load.chunks.byWorker >= 0.8 * worker.asked,
          `the worker's records were kept for ${load.chunks.byWorker} of ${worker.asked}`,
        );
      }
    }
  });

  it('keeps no guess that falls inside a quoted field, nor a worker that answers nothing', async () => {
    const text = report(5_000);
    const expected = oneReader(text);
    // The first line feed, whatever it is in: inside "Two\r\nlines" as often as not.
    const careless = new InProcessWorker((s, delim, width) => {
      const begin = s.indexOf('\n') + 1;
      const got = readRecords(s, begin, delim, width, false, Infinity);
      return got.rows > 0
        ? {
            begin,
            rows: got.rows,
            consumed: got.consumed,
            errors: got.errors,
            ragged: got.ragged,
            start: got.start!,
            end: got.end!,
            escaped: got.escaped,
          }
        : undefined;
    });
    const { load, ...got } = await viaLoad(chunksOf(text, 997), careless, true);
    assert.deepEqual(got, expected);
    assert.ok(load.chunks.byPage > load.chunks.byWorker / 10, `some guesses were refused (${load.chunks.byPage} read by the page)`);
    const silent = new InProcessWorker(() => undefined);
    const { load: _, ...alone } = await viaLoad(chunksOf(text, 4096), silent, true);
    assert.deepEqual(alone, expected);
  });

  it('decodes and reads itself the chunks of a worker that stops answering', async () => {
    const text = report(5_000);
    const expected = oneReader(text);
    for (const early of [true, false]) {
      const failing = new InProcessWorker(readDetached, 3);
      const { load, ...got } = await viaLoad(chunksOf(text, 4096), failing, early);
      assert.deepEqual(got, expected);
      assert.ok(load.chunks.byWorker <= 3, `the worker's records were kept for ${load.chunks.byWorker} chunks`);
      assert.ok(failing.asked > 10, `the worker was asked for ${failing.asked} chunks`);
    }
  });
});

describe('UTF-8 chunks cut anywhere', () => {
  it('keeps a character cut in two for the next chunk', () => {
    const bytes = new TextEncoder().encode('aé€💳');
    // a | é (2) | € (3) | 💳 (4): every cut inside a character ends the whole part before it.
    const wholeAt = [0, 1, 1, 3, 3, 3, 6, 6, 6, 6, 10];
    for (let cut = 0; cut <= bytes.length; cut++) assert.equal(wholeCharacters(bytes.subarray(0, cut)), wholeAt[cut], `cut at ${cut}`);
    assert.equal(wholeCharacters(new Uint8Array([0x80, 0x80])), 2, 'stray continuation bytes are left to the decoder');
  });
});
