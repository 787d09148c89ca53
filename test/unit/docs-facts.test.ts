// Issue 30's list 5: statements in README and docs/ that were tried and found wrong. Each test reads the
// document and checks it against the product's own source of the fact (package.json, the exit codes,
// the local gateway's admin paths), so the document cannot drift back.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { EXIT } from '../../src/core/gateway/outcomes';

const root = join(__dirname, '..', '..');
const read = (file: string) => readFileSync(join(root, file), 'utf8');
const manifest = JSON.parse(read('package.json')) as {
  repository: { url: string };
  contributes: { configuration: { properties: Record<string, unknown> }[] };
};

/** The lines of a document's section, from its heading to the next heading of the same or a higher level. */
function section(text: string, heading: string): string {
  const lines = text.split('\n');
  const start = lines.findIndex((l) => l.trim() === heading);
  assert.ok(start >= 0, `no heading "${heading}"`);
  const level = /^#+/.exec(heading)?.[0].length ?? 1;
  const end = lines.findIndex((l, i) => i > start && /^#+ /.test(l) && (/^#+/.exec(l)?.[0].length ?? 9) <= level);
  return lines.slice(start, end < 0 ? undefined : end).join('\n');
}

test("docs/results-table.md does not tell a PDF to come from --format pdf (the template's reportFormat decides)", () => {
  const text = read('docs/results-table.md').replace(/\s+/g, ' ');
  assert.doesNotMatch(text, /--format pdf/);
  assert.match(text, /reportFormat/);
});

test('docs/editor.md: its settings table lists every setting package.json contributes, paygate.ledger.directory among them', () => {
  const table = section(read('docs/editor.md'), '## Settings');
  const settings = manifest.contributes.configuration.flatMap((c) => Object.keys(c.properties));
  assert.ok(settings.includes('paygate.ledger.directory'));
  const missing = settings.filter((s) => !table.includes(`| \`${s}\` |`));
  assert.deepEqual(missing, []);
});

test("docs/editor.md: the editor's submission history is the ledger shared with the CLI, not one kept apart", () => {
  const history = section(read('docs/editor.md'), '## Submission history').replace(/\s+/g, ' ');
  assert.match(history, /one submission ledger the `paygate` CLI writes too/);
  assert.doesNotMatch(history, /(kept|keeps) (apart|separate)|its own (ledger|history)/i);
});

test("docs/cli.md's shared exit table: 4 is nothing sent, 5 is fate unknown, as the commands exit", () => {
  const rows = new Map(
    [...section(read('docs/cli.md'), '## Usage errors and exit status').matchAll(/^\| (\d) \| (.*) \|$/gm)].map((m) => [
      Number(m[1]),
      m[2],
    ]),
  );
  assert.match(rows.get(EXIT.unknown) ?? '', /fate unknown/);
  assert.doesNotMatch(rows.get(EXIT.transport) ?? '', /unknown/);
});

test('`paygate callbacks send` is documented without an ID (it takes none)', () => {
  const send = section(read('docs/cli.md'), '## `paygate callbacks send`');
  assert.doesNotMatch(send, /unknown ID/i);
  assert.match(send, /not on this machine/);
  const prose = read('docs/callbacks.md').replace(/\s+/g, ' ');
  assert.doesNotMatch(prose, /usage error \(unknown id, a target/);
});

test("docs/ and README use the local gateway's current admin path (/_local/...), never the old /_sim/advance", () => {
  for (const file of ['README.md', 'docs/reconcile.md', 'docs/gateway.md', 'docs/callbacks.md', 'docs/submissions.md']) {
    assert.doesNotMatch(read(file), /\/_sim\//, file);
  }
  assert.match(read('docs/reconcile.md'), /\/_local\/advance/);
});

test("README's clone line is package.json's repository URL, not a placeholder", () => {
  const url = manifest.repository.url.replace(/^git\+/, '').replace(/\.git$/, '');
  const clone = /^git clone (\S+)/m.exec(read('README.md'));
  assert.ok(clone, 'README has a git clone line');
  assert.equal(clone[1].replace(/\.git$/, ''), url);
});
