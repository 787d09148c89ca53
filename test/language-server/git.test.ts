// card-data-in-git in the editor, over stdio: a batch with a real card number in a git work tree gets the
// warning on its first card cell, with "Add to .gitignore" when git does not track it yet; the command
// adds one line to the work tree's .gitignore and the warning goes. A tracked file gets the warning with
// no such fix; a file outside any work tree never gets it.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { CodeAction, Diagnostic } from 'vscode-languageserver-protocol';
import { CLI, LANGUAGE_ID, TestClient } from './client';
import { PROCESS_MS } from '../fixtures/deadlines';

const REAL = '4539578763621486';
const TEXT = `client-orderid;rp_card_type;credit-card-number;currency;amount\nA1;DST;4111111111111111;EUR;1.00\nA2;DST;${REAL};EUR;1.00\n`;
const codes = (ds: Diagnostic[]) => ds.map((d) => String(d.code));
const text = (d: Diagnostic) => (typeof d.message === 'string' ? d.message : d.message.value);

describe('card-data-in-git over LSP', { timeout: PROCESS_MS }, () => {
  let client: TestClient;
  let dir: string;
  const git = (...args: string[]) => execFileSync('git', args, { cwd: path.join(dir, 'repo'), stdio: 'pipe' });

  before(async () => {
    assert.ok(existsSync(CLI), `${CLI} is built (npm run build)`);
    dir = mkdtempSync(path.join(tmpdir(), 'paygate-lsp-git-'));
    mkdirSync(path.join(dir, 'repo', 'batches'), { recursive: true });
    mkdirSync(path.join(dir, 'outside'));
    git('init', '-q');
    for (const f of ['batches/new.rpcsv', 'tracked.rpcsv']) writeFileSync(path.join(dir, 'repo', f), TEXT);
    writeFileSync(path.join(dir, 'outside', 'plain.rpcsv'), TEXT);
    git('add', 'tracked.rpcsv');
    client = new TestClient();
    await client.initialize({ textDocument: { codeAction: { codeActionLiteralSupport: { codeActionKind: { valueSet: ['quickfix'] } } } } });
  });
  after(async () => {
    await client.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  const open = (file: string) => {
    const uri = pathToFileURL(file).href;
    void client.connection.sendNotification('textDocument/didOpen', {
      textDocument: { uri, languageId: LANGUAGE_ID, version: 1, text: TEXT },
    });
    return uri;
  };

  it('an untracked, unignored batch: the warning on the first real card, and Add to .gitignore fixes it', async () => {
    const file = path.join(dir, 'repo', 'batches', 'new.rpcsv');
    const uri = open(file);
    const published = await client.diagnostics(uri, 'card-data-in-git', (p) => codes(p.diagnostics).includes('card-data-in-git'));
    const warning = published.diagnostics.find((d) => d.code === 'card-data-in-git')!;
    assert.deepEqual(warning.range, { start: { line: 2, character: 7 }, end: { line: 2, character: 7 + REAL.length } });
    assert.doesNotMatch(text(warning), new RegExp(REAL));

    const actions = (await client.connection.sendRequest('textDocument/codeAction', {
      textDocument: { uri },
      range: warning.range,
      context: { diagnostics: [warning] },
    })) as CodeAction[];
    const add = actions.find((a) => a.title === 'Add new.rpcsv to .gitignore');
    assert.ok(add?.command, `offered: ${actions.map((a) => a.title).join(', ')}`);
    // The cursor on the warning while the editor's marker has not caught up (issue 42): the request carries
    // no diagnostic, and the warning is found from what the server publishes now, as the lint's are.
    const bare = (await client.connection.sendRequest('textDocument/codeAction', {
      textDocument: { uri },
      range: { start: warning.range.start, end: warning.range.start },
      context: { diagnostics: [] },
    })) as CodeAction[];
    assert.ok(
      bare.some((a) => a.title === 'Add new.rpcsv to .gitignore'),
      `offered with no diagnostic handed: ${bare.map((a) => a.title).join(', ')}`,
    );
    assert.ok(!actions.some((a) => /mask/i.test(a.title)), 'no fix that would destroy the batch');
    await client.connection.sendRequest('workspace/executeCommand', { command: add.command.command, arguments: add.command.arguments });

    assert.equal(readFileSync(path.join(dir, 'repo', '.gitignore'), 'utf8'), '/batches/new.rpcsv\n');
    await client.diagnostics(uri, 'the warning gone', (p) => !codes(p.diagnostics).includes('card-data-in-git'));
    assert.equal(
      execFileSync('git', ['check-ignore', 'batches/new.rpcsv'], { cwd: path.join(dir, 'repo') })
        .toString()
        .trim(),
      'batches/new.rpcsv',
    );
  });

  it('a tracked batch: the warning says how to remove it from history, and no .gitignore fix is offered', async () => {
    const uri = open(path.join(dir, 'repo', 'tracked.rpcsv'));
    const published = await client.diagnostics(uri, 'card-data-in-git', (p) => codes(p.diagnostics).includes('card-data-in-git'));
    const warning = published.diagnostics.find((d) => d.code === 'card-data-in-git')!;
    assert.match(text(warning), /git rm --cached tracked\.rpcsv/);
    const actions = (await client.connection.sendRequest('textDocument/codeAction', {
      textDocument: { uri },
      range: warning.range,
      context: { diagnostics: [warning] },
    })) as CodeAction[];
    assert.deepEqual(
      actions.filter((a) => /gitignore/.test(a.title)),
      [],
    );
  });

  it('a batch outside any work tree never gets it', async () => {
    const uri = open(path.join(dir, 'outside', 'plain.rpcsv'));
    await client.diagnostics(uri, 'first diagnostics', () => true);
    // Git is asked about each file in the order they were opened: once a later file in the work tree has
    // its warning, the file outside has had its answer too.
    writeFileSync(path.join(dir, 'repo', 'later.rpcsv'), TEXT);
    const later = open(path.join(dir, 'repo', 'later.rpcsv'));
    await client.diagnostics(later, 'card-data-in-git on the later file', (p) => codes(p.diagnostics).includes('card-data-in-git'));
    const outside = client.published.filter((p) => p.uri === uri);
    assert.ok(outside.length > 0);
    for (const p of outside) assert.ok(!codes(p.diagnostics).includes('card-data-in-git'));
  });
});
