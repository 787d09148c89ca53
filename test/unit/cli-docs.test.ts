import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { testContext } from '../fixtures/cli/context';
import { commandInfo } from '../../src/cli/parser';
import { paygate } from '../../src/cli/program';
import { COMMANDS } from '../../src/cli/registry';
import { OUTCOMES } from '../../src/core/gateway/outcomes';
import type { OutcomeName } from '../../src/core/gateway/outcome';
import { renderCliReference } from '../tools/cli-docs';

// The command-line reference and the outcome docs against the definitions they describe, in the unit suite
// (in process, no build): a new command, option or outcome without its docs fails here.

const root = join(__dirname, '..', '..');
const read = (file: string) => readFileSync(join(root, file), 'utf8');

/** The public options of each command, from the registry: scripts depend on them. */
const OPTIONS: Record<string, readonly string[]> = Object.fromEntries(COMMANDS.map((c) => [c.name, c.options]));

describe('docs/cli.md', () => {
  it('is the reference generated from the definitions (run npm run docs:cli)', async () => {
    assert.equal(read('docs/cli.md'), await renderCliReference());
  });
  it('names every command and every option', () => {
    const doc = read('docs/cli.md');
    for (const [name, options] of Object.entries(OPTIONS)) {
      const section = doc.split(`## \`paygate ${name}\``)[1]?.split('\n## ')[0];
      assert.ok(section, `docs/cli.md has a section for paygate ${name}`);
      for (const option of options) assert.match(section, new RegExp(`\\| \`(-\\w, )?${option}\\b`), `${name} ${option}`);
    }
  });
});

/** The outcomes a create can have: every row of the table but the report's. */
const CREATE = (Object.keys(OUTCOMES) as OutcomeName[]).filter((name) => name !== 'report');
/** The words of a text, with hyphens kept inside them (validation-error is one word, not error). */
const words = (text: string) => new Set(text.toLowerCase().split(/[^a-z0-9-]+/));

describe('the outcome table in the docs and the exit codes of paygate submit', () => {
  it("docs/submissions.md's outcome table has a row for every create outcome and no other", () => {
    const doc = read('docs/submissions.md');
    const table = doc.split('## What each outcome means')[1].split('\n## ')[0];
    const rows = [...table.matchAll(/^\| `([a-z-]+)` \|/gm)].map((m) => m[1]);
    assert.deepEqual(rows.sort(), [...CREATE].sort());
  });

  it("docs/submissions.md's exit codes name every create outcome on the row of its exit code", () => {
    const doc = read('docs/submissions.md');
    const table = doc.split('## Exit codes of `paygate submit`')[1].split('\n## ')[0];
    const row = (code: number) => new RegExp(`^\\| ${code} \\| (.*) \\|$`, 'm').exec(table)?.[1] ?? '';
    for (const name of CREATE) {
      const exit = OUTCOMES[name].exit;
      assert.ok(row(exit).includes(`\`${name}\``), `exit ${exit}'s row should name \`${name}\`: ${row(exit)}`);
    }
  });

  it("paygate submit's exit status list names every create outcome at its exit code (docs/cli.md and --help read it)", async () => {
    const program = await paygate(testContext());
    const submit = program.commands.find((c) => c.name() === 'submit');
    const info = submit && commandInfo(submit);
    assert.ok(info);
    for (const name of CREATE) {
      const exit = OUTCOMES[name].exit;
      const meaning = info.exits.find(([code]) => code === exit)?.[1] ?? '';
      assert.ok(words(meaning).has(name), `paygate submit's exit ${exit} should name ${name}: ${meaning}`);
    }
  });
});
