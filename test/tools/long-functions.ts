import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';

// `node --import tsx test/tools/long-functions.ts [LIMIT]`: the functions in src/ and webview-ui/ longer than
// LIMIT lines (80 by default), longest first: the habit is a function that reads as a short list of named
// steps (CONTRIBUTING.md, "Habits"). A function's lines run from its first line to its closing brace;
// a nested function counts in its own right and in its parent's.

const root = join(__dirname, '..', '..');
const limit = Number(process.argv[2] ?? 80);

function* files(dir: string): Generator<string> {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, e.name);
    if (e.isDirectory()) yield* files(path);
    else if (/\.tsx?$/.test(e.name) && !e.name.endsWith('.d.ts')) yield path;
  }
}

function nameOf(node: ts.Node): string {
  if ((ts.isFunctionDeclaration(node) || ts.isMethodDeclaration(node)) && node.name) return node.name.getText();
  if (ts.isConstructorDeclaration(node)) return 'constructor';
  const parent = node.parent;
  if (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent) || ts.isPropertyDeclaration(parent)) return parent.name.getText();
  if (ts.isCallExpression(parent)) return `(callback of ${parent.expression.getText().slice(0, 40)})`;
  return '(anonymous)';
}

export function longFunctions(max: number): { file: string; name: string; lines: number }[] {
  const found: { file: string; name: string; lines: number }[] = [];
  for (const top of ['src', 'webview-ui'])
    for (const file of files(join(root, top))) {
      const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
      const visit = (node: ts.Node) => {
        if (ts.isFunctionLike(node) && 'body' in node && node.body) {
          const first = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
          const last = source.getLineAndCharacterOfPosition(node.getEnd()).line;
          if (last - first + 1 > max) found.push({ file: relative(root, file), name: nameOf(node), lines: last - first + 1 });
        }
        ts.forEachChild(node, visit);
      };
      visit(source);
    }
  return found.sort((a, b) => b.lines - a.lines);
}

if (require.main === module) {
  const found = longFunctions(limit);
  for (const f of found) console.log(`${String(f.lines).padStart(4)}  ${f.file}  ${f.name}`);
  console.log(`${found.length} function(s) over ${limit} lines`);
}
