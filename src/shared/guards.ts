// The small checks every message protocol in src/shared builds its guards from: what crosses between the
// host and a page is untrusted, so each side checks the shape of what it receives.

type Rec = Record<string, unknown>;

export const isRec = (v: unknown): v is Rec => typeof v === 'object' && v !== null && !Array.isArray(v);
export const isStr = (v: unknown): v is string => typeof v === 'string';
export const optStr = (v: unknown): boolean => v === undefined || typeof v === 'string';
export const optNum = (v: unknown): boolean => v === undefined || (typeof v === 'number' && Number.isFinite(v));
export const isStringArray = (v: unknown): v is string[] => Array.isArray(v) && v.every(isStr);
/** Checks every row: the cost is linear, which is fine next to the structured clone that delivered it. */
export const isRows = (v: unknown): v is string[][] => Array.isArray(v) && v.every(isStringArray);
