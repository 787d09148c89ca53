import { parseCsv } from './parse';

// Writing CSV the gateway reads: `;` delimited, RFC 4180 quoting, CRLF between records on submission.

/** Quotes a value only when it must be: it holds the delimiter, a quote or a line break. */
export function quoteField(value: string, delimiter = ';'): string {
  if (value.indexOf(delimiter) === -1 && value.indexOf('"') === -1 && value.indexOf('\n') === -1 && value.indexOf('\r') === -1) {
    return value;
  }
  return `"${value.replace(/"/g, '""')}"`;
}

/**
 * The text as it is sent: every record separator CRLF, no BOM, line breaks inside quoted fields kept
 * exactly. Records are cut from the original text, so nothing else changes by a single character.
 */
export function withCrlfRecords(text: string): string {
  const csv = parseCsv(text);
  if (csv.recordCount === 0) return '';
  const parts: string[] = [];
  for (let r = 0; r < csv.recordCount; r++) parts.push(csv.isBlankAt(r) ? '' : text.slice(csv.recordStart(r), csv.record(r).end));
  // Trailing blank records only stand for the final line break(s); keep one CRLF at the end.
  while (parts.length > 1 && parts[parts.length - 1] === '') parts.pop();
  const endsWithBreak = /[\r\n]$/.test(text);
  return parts.join('\r\n') + (endsWithBreak ? '\r\n' : '');
}
