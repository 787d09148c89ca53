import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

// Start-up: the extension loads when something of it is used, never for a folder. VS Code (1.74+) infers
// onCommand, onView and, for a language entry that has both `id` and `configuration`, onLanguage from the
// contributions (read in VS Code 1.100's workbench code); the manifest lists only what it cannot infer.

interface Manifest {
  activationEvents?: string[];
  contributes: {
    languages: { id: string; configuration?: string }[];
    commands: { command: string }[];
    views: Record<string, { id: string }[]>;
    menus?: Record<string, { command: string; when?: string }[]>;
  };
}

const manifest = JSON.parse(readFileSync(join(__dirname, '..', '..', 'package.json'), 'utf8')) as Manifest;
const events = manifest.activationEvents ?? [];

test('no start-up activation: no workspace glob scan, no "*", no onStartupFinished', () => {
  const eager = events.filter((e) => e === '*' || e === 'onStartupFinished' || e.startsWith('workspaceContains:'));
  assert.deepEqual(eager, []);
});

test('no activation event that VS Code already infers from the contributions', () => {
  const c = manifest.contributes;
  const inferred = new Set([
    ...c.languages.filter((l) => l.configuration).map((l) => `onLanguage:${l.id}`),
    ...c.commands.map((x) => `onCommand:${x.command}`),
    ...Object.values(c.views)
      .flat()
      .map((v) => `onView:${v.id}`),
  ]);
  assert.deepEqual(
    events.filter((e) => inferred.has(e)),
    [],
  );
});

test('every contributed language is one VS Code activates us for (it has a configuration, or is listed)', () => {
  const missing = manifest.contributes.languages.filter((l) => !l.configuration && !events.includes(`onLanguage:${l.id}`)).map((l) => l.id);
  assert.deepEqual(missing, []);
});

// The palette offers every command from the first keystroke: a `when` there can only be evaluated with
// context keys, and ours are set when the extension activates, so an entry could hide a command exactly
// in the seconds after a window opens. Each command checks its own preconditions and says what is missing.
test('every command is in the Command Palette with no `when` clause (activation is on the command itself)', () => {
  const palette = manifest.contributes.menus?.commandPalette ?? [];
  assert.deepEqual(
    palette.filter((m) => m.when !== undefined).map((m) => `${m.command} when ${m.when}`),
    [],
  );
  assert.ok(manifest.contributes.commands.length > 0);
  const listed = events.filter((e) => e.startsWith('onCommand:'));
  assert.deepEqual(listed, [], 'onCommand is inferred from contributes.commands');
});
