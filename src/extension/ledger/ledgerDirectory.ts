import * as os from 'node:os';
import * as vscode from 'vscode';
import { ledgerDirectory } from '../../core/ledger/location';
import { parseLedgerUrl } from '../../core/ledger/team/url';

// Where the editor's ledger is: the team ledger when the machine setting `paygate.ledger.url` names one
// (never the file ledger instead), else the file ledger in the CLI's default folder (the user's data
// directory) unless the machine setting `paygate.ledger.directory` moves it. Read by the Submissions view,
// submit, and the language client (which tells the language server, for already-sent), so all name the
// same store. Machine settings: a workspace cannot point them elsewhere.

export const LEDGER_DIRECTORY_SETTING = 'ledger.directory';
export const LEDGER_URL_SETTING = 'ledger.url';

export function configuredLedgerDirectory(): string {
  const configured = vscode.workspace.getConfiguration('paygate').get<string>(LEDGER_DIRECTORY_SETTING);
  return ledgerDirectory(configured, { base: process.cwd(), env: process.env, home: os.homedir() });
}

/**
 * The team ledger's URL from `paygate.ledger.url`: undefined when empty (the file ledger), else the URL
 * or why it is not one (then nothing is sent: the setting names a team ledger, and no other store stands in).
 */
export function teamLedgerSetting(): { ok: true; url: URL } | { ok: false; message: string } | undefined {
  const text = vscode.workspace.getConfiguration('paygate').get<string>(LEDGER_URL_SETTING)?.trim();
  if (!text) return undefined;
  const parsed = parseLedgerUrl(text);
  if (!parsed.ok) return { ok: false, message: `the setting "paygate.${LEDGER_URL_SETTING}": ${parsed.message}` };
  // Settings are not for secrets (they sync, and show on screen): the password goes to secret storage.
  if (parsed.url.password !== '')
    return {
      ok: false,
      message: `the setting "paygate.${LEDGER_URL_SETTING}" holds a password: remove it from the URL and run "PayGate: Set Team Ledger Password…"`,
    };
  return parsed;
}

/** Whether a configuration change moves the ledger (either setting). */
export function affectsLedger(e: vscode.ConfigurationChangeEvent): boolean {
  return e.affectsConfiguration(`paygate.${LEDGER_DIRECTORY_SETTING}`) || e.affectsConfiguration(`paygate.${LEDGER_URL_SETTING}`);
}
