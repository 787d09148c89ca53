// The floors of the architecture around the language server: it uses only the core, src/shared and the
// LSP libraries (no `vscode`, no launcher); the VS Code extension starts it but never imports it.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

const SRC = path.resolve(__dirname, '../../src');

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return sources(p);
    return /\.ts$/.test(e.name) ? [p] : [];
  });
}

/** Every module a source file imports (static imports, re-exports, dynamic imports and requires). */
function imports(file: string): string[] {
  const code = readFileSync(file, 'utf8')
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/(^|[^:])\/\/.*$/gm, '$1');
  const found: string[] = [];
  for (const re of [/\bfrom\s*['"]([^'"]+)['"]/g, /\bimport\s*['"]([^'"]+)['"]/g, /\b(?:import|require)\s*\(\s*['"]([^'"]+)['"]\s*\)/g]) {
    for (const m of code.matchAll(re)) found.push(m[1]);
  }
  return found;
}

/** Where a relative import lands, as a path under src/ ("core/rules/lint"), or the package name. */
function target(file: string, spec: string): string {
  return spec.startsWith('.') ? path.relative(SRC, path.resolve(path.dirname(file), spec)) : spec;
}

describe('language server boundary', () => {
  it('src/language-server imports only the core, src/shared, itself and the LSP libraries', () => {
    const files = sources(path.join(SRC, 'language-server'));
    assert.ok(files.length >= 5, 'the server sources are found');
    assert.ok(
      files.some((f) => imports(f).some((s) => target(f, s).startsWith('core/rules/'))),
      'imports are read and resolved',
    );
    const allowed = (t: string) => /^(core|shared|language-server)\//.test(t) || /^vscode-languageserver(-textdocument)?(\/node)?$/.test(t);
    const offenders = files.flatMap((f) =>
      imports(f)
        .map((s) => target(f, s))
        .filter((t) => !allowed(t))
        .map((t) => `${path.relative(SRC, f)} → ${t}`),
    );
    assert.deepEqual(offenders, []);
  });

  it('the extension and the core never import the language server', () => {
    const files = [...sources(path.join(SRC, 'extension')), ...sources(path.join(SRC, 'core'))];
    const offenders = files.flatMap((f) =>
      imports(f)
        .map((s) => target(f, s))
        .filter((t) => t.startsWith('language-server'))
        .map((t) => `${path.relative(SRC, f)} → ${t}`),
    );
    assert.deepEqual(offenders, []);
  });
});
