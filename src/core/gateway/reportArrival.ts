import { charsetOf, mediaType } from './answerText';
import { ReportRecordReader } from '../csv/reportRecords';
import { hasPdfSignature, PDF_HEAD_BYTES } from '../pdfSignature';
import { textDecoder } from '../textFile';

// A report's answer recognised and parsed once, as it arrives (issue 42: "read once, parse once"). Its
// first bytes are held to the one PDF rule (isPdfAnswer); anything else is decoded chunk by chunk and pushed
// through the one report reader while it is written to its file, so telling a large CSV report needs no
// second read of that file, and a face that prints the report sees its records here (the terminal's table
// measures its columns) instead of reading the file again. The rows are kept only while the answer is small
// enough to be told in memory (interpretReportAnswer is handed this parse, not the text to parse again);
// past that, only the header and the count.

/** The one rule for a PDF answer: labelled a PDF, or its signature in the first bytes (core/pdfSignature.ts). */
export function isPdfAnswer(contentType: string, head: Uint8Array): boolean {
  return mediaType(contentType) === 'application/pdf' || hasPdfSignature(head);
}

/** What the arrival found: a PDF, or the CSV parse (rows only while small) and whether it is well-formed. */
export interface ArrivedReport {
  /** A successful answer that is a PDF by the one rule (then nothing was parsed). */
  pdf: boolean;
  /** Every record was as wide as the header and the quoting well-formed. */
  wellFormed: boolean;
  columns: string[] | undefined;
  /** Data records. */
  count: number;
  /** The data records, while the answer stayed within the kept bytes; undefined past them. */
  rows: string[][] | undefined;
}

export interface ArrivalOptions {
  /** The template's reportCsvDelimiter (default ','). */
  delimiter?: string;
  /** The template's reportEncode; else the answer's charset. */
  encoding?: string;
  /** Rows are kept while the answer is at most this many bytes. */
  keepBytes: number;
  /** Each record as parsed, the header first (`header` true): a face's own use of the report as it comes. */
  onRecord?: (record: string[], header: boolean) => void;
}

export class ArrivingReport {
  private reader: ReportRecordReader | undefined;
  private decoder: ReturnType<typeof textDecoder> | undefined;
  private contentType = '';
  /** The first bytes, held until there are enough to tell a PDF (then `pdf` is known). */
  private head: Uint8Array[] | undefined = [];
  private pdf = false;
  private rows: string[][] | undefined = [];
  private count = 0;
  private bytes = 0;
  private stopped = false;

  constructor(private readonly o: ArrivalOptions) {}

  /** The answer's status and type, before its body: only a success is parsed (nothing else can be a report). */
  answer(status: number, contentType: string): void {
    if (status < 200 || status >= 300) return;
    this.contentType = contentType;
    this.decoder = textDecoder(this.o.encoding ?? charsetOf(contentType));
    const onRecord = this.o.onRecord;
    this.reader = new ReportRecordReader({
      delimiter: this.o.delimiter || ',',
      onHeader: (columns) => onRecord?.(columns, true),
      onRecord: (values) => {
        this.count++;
        this.rows?.push(values);
        onRecord?.(values, false);
      },
    });
  }

  push(chunk: Uint8Array): void {
    if (!this.reader || this.stopped) return;
    this.bytes += chunk.length;
    if (this.bytes > this.o.keepBytes) this.rows = undefined;
    if (this.head) {
      this.head.push(chunk);
      if (this.bytes < PDF_HEAD_BYTES) return;
      this.tell();
    } else this.parse(chunk);
  }

  /** The held first bytes, told once: a PDF stops here, anything else goes on to the parse. */
  private tell(): void {
    const held = this.head ?? [];
    this.head = undefined;
    const first = held.length === 1 ? held[0] : new Uint8Array(Buffer.concat(held));
    this.pdf = isPdfAnswer(this.contentType, first.subarray(0, PDF_HEAD_BYTES));
    if (this.pdf) this.stopped = true;
    else this.parse(first);
  }

  private parse(chunk: Uint8Array): void {
    if (this.stopped || !this.reader || !this.decoder) return;
    this.reader.push(this.decoder.decode(chunk, { stream: true }));
    // A report is well-formed throughout: once it is not, the rest need not be read.
    if (this.reader.errors > 0 || this.reader.ragged > 0) this.stopped = true;
  }

  /** Ends the parse (undefined when the answer was not parsed: not a success). */
  end(): ArrivedReport | undefined {
    const reader = this.reader;
    if (!reader || !this.decoder) return undefined;
    if (this.head) this.tell();
    if (this.pdf) return { pdf: true, wellFormed: false, columns: undefined, count: 0, rows: undefined };
    if (!this.stopped) {
      reader.push(this.decoder.decode());
      reader.end();
    }
    const wellFormed = reader.errors === 0 && reader.ragged === 0 && reader.columns !== undefined && reader.columns.length > 0;
    return { pdf: false, wellFormed, columns: reader.columns, count: this.count, rows: this.rows };
  }
}
