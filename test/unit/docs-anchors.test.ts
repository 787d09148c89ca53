// Every link from README.md, CONTRIBUTING.md and docs/*.md to a heading or an anchor of one of them (or of
// itself) lands: the file exists and the anchor is one GitHub makes for a heading there, or an explicit
// <a id>. A renamed heading or a mistyped anchor fails here, in the unit suite.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { headingAnchors, links } from '../fixtures/markdown';

const root = join(__dirname, '..', '..');
const DOCS = ['README.md', 'CONTRIBUTING.md', ...readdirSync(join(root, 'docs')).map((f) => `docs/${f}`)].filter((f) => f.endsWith('.md'));

const anchorsOf = new Map<string, Set<string>>();
const anchors = (file: string) => {
  if (!anchorsOf.has(file)) anchorsOf.set(file, headingAnchors(readFileSync(join(root, file), 'utf8')));
  return anchorsOf.get(file)!;
};

describe('links to headings in the docs', () => {
  it('GitHub anchors are made as GitHub makes them', () => {
    const text = [
      '# Add a CLI subcommand',
      '## `npm start`: the extension in a real VS Code',
      '## What "done" means here',
      '## Exit codes of `paygate submit`',
      '## [Linked](x.md) and *stressed* and snake_case',
      '## Repeated',
      '## Repeated',
      '```',
      '# not a heading',
      '```',
      '<a id="explicit"></a>',
    ].join('\n');
    assert.deepEqual(
      [...headingAnchors(text)],
      [
        'add-a-cli-subcommand',
        'npm-start-the-extension-in-a-real-vs-code',
        'what-done-means-here',
        'exit-codes-of-paygate-submit',
        'linked-and-stressed-and-snake_case',
        'repeated',
        'repeated-1',
        'explicit',
      ],
    );
  });

  for (const file of DOCS) {
    it(`${file}: every link to an anchor of a document lands on one`, () => {
      const bad: string[] = [];
      for (const { line, target } of links(readFileSync(join(root, file), 'utf8'))) {
        if (/^[a-z][a-z+.-]*:/i.test(target)) continue; // https:, mailto:, vscode: …
        const [path, anchor] = target.split('#', 2);
        const to = path === '' ? file : relative(root, join(root, dirname(file), decodeURIComponent(path)));
        if (!existsSync(join(root, to))) {
          bad.push(`${file}:${line}: ${target}: no file ${to}`);
          continue;
        }
        if (anchor === undefined || !to.endsWith('.md')) continue;
        if (!anchors(to).has(decodeURIComponent(anchor)))
          bad.push(`${file}:${line}: ${target}: ${to} has no heading or anchor "${anchor}"`);
      }
      assert.deepEqual(bad, []);
    });
  }
});
