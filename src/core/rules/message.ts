import type { Said } from '../output';

// A problem's message is a `Said` (./types.ts): our words and typed values, compared part by part, never by
// the text a face lays out of it.

/** Whether two messages say the same: the same words and the same values of the same types, in order. */
export function sameMessage(a: Said, b: Said): boolean {
  if (a === b) return true;
  const x = a.said;
  const y = b.said;
  if (x.length !== y.length) return false;
  for (let i = 0; i < x.length; i++) {
    const p = x[i];
    const q = y[i];
    if (typeof p === 'string' || typeof q === 'string') {
      if (p !== q) return false;
    } else if (p.length !== q.length || p[0] !== q[0] || p[1] !== q[1] || p[2] !== q[2]) return false;
  }
  return true;
}
