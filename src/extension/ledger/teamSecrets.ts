import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { KEY_FILE_ENV, teamKeyOf, type TeamKey } from '../../core/ledger/team/key';
import { redactedUrl } from '../../core/ledger/team/url';
import { log } from '../log';
import { ask, showError, showInfo } from '../say';
import { LEDGER_URL_SETTING, teamLedgerSetting } from './ledgerDirectory';
import { said, typed } from '../../core/output';

// The team ledger's two secrets in the editor: the database password (per role and ledger) and the team
// key (per ledger), both in the editor's secret storage only, never in settings, logs or messages. The key
// comes in once: from $PAYGATE_LEDGER_KEY_FILE when the editor was started with it, or from a file the
// person picks ("PayGate: Import Team Ledger Key…"); after that the file is not read again.

export const SET_PASSWORD_COMMAND = 'paygate.ledger.setPassword';
export const IMPORT_KEY_COMMAND = 'paygate.ledger.importKey';

/** Where the team key came from, as messages name it (never its content). */
export const KEY_IN_SECRETS = "the team key in the editor's secret storage";

const passwordKey = (url: URL) => `paygate.ledger.password:${redactedUrl(url)}`;
/** One key per ledger (host, port, database), whichever role signs in. */
const teamKeyKey = (url: URL) => `paygate.ledger.teamKey:${url.host}${url.pathname}`;

/** What the team ledger of `url` needs from secret storage: the password (absent: the URL's, PGPASSWORD or ~/.pgpass) and the key. */
export interface TeamAccess {
  password?: string;
  key?: TeamKey;
  /** The key as stored (hex), for the language server the editor started. */
  keyHex?: string;
  /** Why there is no key, and what to do. */
  keyProblem?: string;
}

export async function teamAccess(secrets: vscode.SecretStorage, url: URL, env: NodeJS.ProcessEnv = process.env): Promise<TeamAccess> {
  const password = (await secrets.get(passwordKey(url))) || undefined;
  let hex = await secrets.get(teamKeyKey(url));
  // Once: the key file the editor was started with goes into secret storage.
  const file = env[KEY_FILE_ENV];
  if (!hex && file) {
    const imported = await importKeyFile(secrets, url, file);
    if (imported.ok) {
      log().info(said`Team ledger: the team key of ${typed.text(KEY_FILE_ENV)} was imported into the editor's secret storage`);
      hex = await secrets.get(teamKeyKey(url));
    } else return { ...(password ? { password } : {}), keyProblem: `${imported.message} (${KEY_FILE_ENV})` };
  }
  const key = hex ? teamKeyOf(hex, KEY_IN_SECRETS) : undefined;
  return {
    ...(password ? { password } : {}),
    ...(key?.ok ? { key: key.key, keyHex: hex!.trim() } : {}),
    keyProblem:
      key && !key.ok
        ? key.message
        : `no team key in the editor: run "PayGate: Import Team Ledger Key…" with the file 'paygate ledger init' wrote`,
  };
}

async function importKeyFile(
  secrets: vscode.SecretStorage,
  url: URL,
  file: string,
): Promise<{ ok: true } | { ok: false; message: string }> {
  let text: string;
  try {
    text = await fs.readFile(path.resolve(file), 'utf8');
  } catch (err) {
    return { ok: false, message: `cannot read the team key ${file} (${(err as NodeJS.ErrnoException).code ?? String(err)})` };
  }
  const key = teamKeyOf(text, file);
  if (!key.ok) return key;
  await secrets.store(teamKeyKey(url), text.trim());
  return { ok: true };
}

/** The configured team ledger's URL, or a message naming the setting when there is none or it is not one. */
function configuredUrl(): { ok: true; url: URL } | { ok: false; message: string } {
  const setting = teamLedgerSetting();
  if (setting === undefined)
    return { ok: false, message: `no team ledger is set: set "paygate.${LEDGER_URL_SETTING}" (postgres://ROLE@HOST:PORT/DATABASE) first` };
  return setting;
}

export type TeamSecretResult = { ok: true; ledger: string } | { ok: false; reason: string };

function told(result: TeamSecretResult, what: string): TeamSecretResult {
  if (result.ok) void showInfo(said`PayGate: ${typed.text(what)} stored for ${typed.text(result.ledger)}.`);
  else void showError(said`PayGate: ${typed.text(result.reason)}`);
  return result;
}

/** "PayGate: Set Team Ledger Password…": the database password of the setting's role, in secret storage. */
export async function setPasswordCommand(
  secrets: vscode.SecretStorage,
  args: { password?: string } = {},
): Promise<TeamSecretResult | undefined> {
  const url = configuredUrl();
  if (!url.ok) return told({ ok: false, reason: url.message }, 'Password');
  const ledger = `the team ledger ${redactedUrl(url.url)}`;
  const password =
    args.password ??
    (await ask({
      title: said`PayGate: password of ${typed.text(redactedUrl(url.url))}`,
      prompt: said`The database role's password, stored in the editor's secret storage, never in settings.`,
      password: true,
      ignoreFocusOut: true,
      validateInput: (v) => (v === '' ? said`The password cannot be empty` : undefined),
    }));
  if (password === undefined) return undefined;
  if (password === '') return told({ ok: false, reason: 'The password cannot be empty.' }, 'Password');
  await secrets.store(passwordKey(url.url), password);
  return told({ ok: true, ledger }, 'Password');
}

/** "PayGate: Import Team Ledger Key…": the key file `paygate ledger init` wrote, read once into secret storage. */
export async function importKeyCommand(
  secrets: vscode.SecretStorage,
  args: { file?: string | vscode.Uri } = {},
): Promise<TeamSecretResult | undefined> {
  const url = configuredUrl();
  if (!url.ok) return told({ ok: false, reason: url.message }, 'Team key');
  let file = typeof args.file === 'string' ? args.file : args.file?.fsPath;
  if (file === undefined) {
    const picked = await vscode.window.showOpenDialog({
      title: "PayGate: the team key file (the one the team ledger's init wrote)",
      canSelectMany: false,
      openLabel: 'Import Team Key',
    });
    if (!picked?.[0]) return undefined;
    file = picked[0].fsPath;
  }
  const done = await importKeyFile(secrets, url.url, file);
  return told(done.ok ? { ok: true, ledger: `the team ledger ${redactedUrl(url.url)}` } : { ok: false, reason: done.message }, 'Team key');
}
