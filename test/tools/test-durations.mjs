// A reporter for `node --test` that npm test (test/tools/test-all.ts) adds to each node:test suite: each
// test file's time (the sum of its top-level tests), one JSON line per file when the run ends, so npm test
// can close with the slowest files across the suites. JavaScript: node loads reporters before --import
// hooks, so a TypeScript reporter cannot be loaded.

/** @param {AsyncIterable<{ type: string; data: { nesting: number; file?: string; details?: { duration_ms?: number } } }>} source */
export default async function* testDurations(source) {
  /** @type {Map<string, number>} */
  const files = new Map();
  for await (const event of source) {
    if ((event.type === 'test:pass' || event.type === 'test:fail') && event.data.nesting === 0 && event.data.file) {
      files.set(event.data.file, (files.get(event.data.file) ?? 0) + (event.data.details?.duration_ms ?? 0));
    }
  }
  for (const [file, ms] of files) yield `${JSON.stringify({ file, ms: Math.round(ms) })}\n`;
}
