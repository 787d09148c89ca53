import { test } from 'node:test';
import assert from 'node:assert/strict';
import Module from 'node:module';
import fc from 'fast-check';
import type * as DiskEdits from '../../src/extension/diskEdits';
import { applyEdits } from '../../src/core/text';

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

const breaks = (text: string) => text.match(/\r\n|\r|\n/g) ?? [];
const normalised = (text: string) => text.replace(/\r\n|\r|\n/g, '\r\n');

test("edits made on the editor's text land on the same characters of the file, every break kept", () => {
  const cut = fc.tuple(fc.nat(), fc.nat(), fc.nat(3), fc.string({ maxLength: 3 }));
  fc.assert(
    fc.property(fc.array(piece, { maxLength: 40 }), fc.boolean(), fc.array(cut, { maxLength: 4 }), (pieces, bom, cuts) => {
      const body = pieces.join('');
      const disk = (bom ? '\ufeff' : '') + body;
      // What the editor shows and the server computes its fixes on: no BOM, every break a CRLF.
      const shown = normalised(body);
      const lines = shown.split('\r\n');
      // Cells' edits on the editor's text: within one line each, not overlapping.
      const taken: [number, number, number][] = [];
      const edits = cuts.flatMap(([l, c, len, newText]) => {
        const line = l % lines.length;
        const from = c % (lines[line].length + 1);
        const to = Math.min(from + len, lines[line].length);
        if (taken.some(([tl, tf, tt]) => tl === line && from <= tt && to >= tf)) return [];
        taken.push([line, from, to]);
        return [{ range: { start: { line, character: from }, end: { line, character: to } }, newText }];
      });
      const out = applyOnDiskText(disk, edits);
      assert.equal(out.startsWith('\ufeff'), bom, 'the byte order mark stays as it was');
      const outBody = bom ? out.slice(1) : out;
      assert.equal(normalised(outBody), applyEdits(shown, edits), "the same edits as on the editor's text");
      assert.deepEqual(breaks(outBody), breaks(body), 'every line break as it was, of its own kind');
    }),
    { numRuns: 300 },
  );
});
