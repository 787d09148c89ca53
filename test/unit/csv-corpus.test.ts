import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { parseCsv } from '../../src/core/csv/parse';
import { ReportRecordReader, readReportText } from '../../src/core/csv/reportRecords';
import { writeRecords } from '../../src/core/csv/write';
import { parseReportCsv } from '../../src/core/gateway/reportAnswer';
import { CsvReader, unescape } from '../../webview-ui/csvReader';

// One RFC 4180 corpus for every reader of the product: the batch tokenizer (core/csv/parse), the one
// report reader as the host uses it (reportRecords, parseReportCsv) and as the page uses it (csvReader),
// each fed whole and cut at every position; and the one writer, whose output every reader reads back.

interface Case {
  name: string;
  text: string;
  records?: string[][];
  malformed?: boolean;
  ragged?: boolean;
}
const corpus = (JSON.parse(readFileSync(join(__dirname, '../fixtures/rfc4180/corpus.json'), 'utf8')) as { cases: Case[] }).cases;
const good = corpus.filter((c) => c.records);

function viaReportReader(text: string, cuts: number[]): { records: string[][]; errors: number; ragged: number } {
  const records: string[][] = [];
  const r = new ReportRecordReader({ delimiter: ',', onHeader: (c) => records.push(c), onRecord: (v) => records.push(v) });
  let at = 0;
  for (const cut of [...cuts, text.length]) {
    r.push(text.slice(at, cut));
    at = cut;
  }
  r.end();
  return { records, errors: r.errors, ragged: r.ragged };
}

function viaPage(text: string, cut: number): string[][] {
  const records: string[][] = [];
  const reader = new CsvReader({
    delimiter: ',',
    onHeader: (c) => records.push(c),
    onPiece: (p) => {
      const w = p.start.length / p.rows;
      for (let r = 0; r < p.rows; r++)
        records.push(
          Array.from({ length: w }, (_, c) => unescape(p.text, p.start[r * w + c], p.end[r * w + c], p.escaped?.[r * w + c] === 1)),
        );
    },
  });
  reader.push(text.slice(0, cut));
  reader.push(text.slice(cut));
  reader.end();
  return records;
}

describe('RFC 4180 corpus: every reader reads every case the same', () => {
  for (const c of good) {
    it(c.name, () => {
      const expected = c.records!;
      assert.deepEqual(viaReportReader(c.text, []).records, expected, 'report reader, whole');
      for (let cut = 0; cut <= c.text.length; cut++) {
        assert.deepEqual(viaReportReader(c.text, [cut]).records, expected, `report reader, cut at ${cut}`);
        assert.deepEqual(viaPage(c.text, cut), expected, `page reader, cut at ${cut}`);
      }
      const one = Array.from({ length: c.text.length }, (_, i) => i);
      assert.deepEqual(viaReportReader(c.text, one).records, expected, 'report reader, one character at a time');
      assert.deepEqual(parseReportCsv(c.text, ','), { columns: expected[0], rows: expected.slice(1) }, 'parseReportCsv');
      const batch = parseCsv(c.text.replace(/^\ufeff/, ''), ',');
      const tokenized = batch.records.filter((r) => !r.isBlank).map((r) => r.values);
      assert.deepEqual(tokenized, expected, 'batch tokenizer');
      assert.deepEqual(readReportText(writeRecords(expected, ','), ',')?.rows, expected.slice(1), 'the writer reads back');
      assert.deepEqual(readReportText(writeRecords(expected, ',', '\r\n', true), ',')?.rows, expected.slice(1), 'quoted always');
    });
  }
  for (const c of corpus.filter((x) => x.malformed)) {
    it(`${c.name}: refused by the report check, flagged by the tokenizer`, () => {
      assert.equal(parseReportCsv(c.text, ','), undefined);
      assert.ok(viaReportReader(c.text, [3]).errors > 0);
      assert.ok(parseCsv(c.text, ',').problemRecords.length > 0);
    });
  }
  for (const c of corpus.filter((x) => x.ragged)) {
    it(`${c.name}: refused by the report check`, () => {
      assert.equal(parseReportCsv(c.text, ','), undefined);
      assert.equal(viaReportReader(c.text, []).ragged, 1);
    });
  }
  it('report lines count physical lines, including breaks inside quotes and blank lines', () => {
    const lines: number[] = [];
    const r = new ReportRecordReader({ delimiter: ',', onRecord: (_v, line) => lines.push(line) });
    const text = 'a,b\r\n"x\r\ny",1\r\n\r\n2,3\n4,5\r6,7';
    for (let i = 0; i < text.length; i += 2) r.push(text.slice(i, i + 2));
    r.end();
    assert.deepEqual(lines, [2, 5, 6, 7]);
  });
});
