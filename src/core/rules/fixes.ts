import { parseCsv, type CsvRecord } from '../csv/parse';
import { quoteField, writeRecords } from '../csv/write';
import { ourWords, said, typed, type Part, type Said } from '../output';
import type { TextEdit } from '../text';
import type { Batch } from './batch';
import type { ValueKind } from './columns';
import type { Fix } from './types';

// The rule book's quick fixes as text edits. `safe` fixes never lose data and are what fixAll and
// `paygate fix` apply; the others (clearing a DST value, guessing a column from a typo, adding an
// empty column) are offered one by one, because applying them blindly on save could destroy input
// or only move the problem.

const editAt = (batch: Batch, start: number, end: number, newText: string): TextEdit => ({
  range: batch.csv.index.range(start, end),
  newText,
});

/** Replace one cell's text (a value is re-quoted when it needs quotes). */
export function replaceCellFix(
  batch: Batch,
  record: CsvRecord,
  field: number,
  value: string,
  title: Said,
  safe: boolean,
  preferred = false,
): Fix {
  const edit = editAt(batch, record.fieldStart(field), record.fieldEnd(field), quoteField(value));
  return { title, edits: [edit], safe, preferred };
}

/** "Change to VALUE" titles made before, by kind and value: a file fixed on every row names a few values. */
const CHANGE_TITLES = new Map<string, Said>();

/**
 * invalid-value's safe fix, "Change to VALUE": the title names the value by its column's type (a date, a
 * month as a count, a card type as text). One title object per value, so fix-all's list keeps it once
 * without reading its parts (safeFixList.ts).
 */
export function changeToFix(batch: Batch, record: CsvRecord, field: number, kind: ValueKind, value: string): Fix {
  const key = `${kind}:${value}`;
  let title = CHANGE_TITLES.get(key);
  if (title === undefined) {
    let part: Part = typed.text(value);
    if (kind === 'date') part = typed.date(value);
    else if (kind === 'month') part = typed.count(value);
    if (CHANGE_TITLES.size >= 256) CHANGE_TITLES.clear();
    CHANGE_TITLES.set(key, (title = { said: ['Change to ', part] }));
  }
  return replaceCellFix(batch, record, field, value, title, true, true);
}

/**
 * A fix whose edits are built the first time they are read. A missing column means one edit per row
 * (100,000 on a big batch) that nobody needs until the fix is asked for, so lint only records how to
 * build them.
 */
export function lazyFix(title: Said, safe: boolean, build: () => TextEdit[]): Fix {
  let edits: TextEdit[] | undefined;
  return {
    title,
    safe,
    get edits() {
      return (edits ??= build());
    },
  };
}

/** Append a column to the header and an empty field to every other record (edits built on demand). */
export function appendColumnFix(batch: Batch, column: string): Fix {
  return lazyFix(said`Add column ${ourWords(column)} to the header (and an empty field to every row)`, false, () => {
    const edits: TextEdit[] = [];
    const csv = batch.csv;
    if (batch.header && !batch.header.isBlank) {
      edits.push(editAt(batch, batch.header.end, batch.header.end, `;${column}`));
    } else {
      edits.push(editAt(batch, 0, 0, column));
    }
    for (let r = batch.headerIndex + 1; r < csv.recordCount; r++) {
      if (csv.isBlankAt(r)) continue;
      const end = csv.record(r).end;
      edits.push(editAt(batch, end, end, ';'));
    }
    return edits;
  });
}

export function dropBomFix(batch: Batch): Fix {
  return { title: ourWords('Remove the byte order mark'), edits: [editAt(batch, 0, 1, '')], safe: true };
}

/**
 * Re-reads the file with the delimiter it was written with and writes it back with `;`. The rewrite is
 * made when `edits` is first read (by fix-all or the editor's action), not by every lint of a comma
 * file: on a large file it is a second copy of everything.
 */
export function rewriteDelimiterFix(batch: Batch, from: ',' | '\t'): Fix {
  let edits: TextEdit[] | undefined;
  const label = from === ',' ? 'commas' : 'tabs';
  return {
    title: ourWords(`Rewrite the file with ";" instead of ${label}`),
    get edits(): TextEdit[] {
      return (edits ??= [rewriteEdit(batch, from)]);
    },
    safe: true,
  };
}

/** The line break a text uses: CRLF when it has any, else a lone CR, else LF. */
function lineBreakOf(text: string): string {
  if (text.includes('\r\n')) return '\r\n';
  return text.includes('\r') ? '\r' : '\n';
}

function rewriteEdit(batch: Batch, from: ',' | '\t'): TextEdit {
  const text = batch.csv.text;
  const bom = batch.csv.bom ? 1 : 0;
  const body = text.slice(bom);
  const newline = lineBreakOf(body);
  const parsed = parseCsv(body, from);
  const rows: string[][] = [];
  for (let r = 0; r < parsed.recordCount; r++) rows.push(parsed.record(r).values);
  // Trailing blank records are the file's final line breaks, not data.
  while (rows.length > 1 && rows[rows.length - 1].length === 1 && rows[rows.length - 1][0] === '') rows.pop();
  let out = writeRecords(rows, ';', newline);
  if (/[\r\n]$/.test(body)) out += newline;
  return editAt(batch, bom, text.length, out);
}

/** Empty fields at the end of a row short of the header (`count` delimiters at its end). */
export function addEmptyFieldsFix(batch: Batch, rowEnd: number, count: number): Fix {
  return lazyFix(ourWords(`Add the missing empty field${count === 1 ? '' : 's'} at the end of the row`), false, () => [
    editAt(batch, rowEnd, rowEnd, ';'.repeat(count)),
  ]);
}
