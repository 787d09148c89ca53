// The one boundary every byte leaving the product passes: a terminal line, a CSV or JSON we write, a
// store record, a log line, an editor message, a page. Card numbers are masked in every field and shape,
// CVVs dropped, control characters shown escaped, formulas neutralised. A new face or field is safe by
// writing through here; test/process/output-hostile.test.ts drives every path with one hostile corpus.

import { maskCardNumbers } from './cardNumbers';
import { hideCvvs } from './cvv';
import { takeVouched } from './laid';
import { terminalText, terminalValue } from './terminal';

export { maskCardNumbers } from './cardNumbers';
export { hideCvvs, isCvvName } from './cvv';
export { terminalValue } from './terminal';
export { keptColumns, laidCsv, laidCsvRecord, safeCsv, type SafeCsvOptions } from './csv';
export { laidJson, safeJson } from './json';
export { safeBody, safeFields, safeFreeText, safeUrlPath } from './bodies';
export { hasShape, vet, type Vetted } from './values';
export { isSaid, joinSaid, ourWords, said, saidKey, saidMarkup, saidText, typed, type Part, type Said } from './said';
export { joinLaid, laid, laidSlice, padLaid, takeVouched, trimmedEnd, vouched, words, type Laid } from './laid';
export { maskCardNumber, maskCardValue, maskFields, maskQuotedValue, maskStoredText, maskTable, maskText, rowMasker } from './mask';

/** Text from anywhere, safe to keep or show: card numbers masked, labelled CVVs hidden. */
export function safeText(text: string): string {
  return hideCvvs(maskCardNumbers(text));
}

/** Text for a terminal: safeText, and no raw control character (tabs and line breaks kept for layout). */
export function terminalSafe(text: string): string {
  return terminalText(safeText(text));
}

/** One value on a terminal line: safeText, every control character escaped, never more than one line. */
export function terminalField(value: string): string {
  return terminalValue(safeText(value));
}

/**
 * The floor under a face's output (the CLI's every line, the editor's log and messages): text a face laid out
 * from vetted values and vouched for (./laid.ts) as it is, anything else made safe whole (terminalSafe).
 */
export function floorText(text: string): string {
  return takeVouched(text) ? text : terminalSafe(text);
}
