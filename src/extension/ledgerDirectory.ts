import * as os from 'node:os';
import * as vscode from 'vscode';
import { ledgerDirectory } from '../core/ledger/location';

// Where the editor's ledger is: the CLI's default (the user's data directory) unless the machine setting
// `paygate.ledger.directory` moves it. Read by the Submissions view and by the language client (which
// tells the language server, for already-sent), so both name the same folder.

export const LEDGER_DIRECTORY_SETTING = 'ledger.directory';

export function configuredLedgerDirectory(): string {
  const configured = vscode.workspace.getConfiguration('paygate').get<string>(LEDGER_DIRECTORY_SETTING);
  return ledgerDirectory(configured, { base: process.cwd(), env: process.env, home: os.homedir() });
}
