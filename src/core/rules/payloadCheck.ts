import { said, typed, type Said } from '../output';
import { payloadLength } from '../payload';
import { thousands as grouped } from '../thousands';
import type { Range } from '../text';
import { CodeInfo, Codes } from './codes';
import type { LintDiagnostic } from './types';

// batch-too-large: a batch the gateway would refuse for its size alone, told before it is sent. The
// maximum is the active environment's (its `maxPayloadBytes`, the local gateway's by default), which only
// a face knows: the linter is asked with it, the language server checks it beside the lint.

/** batch-too-large's message when the payload of `text` is longer than `maxPayloadBytes`; else undefined. */
export function payloadProblem(text: string, maxPayloadBytes: number): Said | undefined {
  return payloadLengthProblem(payloadLength(text), maxPayloadBytes);
}

/** batch-too-large's message for a payload of `length` bytes when over `maxPayloadBytes` (submit's refusal too). */
export function payloadLengthProblem(length: number, maxPayloadBytes: number): Said | undefined {
  if (length <= maxPayloadBytes) return undefined;
  const [size, max] = [typed.count(grouped(length)), typed.count(grouped(maxPayloadBytes))];
  return said`the batch's payload is ${size} bytes (Base64, as sent), over the environment's maximum of ${max}: the gateway would refuse it. Cut it into parts with paygate split --max-bytes ${typed.count(maxPayloadBytes)}`;
}

/** The warning on `headerRange` when the payload of `text` is longer than `maxPayloadBytes`; else undefined. */
export function payloadDiagnostic(text: string, maxPayloadBytes: number, headerRange: Range): LintDiagnostic | undefined {
  return payloadLengthDiagnostic(payloadLength(text), maxPayloadBytes, headerRange);
}

/** The warning on `headerRange` for a payload of `length` bytes (a batch weighed in pieces, from disk); else undefined. */
export function payloadLengthDiagnostic(length: number, maxPayloadBytes: number, headerRange: Range): LintDiagnostic | undefined {
  const message = payloadLengthProblem(length, maxPayloadBytes);
  if (message === undefined) return undefined;
  return {
    code: Codes.batchTooLarge,
    severity: CodeInfo[Codes.batchTooLarge].severity,
    message,
    range: headerRange,
    columnName: null,
    fixes: [],
  };
}

/** The first line's range of a text (a BOM not counted): where a batch's file-level warning sits without a parse. */
export function firstLineRange(text: string): Range {
  const start = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  let end = text.length;
  const lf = text.indexOf('\n');
  const cr = text.indexOf('\r');
  if (lf >= 0) end = lf;
  if (cr >= 0 && cr < end) end = cr;
  return { start: { line: 0, character: start }, end: { line: 0, character: end } };
}
