// The core is shared by the extension, the CLI and the local gateway: nothing under src/core may import
// `vscode` (statically, dynamically or through require), or the CLI would not run outside the editor.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

const CORE = path.resolve(__dirname, '../../src/core');

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return sources(p);
    return /\.(ts|tsx|mts|cts|js|mjs|cjs)$/.test(e.name) ? [p] : [];
  });
}

const VSCODE_IMPORT = [
  /\bfrom\s*['"]vscode(\/[^'"]*)?['"]/,
  /\bimport\s*['"]vscode(\/[^'"]*)?['"]/,
  /\bimport\s*\(\s*['"]vscode(\/[^'"]*)?['"]\s*\)/,
  /\brequire\s*\(\s*['"]vscode(\/[^'"]*)?['"]\s*\)/,
];

/** The lines of a source that import vscode, after removing comments. */
function vscodeImports(source: string): string[] {
  const code = source.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:])\/\/.*$/gm, '$1');
  return code.split('\n').filter((l) => VSCODE_IMPORT.some((re) => re.test(l)));
}

describe('core boundary', () => {
  it('the scanner recognises every form of a vscode import (and not a mention in a comment)', () => {
    for (const form of [
      "import * as vscode from 'vscode';",
      'import { window } from "vscode";',
      "import type { Uri } from 'vscode';",
      "import 'vscode';",
      "const v = require('vscode');",
      "const v = await import('vscode');",
      "export { Range } from 'vscode';",
    ]) {
      assert.equal(vscodeImports(form).length, 1, form);
    }
    assert.deepEqual(vscodeImports("// never import from 'vscode' here\nconst s = 'vscode';"), []);
  });
  it('no file under src/core imports vscode', () => {
    const files = sources(CORE);
    assert.ok(files.length > 10, `expected the core's sources under ${CORE}`);
    const offenders = files.flatMap((f) => vscodeImports(readFileSync(f, 'utf8')).map((l) => `${path.relative(CORE, f)}: ${l.trim()}`));
    assert.deepEqual(offenders, []);
  });
});
