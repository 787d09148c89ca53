import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ourWords, said, typed } from '../../src/core/output';
import { replaceCellFix } from '../../src/core/rules/fixes';
import { lint } from '../../src/core/rules/lint';
import { SafeFixList } from '../../src/core/rules/safeFixList';
import type { Fix } from '../../src/core/rules/types';
import { codeActions, offered, type OurAction } from '../../src/language-server/codeActions';
import { toDiagnostic } from '../../src/language-server/convert';
import { ADD_TO_GITIGNORE, GitGuard } from '../../src/language-server/gitGuard';

// Mask values, not layouts (issue 38), on the quick fixes' titles: a fix's title is our words and the value
// it would write by its type (a `Said`), and the language server lays every code action's title out once, where
// it leaves for the editor (`offered`), each part checked alone. A plain string does not compile where a title
// is made.

const EXAMPLES = join(__dirname, '..', '..', 'examples');

test('a title made as a plain string does not compile: a fix, a cell fix, fix-all’s list, a code action', () => {
  // @ts-expect-error a fix's title is a Said
  const fix: Fix = { title: 'Change to 01.01.2027', edits: [], safe: true };
  // @ts-expect-error the same for the cell fix's title
  const cell = () => replaceCellFix(undefined as never, undefined as never, 0, 'x', 'Change to x', true);
  // @ts-expect-error and for fix-all's compact list
  const add = () => new SafeFixList().addFix('invalid-value', 'Change to x', 0);
  // @ts-expect-error and for a code action of ours
  const action: OurAction = { title: 'Add x to .gitignore' };
  assert.ok(fix && action);
  assert.deepEqual([typeof cell, typeof add], ['function', 'function']);
});

test("the light bulb's titles of the examples' problems: the same words, each value by its type", () => {
  const text = readFileSync(join(EXAMPLES, 'mistakes.rpcsv'), 'utf8');
  const result = lint(text, { today: { year: 2026, month: 1, day: 1 } });
  const titles = new Set<string>();
  for (const d of result.diagnostics) {
    const params = { textDocument: { uri: 'file:///m.rpcsv' }, range: d.range, context: { diagnostics: [toDiagnostic(d)] } };
    for (const a of offered(
      codeActions({ uri: 'file:///m.rpcsv', version: 1, result, resolves: false }, params, params.context.diagnostics),
    ))
      titles.add(a.title);
  }
  for (const t of [
    'Rename column to notify_url',
    'Fix all 2 column-alias problems in the file',
    'Fix all safe PayGate problems in the file',
    'Clear address1',
    'Clear every DST-unsupported value in the file (4 cells)',
  ])
    assert.ok(titles.has(t), `${t} among ${[...titles].join(' | ')}`);
  // invalid-value's fix names the value it writes by its column's type: a date, a month (a count), a card type (text).
  const changes = result.diagnostics.filter((d) => d.code === 'invalid-value').flatMap((d) => d.fixes.map((f) => f.title));
  const kinds = Object.fromEntries(changes.map((t) => [(t.said[1] as readonly string[])[1], (t.said[1] as readonly string[])[0]]));
  assert.deepEqual(kinds, { '08': 'count', '15.01.2027': 'date', SRC: 'text' });
  assert.ok(changes.every((t) => t.said[0] === 'Change to '));
});

test('"Add FILE to .gitignore": a card number in the file\'s name is masked in the title and its command (it was sent whole)', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'paygate-fix-titles-'));
  try {
    execFileSync('git', ['init', '-q', dir], { stdio: 'pipe', timeout: 30_000 });
    const file = join(dir, '4111 1111 1111 1111.rpcsv');
    writeFileSync(file, readFileSync(join(EXAMPLES, 'valid.rpcsv')));
    const uri = pathToFileURL(file).toString();
    const guard = new GitGuard();
    assert.equal(await guard.refresh(uri), true, 'git would keep it');
    const [action] = offered(
      guard.actions(uri, [
        { code: 'card-data-in-git', message: 'x', range: { start: { line: 0, character: 0 }, end: { line: 0, character: 1 } } },
      ]),
    );
    assert.equal(action.title, 'Add 4111 11** **** 1111.rpcsv to .gitignore');
    assert.deepEqual(action.command, { title: action.title, command: ADD_TO_GITIGNORE, arguments: [uri] });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a title of our words alone, and one with a count, laid out as they read', () => {
  const [words, counted] = offered([
    { title: ourWords('Empty every cvv2 value (the column stays)') },
    { title: said`Move the ${typed.count(123)} already-sent ${ourWords('rows')} to a new file` },
  ]);
  assert.equal(words.title, 'Empty every cvv2 value (the column stays)');
  assert.equal(counted.title, 'Move the 123 already-sent rows to a new file');
});
