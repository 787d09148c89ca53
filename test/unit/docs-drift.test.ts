import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CommandUnknownOpts } from '@commander-js/extra-typings';
import { testContext } from '../fixtures/cli/context';
import { paygate } from '../../src/cli/program';
import { SUITES } from '../tools/test-all';

// The claims in README.md, CONTRIBUTING.md and docs/ that drift when the code moves: npm scripts and
// suites, benches and their targets, CLI commands and flags, settings, editor commands and the paths the
// documents point at. Each is read from where it lives (package.json, the CLI's registry, test-all.ts, the
// README's target markers) and looked up in the documents, so a rename on either side fails here.

const root = join(__dirname, '..', '..');
const read = (file: string) => readFileSync(join(root, file), 'utf8');
const pkg = JSON.parse(read('package.json')) as {
  scripts: Record<string, string>;
  contributes: {
    commands: { command: string; title: string }[];
    configuration: { properties: Record<string, unknown> }[] | { properties: Record<string, unknown> };
    views: Record<string, { id: string }[]>;
  };
};
const DOCS = [
  'README.md',
  'CONTRIBUTING.md',
  ...readdirSync(join(root, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
];
const texts = new Map(DOCS.map((f) => [f, read(f)]));
const contributing = read('CONTRIBUTING.md');
const readme = read('README.md');

/** Every `code span` of a document (one line at most), with its line number. */
function codeSpans(text: string): { span: string; line: number }[] {
  const spans: { span: string; line: number }[] = [];
  text.split('\n').forEach((line, i) => {
    for (const m of line.matchAll(/`([^`\n]+)`/g)) spans.push({ span: m[1], line: i + 1 });
  });
  return spans;
}

/** A section of a markdown document: from its heading to the next heading of the same level or higher. */
function section(text: string, heading: string): string {
  const start = text.indexOf(`\n${heading}\n`);
  assert.ok(start >= 0, `the document has a "${heading}" section`);
  const level = /^#+/.exec(heading)![0];
  const rest = text.slice(start + heading.length + 2);
  const end = rest.search(new RegExp(`^#{1,${level.length}} `, 'm'));
  return end < 0 ? rest : rest.slice(0, end);
}

describe('docs: npm scripts and suites', () => {
  it('every `npm run X` a document names is a script in package.json', () => {
    for (const [file, text] of texts)
      for (const m of text.matchAll(/npm run ([a-z][\w:-]*[a-z])/g))
        assert.ok(m[1] in pkg.scripts, `${file}: npm run ${m[1]} is no script`);
  });

  it("every suite npm test runs, and every test:* script, has its row in CONTRIBUTING's Tests table", () => {
    const table = section(contributing, '## Tests');
    const suites = new Set([...SUITES, ...Object.keys(pkg.scripts).filter((s) => s.startsWith('test:'))]);
    for (const suite of suites)
      assert.match(table, new RegExp(`^\\| \`npm run ${suite}\` \\|`, 'm'), `CONTRIBUTING's Tests table lacks ${suite}`);
  });

  it('every test folder is in the layout CONTRIBUTING draws', () => {
    const layout = section(contributing, '## Layout');
    for (const dir of readdirSync(join(root, 'test'), { withFileTypes: true }).filter((d) => d.isDirectory()))
      assert.ok(layout.includes(`test/${dir.name}/`), `the layout lacks test/${dir.name}/`);
  });
});

describe('docs: benches', () => {
  const benchAll = pkg.scripts.bench;
  const performance = section(contributing, '## Performance');

  it('every bench script is described in CONTRIBUTING, and "not in npm run bench" is said only of those it leaves out', () => {
    for (const name of Object.keys(pkg.scripts).filter((s) => s.startsWith('bench:'))) {
      assert.ok(performance.includes(`npm run ${name}`), `CONTRIBUTING's Performance section lacks ${name}`);
      const inAll = benchAll.includes(`npm run ${name} `) || benchAll.endsWith(`npm run ${name}`);
      const saysOut = new RegExp(`\`npm run ${name}\`[^)]{0,40}not in \`npm run bench\``).test(performance);
      assert.equal(saysOut, !inAll, `${name} is ${inAll ? '' : 'not '}in npm run bench; CONTRIBUTING must say so`);
    }
  });

  it("every target CONTRIBUTING states (≤ N) is one a bench records in the README's target markers", () => {
    const recorded = [...readme.matchAll(/<!-- target (\{.*?\}) -->/g)].map((m) => (JSON.parse(m[1]) as { target: string }).target);
    const norm = (t: string) => t.replace(/(\d+(?:\.\d+)?)/, (n) => String(Number(n))).replace(/\s+/g, ' ');
    const known = new Set(recorded.map(norm));
    assert.ok(known.size > 0, 'the README records bench targets');
    for (const m of performance.matchAll(/≤ (\d+(?:\.\d+)?) ?(×|ms|MB|KB)/g)) {
      const stated = norm(`≤ ${m[1]}${m[2] === '×' ? '' : ' '}${m[2]}`);
      assert.ok(known.has(stated), `CONTRIBUTING states the target "${m[0]}", which no bench records (${[...known].join(', ')})`);
    }
  });
});

describe('docs: the command line', () => {
  /** A command's options with --help, by its path (`lint`, `callbacks replay`). */
  async function optionsByCommand(): Promise<Map<string, Set<string>>> {
    const byPath = new Map<string, Set<string>>();
    const walk = (cmd: CommandUnknownOpts, path: string) => {
      byPath.set(path, new Set(['--help', ...cmd.options.map((o) => o.long!).filter(Boolean)]));
      for (const sub of cmd.commands) walk(sub, path === '' ? sub.name() : `${path} ${sub.name()}`);
    };
    walk(await paygate(testContext()), '');
    byPath.get('')!.add('--version');
    byPath.set('help', new Set(['--help'])); // commander's own `paygate help <command>`
    return byPath;
  }

  it('every `paygate COMMAND … --flag` in the documents names a command and one of its flags', async () => {
    const options = await optionsByCommand();
    for (const [file, text] of texts)
      for (const { span, line } of codeSpans(text)) {
        const m = /^(?:npx )?paygate(?: (?<words>[a-z][a-z-]*(?: [a-z][a-z-]*)?))?(?<rest>.*)$/.exec(span);
        if (!m) continue;
        // The longest known command path the span starts with (`callbacks replay`, else `callbacks`).
        const words = (m.groups!.words ?? '').split(' ').filter(Boolean);
        const path = [words.join(' '), words[0] ?? ''].find((p) => options.has(p));
        if (path === undefined) {
          assert.fail(`${file}:${line}: \`${span}\` names no paygate command`);
        }
        for (const flag of span.matchAll(/(?<![\w-])(--[a-z][a-z-]*)/g))
          assert.ok(options.get(path)!.has(flag[1]), `${file}:${line}: \`${span}\`: paygate ${path} has no ${flag[1]}`);
      }
  });
});

describe('docs: the editor', () => {
  const editor = read('docs/editor.md');
  const configurations = Array.isArray(pkg.contributes.configuration) ? pkg.contributes.configuration : [pkg.contributes.configuration];
  const settings = configurations.flatMap((c) => Object.keys(c.properties));

  it('every setting is in the settings table of docs/editor.md and of the README', () => {
    for (const setting of settings) {
      assert.ok(editor.includes(`\`${setting}\``), `docs/editor.md lacks ${setting}`);
      assert.ok(readme.includes(`\`${setting}\``), `README lacks ${setting}`);
    }
  });

  it('every `paygate.x` a document names is a setting, a command or a view (or the prefix of some)', () => {
    const known = new Set([
      ...settings,
      ...pkg.contributes.commands.map((c) => c.command),
      ...Object.values(pkg.contributes.views).flatMap((vs) => vs.map((v) => v.id)),
    ]);
    for (const [file, text] of texts)
      for (const { span, line } of codeSpans(text))
        for (const m of span.matchAll(/(?<![\w./])paygate\.[a-zA-Z]+(?:\.[a-zA-Z]+)*(?![\w.:-])/g)) {
          if (/^paygate\.(config|report|local)\b/.test(m[0])) continue; // file names: paygate.config.json, *.paygate.report.json
          const name = m[0];
          assert.ok(
            known.has(name) || [...known].some((k) => k.startsWith(`${name}.`)),
            `${file}:${line}: \`${span}\`: ${name} is no setting, command or view`,
          );
        }
  });

  it('every contributed command has its row in the commands table of docs/editor.md', () => {
    const missing = pkg.contributes.commands.filter(({ title }) => !editor.includes(title)).map((c) => c.title);
    assert.deepEqual(missing, [], 'docs/editor.md lacks these commands');
  });
});

describe('docs: paths', () => {
  it('every path a document names under the repository exists', () => {
    const tops = /^(src|test|webview-ui|docs|examples|schemas|media|syntaxes|\.ci)\//;
    for (const [file, text] of texts)
      for (const { span, line } of codeSpans(text)) {
        const path = span.split(/[\s(:#]/)[0].replace(/[.,;]$/, '');
        if (!tops.test(path) || /[*<>…{}]|NAME|\.\.\./.test(path)) continue;
        assert.ok(existsSync(join(root, path)), `${file}:${line}: \`${span}\`: ${path} does not exist`);
      }
  });
});
