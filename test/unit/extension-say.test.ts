import { test } from 'node:test';
import assert from 'node:assert/strict';
import Module from 'node:module';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type * as Say from '../../src/extension/say';
import type * as Log from '../../src/extension/log';
import { brokenBatch, HOSTILE_TEXT, problemsIn } from '../fixtures/hostile/corpus';
import { said, saidText, typed, type Said } from '../../src/core/output';
import { fakeLogChannel } from '../fixtures/vscode/logChannel';

// The editor's faces of the output boundary: every message (src/extension/say.ts), every line of the one
// log (src/extension/log.ts) and every page message (webviewPage.ts) is masked and escaped, against a
// fake of the parts of the vscode API they use; and no other file of the extension calls vscode.window's
// own messages or pick lists (showPick) or makes another output channel (ESLint refuses it too; this says which file).

const shown: { kind: string; message: string; rest: unknown[] }[] = [];
const logged: string[] = [];
const channel = fakeLogChannel((m, t) => logged.push(`${m}: ${t}`));
const fakeVscode = {
  window: {
    showErrorMessage: (message: string, ...rest: unknown[]) => (shown.push({ kind: 'error', message, rest }), Promise.resolve(undefined)),
    showWarningMessage: (message: string, ...rest: unknown[]) => (
      shown.push({ kind: 'warning', message, rest }),
      Promise.resolve(undefined)
    ),
    showInformationMessage: (message: string, ...rest: unknown[]) => (
      shown.push({ kind: 'info', message, rest }),
      Promise.resolve(undefined)
    ),
    createOutputChannel: () => channel,
  },
};

const resolve = (Module as unknown as { _resolveFilename: (r: string, ...rest: unknown[]) => string })._resolveFilename;
(Module as unknown as { _resolveFilename: unknown })._resolveFilename = function (request: string, ...rest: unknown[]) {
  return request === 'vscode' ? 'vscode' : resolve.apply(this, [request, ...rest]);
};
require.cache.vscode = { id: 'vscode', filename: 'vscode', loaded: true, exports: fakeVscode } as unknown as NodeJS.Module;
/* eslint-disable @typescript-eslint/no-require-imports -- after the fake is in place */
const { showError, showWarning, showInfo } = require('../../src/extension/say') as typeof Say;
const { createLog, log, logChannel } = require('../../src/extension/log') as typeof Log;
/* eslint-enable @typescript-eslint/no-require-imports */

/** A message, a log line or a page's words may keep line breaks (a modal's paragraphs, a stack): they are one box, not a terminal. */
const safe = (text: string, where: string) =>
  assert.deepEqual(
    problemsIn(text, 'text').filter((p) => !p.startsWith('a forged line')),
    [],
    `${where}: ${JSON.stringify(text)}`,
  );

test('messages: the text and a modal detail are masked and escaped; buttons come back', async () => {
  shown.length = 0;
  await showError(said`PayGate: ${typed.text(HOSTILE_TEXT)}`);
  await showWarning(said`x ${typed.text(HOSTILE_TEXT)}`, { modal: true, detail: said`File: ${typed.text(HOSTILE_TEXT)}` }, 'Send');
  // A plain string that reached the floor past the types (a cast, plain JavaScript) is still read whole.
  await showInfo(HOSTILE_TEXT as unknown as Said, { title: 'Open' });
  assert.equal(shown.length, 3);
  for (const s of shown) safe(s.message, s.kind);
  safe((shown[1].rest[0] as { detail: string }).detail, 'detail');
  assert.deepEqual(shown[1].rest.slice(1), ['Send']);
  assert.deepEqual(shown[2].rest, [{ title: 'Open' }]);
  assert.match(shown[0].message, /4111 11\*\* \*{4} 1111/);
});

test('the log: every level and append, strings and errors', () => {
  logged.length = 0;
  createLog({ subscriptions: [] } as never);
  const l = log();
  const hostile = said`${typed.text(HOSTILE_TEXT)}`;
  l.info(hostile);
  l.warn(said`w ${typed.text(HOSTILE_TEXT)}`, hostile);
  l.error(new Error(HOSTILE_TEXT));
  l.debug(HOSTILE_TEXT as unknown as Said); // a string past the types: read whole
  l.trace(hostile);
  // The channel as VS Code's type (the language client writes its own lines to it): read whole too.
  logChannel().appendLine(HOSTILE_TEXT);
  logChannel().append(HOSTILE_TEXT);
  assert.equal(logged.length, 7);
  for (const line of logged) safe(line, 'log');
});

test("a page's title and status line: Saids the page lays out (src/shared/said.ts), each value alone", () => {
  safe(saidText(said`Report: ${typed.text(HOSTILE_TEXT)}`), 'title');
  safe(saidText(said`Export failed: ${typed.text(brokenBatch())}`), 'message');
});

test("no other file of the extension shows vscode.window's messages, pick lists, input boxes or progress or makes an output channel", () => {
  const root = join(__dirname, '../../src/extension');
  const files: string[] = [];
  const walk = (d: string) => {
    for (const f of readdirSync(d)) {
      const p = join(d, f);
      if (statSync(p).isDirectory()) walk(p);
      else if (p.endsWith('.ts')) files.push(p);
    }
  };
  walk(root);
  const offenders = files.filter((f) => {
    if (f.endsWith('/say.ts') || f.endsWith('/log.ts')) return false;
    const text = readFileSync(f, 'utf8');
    return /\.show(Error|Warning|Information)Message\b|\.showQuickPick\b|\.(showInputBox|createInputBox|withProgress)\b|createOutputChannel/.test(
      text,
    );
  });
  assert.ok(files.length > 30);
  assert.deepEqual(offenders, []);
});
