import { parseCsv, type ParsedCsv } from './parse';

// The product's one CSV writer: `;` delimited by default, RFC 4180 quoting (only where a value needs it),
// CRLF between records on submission. The results page and exports use it too, with their delimiter.

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
 * The text as it is sent: every record separator CRLF, no BOM, line breaks inside quoted fields kept
 * exactly. Records are cut from the original text, so nothing else changes by a single character.
 * `csv` is the text's own parse when the caller has one (submission preparation parses once).
 */
export function withCrlfRecords(text: string, csv: ParsedCsv = parseCsv(text)): string {
  if (csv.recordCount === 0) return '';
  const parts: string[] = [];
  for (let r = 0; r < csv.recordCount; r++) parts.push(csv.isBlankAt(r) ? '' : text.slice(csv.recordStart(r), csv.record(r).end));
  // Trailing blank records only stand for the final line break(s); keep one CRLF at the end.
  while (parts.length > 1 && parts[parts.length - 1] === '') parts.pop();
  const endsWithBreak = /[\r\n]$/.test(text);
  return parts.join('\r\n') + (endsWithBreak ? '\r\n' : '');
}
