import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { renderCodeIndex, renderCodeTable, renderColumnTable, renderTestCards, replaceRegion } from './ruleDocs';
import { renderCommandTable } from './cli-docs';

// `npm run readme`: rewrites the documents' generated parts: in docs/rules.md the rule tables (from the
// column and code tables) and what `paygate lint` says of the examples; in README.md the code index and
// the command-line table (from src/cli/registry.ts).
const root = join(__dirname, '..', '..');

function lintExamples(): string {
  const files = ['examples/valid.rpcsv', 'examples/mistakes.rpcsv'];
  let out: string;
  try {
    // As on a machine that never sent anything: this developer's own ledger (already-sent) stays out of it.
    const env = { ...process.env, PAYGATE_DATA_DIR: join(tmpdir(), 'paygate-readme-no-ledger') };
    out = execFileSync(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', 'lint', ...files], { cwd: root, encoding: 'utf8', env });
  } catch (err) {
    out = (err as { stdout: string }).stdout; // exit 1: the mistakes file has errors, as it should
  }
  return ['```console', `$ paygate lint ${files.join(' ')}   # exit 1: mistakes.rpcsv has errors`, out.trimEnd(), '```'].join('\n');
}

function rewrite(file: string, regions: [string, string][]): void {
  const path = join(root, file);
  let text = readFileSync(path, 'utf8');
  for (const [name, body] of regions) {
    const next = replaceRegion(text, name, body);
    if (next === undefined) throw new Error(`${file} lacks the <!-- ${name}:start/end --> markers`);
    text = next;
  }
  writeFileSync(path, text);
  console.log(`${file}: ${regions.map(([name]) => name).join(', ')} regenerated`);
}

rewrite('docs/rules.md', [
  ['rules:columns', renderColumnTable()],
  ['rules:codes', renderCodeTable()],
  ['rules:test-cards', renderTestCards()],
  ['examples:lint', lintExamples()],
]);
rewrite('README.md', [
  ['rules:index', renderCodeIndex()],
  ['cli:commands', renderCommandTable()],
]);
