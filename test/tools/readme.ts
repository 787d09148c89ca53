import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { renderCodeTable, renderColumnTable, replaceRegion } from '../../src/core/rules/docs';

// `npm run readme`: rewrites the README's generated parts: the rule tables (from the column and code
// tables) and what `paygate lint` says of the examples.
const root = join(__dirname, '..', '..');
const path = join(root, 'README.md');

function lintExamples(): string {
  const files = ['examples/valid.rpcsv', 'examples/mistakes.rpcsv'];
  let out: string;
  try {
    out = execFileSync(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', 'lint', ...files], { cwd: root, encoding: 'utf8' });
  } catch (err) {
    out = (err as { stdout: string }).stdout; // exit 1: the mistakes file has errors, as it should
  }
  return ['```console', `$ paygate lint ${files.join(' ')}`, out.trimEnd(), '```'].join('\n');
}

let text = readFileSync(path, 'utf8');
for (const [name, body] of [
  ['rules:columns', renderColumnTable()],
  ['rules:codes', renderCodeTable()],
  ['examples:lint', lintExamples()],
] as const) {
  const next = replaceRegion(text, name, body);
  if (next === undefined) throw new Error(`README.md lacks the <!-- ${name}:start/end --> markers`);
  text = next;
}
writeFileSync(path, text);
console.log('README.md: rule tables and example output regenerated');
