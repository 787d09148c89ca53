import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';

const EXTENSION_ID = 'paygate.paygate-toolkit';

interface Manifest {
  contributes?: {
    commands?: { command: string; title: string; category?: string }[];
    views?: Record<string, { id: string }[]>;
    viewsContainers?: Record<string, { id: string }[]>;
  };
}

async function activeExtension(): Promise<vscode.Extension<unknown>> {
  const ext = vscode.extensions.getExtension(EXTENSION_ID);
  assert.ok(ext, `extension ${EXTENSION_ID} is not installed in this editor`);
  // Activation events may not cover a bare window yet; activating by hand keeps this suite independent of them.
  await ext.activate();
  return ext;
}

// VS Code registers `<viewId>.focus`, `<viewId>.resetViewLocation`… for every contributed view. They are
// the workbench's, not ours, so they are not expected in contributes.commands.
function workbenchGenerated(manifest: Manifest, command: string): boolean {
  const ids = [
    ...Object.values(manifest.contributes?.views ?? {}).flat(),
    ...Object.values(manifest.contributes?.viewsContainers ?? {}).flat(),
  ].map((v) => v.id);
  return ids.some((id) => command.startsWith(`${id}.`));
}

describe('extension', () => {
  it('is installed and activates', async () => {
    const ext = await activeExtension();
    assert.equal(ext.isActive, true);
    assert.equal((ext.packageJSON as { name: string }).name, 'paygate-toolkit');
  });
});

describe('commands: declared vs registered', () => {
  let manifest: Manifest;
  let registered: Set<string>;

  before(async () => {
    const ext = await activeExtension();
    manifest = ext.packageJSON as Manifest;
    registered = new Set(await vscode.commands.getCommands(true));
  });

  it('every declared command is registered', () => {
    const declared = (manifest.contributes?.commands ?? []).map((c) => c.command);
    const missing = declared.filter((c) => !registered.has(c));
    assert.deepEqual(missing, [], `declared in package.json but never registered: ${missing.join(', ')}`);
  });

  it('every registered paygate.* command is declared', () => {
    const declared = new Set((manifest.contributes?.commands ?? []).map((c) => c.command));
    const undeclared = [...registered]
      .filter((c) => c.startsWith('paygate.') && !declared.has(c) && !workbenchGenerated(manifest, c))
      .sort();
    assert.deepEqual(
      undeclared,
      [],
      `registered but not in contributes.commands (declare them; hide internal ones with menus.commandPalette "when": "false"): ${undeclared.join(', ')}`,
    );
  });

  it('declared commands use the paygate. prefix, the PayGate category and a title', () => {
    const bad = (manifest.contributes?.commands ?? []).filter(
      (c) => !c.command.startsWith('paygate.') || c.category !== 'PayGate' || !c.title,
    );
    assert.deepEqual(bad, []);
  });
});
