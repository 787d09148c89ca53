import type { z } from 'zod';

// Template problems in plain words. zod's own messages read like validator output ("Too small: expected
// string to have >=1 characters"); a merchant editing a template needs to hear what is wrong with which
// field and what to do, and for the values only the support manager can give, to ask them.

/** What a fresh template holds where only the gateway's support manager knows the value. */
export const SUPPORT_PLACEHOLDER = '<ask your support manager>';

/** Fields whose value comes from the support manager, with what to ask them for. */
const FROM_SUPPORT: Record<string, string> = {
  reportIdentifier: "the report's identifier",
};

const TYPE_WORDS: Record<string, string> = {
  string: 'text in quotes',
  array: 'a list in [ ]',
  object: 'an object in { }',
  number: 'a number',
  boolean: 'true or false',
};

function describe(v: unknown): string {
  if (v === undefined) return 'missing';
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'a list';
  if (typeof v === 'string') return `"${v.length > 40 ? `${v.slice(0, 40)}…` : v}"`;
  if (typeof v === 'object') return 'an object';
  return String(v as number | boolean | bigint | undefined);
}

function valueAt(root: unknown, path: readonly PropertyKey[]): unknown {
  let v = root;
  for (const k of path) v = v !== null && typeof v === 'object' ? (v as Record<PropertyKey, unknown>)[k] : undefined;
  return v;
}

/** True for a value that is still the placeholder (or any "<…>" stand-in copied from an example). */
export function isPlaceholder(value: string): boolean {
  return /^\s*<[^<>]*>\s*$/.test(value);
}

/** One sentence for one zod issue, starting with the field's path. */
export function templateMessage(issue: z.core.$ZodIssue, input: unknown): string {
  const path = issue.path.map(String).join('.');
  const field = path || 'the template';
  const value = valueAt(input, issue.path);
  const ask = FROM_SUPPORT[path];
  if (ask && typeof value === 'string') {
    if (value.trim() === '') return `${field} is empty: ask your support manager for ${ask}`;
    if (isPlaceholder(value)) return `${field} is still a placeholder: ask your support manager for ${ask}`;
  }
  switch (issue.code) {
    case 'invalid_type':
      if (value === undefined) return `${field} is missing: add it as ${TYPE_WORDS[issue.expected] ?? issue.expected}`;
      return `${field} must be ${TYPE_WORDS[issue.expected] ?? issue.expected}, not ${describe(value)}`;
    case 'too_small':
    case 'too_big':
      if (path === 'reportCsvDelimiter') return `${field} must be exactly one character, such as "," or ";" (it is ${describe(value)})`;
      if (issue.origin === 'string' && typeof value === 'string' && value.trim() === '') return `${field} is empty: fill it in`;
      return `${field} is too ${issue.code === 'too_small' ? 'short' : 'long'}: ${describe(value)}`;
    case 'invalid_value':
      if (typeof value === 'string' && value.trim() === '') return `${field} is empty: fill it in`;
      // A saved view is the toolkit's own: its choices are not the gateway's.
      if (path.startsWith('views.'))
        return `${field} ${describe(value)} is not one of ${issue.values.map((v) => `"${String(v)}"`).join(', ')}`;
      return `${field} ${describe(value)} is not one the gateway serves: use ${issue.values.map((v) => `"${String(v)}"`).join(' or ')}`;
    case 'custom':
      if (path === 'views') return `views: ${issue.message}`;
      return `${field} ${describe(value)} is ${issue.message}`;
    default:
      return `${field}: ${issue.message}`;
  }
}
