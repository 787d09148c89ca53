import { findNodeAtLocation, parseTree, type Node, type ParseError } from 'jsonc-parser';
import { LineIndex } from '../text';
import { errorMessage } from '../errorMessage';

// Where JSON text goes wrong, for messages that name the line and column. Node 20's JSON.parse messages
// often carry no position, so the text is read with jsonc-parser (VS Code's own JSON reader) in strict
// mode: no comments, no trailing commas.

const STRICT = { disallowComments: true, allowTrailingComma: false, allowEmptyContent: false };

/** Offset of the first syntax error, or undefined when the text is valid JSON. */
export function jsonErrorOffset(text: string): number | undefined {
  const errors: ParseError[] = [];
  parseTree(text, errors, STRICT);
  return errors.length ? Math.min(errors[0].offset, text.length) : undefined;
}

/**
 * Offset of the value at a JSON path (its property name, when the value sits in an object), or of the
 * deepest part of the path that exists. Undefined when the text cannot be read.
 */
export function jsonPathOffset(text: string, path: readonly PropertyKey[]): number | undefined {
  const root = parseTree(text, [], STRICT);
  if (!root) return undefined;
  const segments = path.filter((p): p is string | number => typeof p === 'string' || typeof p === 'number');
  for (let n = segments.length; n >= 0; n--) {
    const node: Node | undefined = findNodeAtLocation(root, segments.slice(0, n));
    if (!node) continue;
    const property = node.parent?.type === 'property' ? node.parent : undefined;
    return (property?.children?.[0] ?? node).offset;
  }
  return root.offset;
}

/** 1-based line and column of an offset, as messages give them (LineIndex knows every line-break kind). */
export function lineColumnAt(text: string, offset: number): { line: number; column: number } {
  const p = new LineIndex(text).positionAt(offset);
  return { line: p.line + 1, column: p.character + 1 };
}

export type JsonText = { ok: true; value: unknown; body: string } | { ok: false; message: string; line?: number; column?: number };

/**
 * Reads a JSON file's text (a leading byte order mark ignored). A syntax error comes back with Node's
 * message, stripped of its excerpt and offset, and the line and column where the text goes wrong (when found).
 */
export function readJsonText(text: string): JsonText {
  const body = text.replace(/^\uFEFF/, '');
  try {
    return { ok: true, value: JSON.parse(body), body };
  } catch (err) {
    const message = errorMessage(err)
      .replace(/, (\.\.\.)?".*$/s, '')
      .replace(/ (in JSON )?at position \d+.*$/s, '');
    const at = jsonErrorOffset(body);
    return { ok: false, message, ...(at === undefined ? {} : lineColumnAt(body, at)) };
  }
}
