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
