import * as vscode from 'vscode';
import { log } from '../log';
import type { FeatureHost } from '../lazy';
import type { ResultsPanelApi } from '../results/register';
import { CompareDocuments, compareWithLastSentCommand } from './compare';
import { EditorLedger } from './editorLedger';
import { importLegacyLedger } from './legacy';
import { importKeyCommand, IMPORT_KEY_COMMAND, setPasswordCommand, SET_PASSWORD_COMMAND } from './teamSecrets';
import { clearLedgerCommand, openSubmissionCommand, SHOW_OLDER_COMMAND, SubmissionsTree, SUBMISSIONS_VIEW } from './view';
import { said, typed } from '../../core/output';

// The Submissions view over the shared submission ledger.
export function registerLedger(context: vscode.ExtensionContext, results: ResultsPanelApi, host: FeatureHost): EditorLedger {
  const subs = context.subscriptions;
  const ledger = new EditorLedger(context.secrets);
  subs.push(ledger);
  log().info(said`Submission ledger: the ${typed.text(ledger.place)}`);
  // Records of the editor's former history file join the file ledger once, so the resend guard still knows them.
  const file = ledger.fileLedger;
  if (file)
    importLegacyLedger(context.globalStorageUri.fsPath, file).then(
      (n) =>
        n > 0 &&
        log().info(said`Submission ledger: ${typed.count(n)} earlier record(s) moved into the ledger ${typed.text(file.filePath)}`),
      (err: unknown) =>
        log().warn(said`Submission ledger: the editor's former submissions.json could not be imported: ${typed.text(String(err))}`),
    );
  const tree = new SubmissionsTree(ledger);
  subs.push(tree);
  // The view itself is registered at activation (extension.ts); it shows this tree from now on.
  host.tree(SUBMISSIONS_VIEW, tree);
  subs.push(
    vscode.commands.registerCommand('paygate.history.open', (arg) =>
      openSubmissionCommand(ledger, results, arg, (id) => tree.shownRecord(id)),
    ),
  );
  subs.push(vscode.commands.registerCommand(SHOW_OLDER_COMMAND, () => tree.showOlder()));
  subs.push(
    // The store opens again with what was stored before the command returns (the secrets' change event
    // reopens it too, for other windows, a moment later).
    vscode.commands.registerCommand(SET_PASSWORD_COMMAND, async (args?: { password?: string }) => {
      const done = await setPasswordCommand(context.secrets, args);
      ledger.reopen();
      return done;
    }),
    vscode.commands.registerCommand(IMPORT_KEY_COMMAND, async (args?: { file?: string | vscode.Uri }) => {
      const done = await importKeyCommand(context.secrets, args);
      ledger.reopen();
      return done;
    }),
  );
  subs.push(vscode.commands.registerCommand('paygate.history.clear', (arg) => clearLedgerCommand(ledger, arg)));
  const compared = new CompareDocuments();
  subs.push(
    compared,
    vscode.commands.registerCommand('paygate.compareWithLastSent', (...args: unknown[]) =>
      // eslint-disable-next-line no-restricted-syntax -- bounded: a command's arguments forwarded as they came
      compareWithLastSentCommand(ledger, compared, ...args),
    ),
  );
  return ledger;
}
