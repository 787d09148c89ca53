import { parseCsv, type ParsedCsv } from './parse';

// The product's one CSV writer: `;` delimited by default, RFC 4180 quoting (only where a value needs it).
// The results page and exports use it too, with their delimiter. What a submission sends is the batch's
// canonical text (canonical.ts).

/**
 * Quotes a value only when it must be: it holds the delimiter, a quote or a line break. `always` quotes
 * every value (the gateway's report writes them so, and the local gateway writes its report the same way).
 */
export function quoteField(value: string, delimiter = ';', always = false): string {
  if (!always && value.indexOf(delimiter) === -1 && value.indexOf('"') === -1 && value.indexOf('\n') === -1 && value.indexOf('\r') === -1) {
    return value;
  }
  return `"${value.replace(/"/g, '""')}"`;
}

/** Records written with `delimiter`, quoted where needed (or always), joined by `newline` (none after the last). */
export function writeRecords(rows: readonly (readonly string[])[], delimiter = ';', newline = '\r\n', always = false): string {
  return rows.map((row) => row.map((v) => quoteField(v, delimiter, always)).join(delimiter)).join(newline);
}

/**
 * The text as versions up to 0.1 sent it: every record separator CRLF, no BOM, line breaks inside quoted
 * fields kept as they were, or (`quotedLf`) each made LF, as an editor with LF line endings held them: the
 * same as of the text with every line break LF, from the one parse of the text. Only for the content hashes
 * older ledger records hold (canonical.ts, legacyContentHashes); what is sent today is the canonical text.
 */
export function legacySentText(text: string, csv: ParsedCsv = parseCsv(text), quotedLf = false): string {
  if (csv.recordCount === 0) return '';
  const parts: string[] = [];
  for (let r = 0; r < csv.recordCount; r++) {
    const part = csv.isBlankAt(r) ? '' : text.slice(csv.recordStart(r), csv.record(r).end);
    parts.push(quotedLf ? part.replace(/\r\n|\r/g, '\n') : part);
  }
  // Trailing blank records only stand for the final line break(s); keep one CRLF at the end.
  while (parts.length > 1 && parts[parts.length - 1] === '') parts.pop();
  const endsWithBreak = /[\r\n]$/.test(text);
  return parts.join('\r\n') + (endsWithBreak ? '\r\n' : '');
}
