// "No circles anywhere": the product's modules (src/, webview-ui/) form no import cycle. Imports are read
// with the TypeScript compiler's own pre-processor, so every form (import, export-from, import type,
// dynamic import) counts.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

const ROOT = path.resolve(__dirname, '..', '..');

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return sources(p);
    return e.name.endsWith('.ts') && !e.name.endsWith('.d.ts') ? [p] : [];
  });
}

function resolve(from: string, spec: string): string | undefined {
  if (!spec.startsWith('.')) return undefined;
  const base = path.resolve(path.dirname(from), spec);
  for (const candidate of [`${base}.ts`, path.join(base, 'index.ts')])
    if (existsSync(candidate) && statSync(candidate).isFile()) return candidate;
  return undefined;
}

/** Every cycle found by a depth-first walk, each as the chain of files that closes it. */
function importsOf(files: string[]): Map<string, string[]> {
  return new Map(
    files.map((f) => [
      f,
      ts
        .preProcessFile(readFileSync(f, 'utf8'), true, true)
        .importedFiles.map((i) => resolve(f, i.fileName))
        .filter((t): t is string => t !== undefined),
    ]),
  );
}

function cycles(edges: Map<string, string[]>): string[][] {
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const found: string[][] = [];
  const visit = (f: string) => {
    state.set(f, 'open');
    stack.push(f);
    for (const t of edges.get(f) ?? []) {
      if (state.get(t) === 'open') found.push([...stack.slice(stack.indexOf(t)), t].map((p) => path.relative(ROOT, p)));
      else if (!state.has(t)) visit(t);
    }
    stack.pop();
    state.set(f, 'done');
  };
  for (const f of edges.keys()) if (!state.has(f)) visit(f);
  return found;
}

test('the walk finds a cycle when there is one, and resolves relative imports to files', () => {
  const [a, b, c] = ['a', 'b', 'c'].map((n) => path.join(ROOT, `${n}.ts`));
  assert.deepEqual(
    cycles(
      new Map([
        [a, [b]],
        [b, [c]],
        [c, [a]],
      ]),
    ),
    [['a.ts', 'b.ts', 'c.ts', 'a.ts']],
  );
  assert.deepEqual(
    cycles(
      new Map([
        [a, [b, c]],
        [b, [c]],
        [c, []],
      ]),
    ),
    [],
  );
  const mask = path.join(ROOT, 'src', 'core', 'output', 'mask.ts');
  assert.deepEqual(
    ts.preProcessFile("import { x } from './mask';", true, true).importedFiles.map((i) => resolve(mask, i.fileName)),
    [mask],
  );
});

test('no module of the product imports itself back through others', () => {
  const files = [...sources(path.join(ROOT, 'src')), ...sources(path.join(ROOT, 'webview-ui'))];
  assert.ok(files.length > 50, 'the sources were found');
  assert.deepEqual(cycles(importsOf(files)), []);
});
