// The results page's parse worker (esbuild.js builds it into the page's bundle as text; parseWorker.ts
// starts it from a blob). It reads chunks from the middle of a report from their first record start
// (readDetached), while the page reads the chunk before; the page checks that guess and keeps the records
// only when it holds. The chunk's text comes back with the offsets: the page does not decode it again
// (a copy of a string costs a fraction of decoding it).
import { readDetached, type DetachedRecords } from './csvReader';
import { utf8Decoder } from './utf8';

/** A chunk to read: its bytes (a copy: the page keeps its own), the delimiter's character code and the header's width. */
export interface ReadRequest {
  id: number;
  bytes: Uint8Array;
  delimiter: number;
  width: number;
}

export interface ReadAnswer {
  id: number;
  /** The chunk decoded (utf8Decoder, as the page would): the records' offsets are in it. */
  text: string;
  records: DetachedRecords | null;
}

interface WorkerScope {
  onmessage: ((event: MessageEvent<ReadRequest>) => void) | null;
  postMessage(message: ReadAnswer, transfer: Transferable[]): void;
}

const scope = self as unknown as WorkerScope;
const decoder = utf8Decoder();

scope.onmessage = (event) => {
  const { id, bytes, delimiter, width } = event.data;
  const text = decoder.decode(bytes);
  const records = readDetached(text, delimiter, width) ?? null;
  const transfer: Transferable[] = records ? [records.start.buffer, records.end.buffer] : [];
  if (records?.escaped) transfer.push(records.escaped.buffer);
  scope.postMessage({ id, text, records }, transfer);
};
