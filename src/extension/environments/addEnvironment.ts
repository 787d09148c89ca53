import * as vscode from 'vscode';
import { ENVIRONMENT_SNIPPET, environmentInsertion } from './settingsInsert';
import { showInfo } from '../say';
import { said } from '../../core/output';

// "Add environment…": opens the user settings JSON and inserts an entry of `paygate.environments` as a
// snippet (tab from field to field), so nobody has to know the setting's shape. Settings JSON rather
// than the settings editor because an array of objects can only be edited there.

export async function addEnvironmentCommand(): Promise<{ inserted: boolean; uri?: vscode.Uri }> {
  await vscode.commands.executeCommand('workbench.action.openSettingsJson');
  const editor = vscode.window.activeTextEditor;
  const where = editor ? environmentInsertion(editor.document.getText()) : undefined;
  if (!editor || !where) {
    // Not a settings JSON we can safely write into: show the setting instead.
    await vscode.commands.executeCommand('workbench.action.openSettings', 'paygate.environments');
    return { inserted: false };
  }
  const snippet = new vscode.SnippetString();
  snippet.appendText(where.before);
  snippet.value += ENVIRONMENT_SNIPPET.replace(/^/gm, where.indent);
  snippet.appendText(where.after);
  const at = editor.document.positionAt(where.offset);
  const inserted = await editor.insertSnippet(snippet, at);
  if (inserted) {
    void showInfo(
      said`PayGate: fill in the new environment, then set its consumer secret (or RSA key) with "PayGate: Set Consumer Secret…"; secrets never go into settings.`,
    );
  }
  return { inserted, uri: editor.document.uri };
}
