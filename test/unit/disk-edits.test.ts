import { test } from 'node:test';
import assert from 'node:assert/strict';
import Module from 'node:module';
import fc from 'fast-check';
import type * as DiskEdits from '../../src/extension/diskEdits';

// A light-bulb fix is computed on the editor's text, where every line break is of the document's one kind;
// applyOnDiskText makes the same edits on the file's bytes (issue 43, item 3). Over random files mixing LF,
// CRLF and lone CRs, with and without a byte order mark: the bytes outside the edited spans stay as they
// were, breaks included, and the spans get the edits' text. (The editor's side: test/integration/fixOnDisk.test.ts.)

const resolve = (Module as unknown as { _resolveFilename: (r: string, ...rest: unknown[]) => string })._resolveFilename;
(Module as unknown as { _resolveFilename: unknown })._resolveFilename = function (request: string, ...rest: unknown[]) {
  return request === 'vscode' ? 'vscode' : resolve.apply(this, [request, ...rest]);
};
require.cache.vscode = { id: 'vscode', filename: 'vscode', loaded: true, exports: {} } as unknown as NodeJS.Module;
// eslint-disable-next-line @typescript-eslint/no-require-imports -- after the fake is in place
const { applyOnDiskText } = require('../../src/extension/diskEdits') as typeof DiskEdits;

const piece = fc.oneof(
  fc.constantFrom('\r\n', '\n', '\r', ';', '"'),
  fc.string({ unit: fc.constantFrom('a', 'b', 'é', '1'), maxLength: 4 }),
);

/** The offset in `body` of a line and character, found on its own: every CRLF, LF or lone CR is one break. */
function offsetIn(body: string, line: number, character: number): number {
  const breaks = /\r\n|\r|\n/g;
  let start = 0;
  for (let l = 0; l < line; l++) {
    const m = breaks.exec(body)!;
    start = m.index + m[0].length;
  }
  return start + character;
}

test("edits made on the editor's text land on the same characters of the file, every other byte kept", () => {
  const cut = fc.tuple(fc.nat(), fc.nat(), fc.nat(3), fc.string({ maxLength: 3 }));
  fc.assert(
    fc.property(fc.array(piece, { maxLength: 40 }), fc.boolean(), fc.array(cut, { maxLength: 4 }), (pieces, bom, cuts) => {
      const body = pieces.join('');
      const disk = (bom ? '\ufeff' : '') + body;
      // What the editor shows and the server computes its fixes on: no BOM, every break a CRLF.
      const lines = body.replace(/\r\n|\r|\n/g, '\r\n').split('\r\n');
      // Cells' edits on the editor's text: within one line each, not overlapping.
      const taken: { line: number; from: number; to: number; newText: string }[] = [];
      for (const [l, c, len, newText] of cuts) {
        const line = l % lines.length;
        const from = c % (lines[line].length + 1);
        const to = Math.min(from + len, lines[line].length);
        if (!taken.some((t) => t.line === line && from <= t.to && to >= t.from)) taken.push({ line, from, to, newText });
      }
      const edits = taken.map((t) => ({
        range: { start: { line: t.line, character: t.from }, end: { line: t.line, character: t.to } },
        newText: t.newText,
      }));
      // The file with each span replaced, from the last to the first: every other byte as it was.
      let want = body;
      for (const t of [...taken].sort((a, b) => b.line - a.line || b.from - a.from))
        want = want.slice(0, offsetIn(body, t.line, t.from)) + t.newText + want.slice(offsetIn(body, t.line, t.to));
      assert.equal(applyOnDiskText(disk, edits), (bom ? '\ufeff' : '') + want);
    }),
    { numRuns: 300 },
  );
});
