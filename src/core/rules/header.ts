import { distance } from 'fastest-levenshtein';
import { COLUMNS, columnSpec } from './columns';

// How a header cell maps to a column: exactly, through an alias (a rename fix), or not at all.

export type HeaderMatch = { kind: 'exact'; column: string } | { kind: 'alias'; column: string } | { kind: 'unknown'; suggestion?: string };

/** Case, surrounding spaces and the separators `-`, `_`, space do not count when comparing names. */
export function looseName(name: string): string {
  return name.trim().toLowerCase().replace(/[-_ ]/g, '');
}

const ALIASES = new Map<string, string>(COLUMNS.flatMap((col) => col.aliases.map((a) => [a, col.name] as [string, string])));
// Aliases are compared as loosely as names: `Payment-Description` is the alias payment-description.
const LOOSE = new Map<string, string>([
  ...COLUMNS.flatMap((col) => col.aliases.map((a) => [looseName(a), col.name] as [string, string])),
  ...COLUMNS.map((col) => [looseName(col.name), col.name] as [string, string]),
]);

/** `present`: columns the header already has, never suggested for an unknown name (that would duplicate). */
export function matchHeaderName(raw: string, present: ReadonlySet<string> = new Set()): HeaderMatch {
  if (columnSpec(raw)) return { kind: 'exact', column: raw };
  const aliased = ALIASES.get(raw) ?? ALIASES.get(raw.trim()) ?? LOOSE.get(looseName(raw));
  if (aliased) return { kind: 'alias', column: aliased };
  return { kind: 'unknown', suggestion: closestColumn(raw, present) };
}

/** The column at most 2 edits away, nearest first (table order breaks ties), not one already present. */
export function closestColumn(raw: string, present: ReadonlySet<string> = new Set()): string | undefined {
  let best: string | undefined;
  let bestDistance = 3;
  for (const col of COLUMNS) {
    if (present.has(col.name)) continue;
    // The distance is at least the difference in length: a long cell is never compared character by character.
    if (Math.abs(raw.length - col.name.length) >= bestDistance) continue;
    const d = distance(raw, col.name);
    if (d < bestDistance) {
      best = col.name;
      bestDistance = d;
    }
  }
  return best;
}

/** A one-column header that splits on `,` or a tab: the file was written with another delimiter. */
export function otherDelimiter(headerValues: readonly string[]): ',' | '\t' | undefined {
  if (headerValues.length !== 1) return undefined;
  const only = headerValues[0];
  const commas = only.split(',').length - 1;
  const tabs = only.split('\t').length - 1;
  if (commas === 0 && tabs === 0) return undefined;
  return tabs > commas ? '\t' : ',';
}
