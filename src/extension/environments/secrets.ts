import * as fs from 'node:fs/promises';
import * as vscode from 'vscode';
import { LOCAL_ENVIRONMENT, type Environment } from '../../core/gateway/environments';
import { loadPrivateKey, type SigningCredentials } from '../../core/oauth';
import { configuredEnvironments } from './settings';
import { ask, showError, showInfo, showPick } from '../say';
import { said, typed } from '../../core/output';

// Credentials live in SecretStorage only (never settings, logs or history). Key names are the contract's,
// shared with nothing else but kept stable so a user's stored secrets survive upgrades.

export const secretKeys = {
  consumerSecret: (env: string) => `paygate.consumerSecret:${env}`,
  rsaPrivateKey: (env: string) => `paygate.rsaPrivateKey:${env}`,
  rsaPassphrase: (env: string) => `paygate.rsaPassphrase:${env}`,
};

export type Operation = 'create' | 'report';

export type CredentialsResult =
  { ok: true; credentials: SigningCredentials } | { ok: false; missing: 'consumer-secret' | 'consumer-secret-or-rsa-key'; message: string };

/**
 * The report operation states HMAC-SHA1. The create sample signs with RSA-SHA256, so a stored RSA key is
 * preferred for it; a consumer secret alone signs it with HMAC-SHA1.
 */
export async function storedCredentials(secrets: vscode.SecretStorage, env: Environment, operation: Operation): Promise<CredentialsResult> {
  if (operation === 'create') {
    const pem = await secrets.get(secretKeys.rsaPrivateKey(env.name));
    if (pem) {
      const passphrase = (await secrets.get(secretKeys.rsaPassphrase(env.name))) || undefined;
      return { ok: true, credentials: { signatureMethod: 'RSA-SHA256', consumerKey: env.consumerKey, privateKeyPem: pem, passphrase } };
    }
  }
  const consumerSecret = await secrets.get(secretKeys.consumerSecret(env.name));
  if (consumerSecret) return { ok: true, credentials: { signatureMethod: 'HMAC-SHA1', consumerKey: env.consumerKey, consumerSecret } };
  return operation === 'create'
    ? {
        ok: false,
        missing: 'consumer-secret-or-rsa-key',
        message: `No RSA private key or consumer secret is stored for "${env.name}". Run "PayGate: Set RSA Private Key…" or "PayGate: Set Consumer Secret…".`,
      }
    : {
        ok: false,
        missing: 'consumer-secret',
        message: `No consumer secret is stored for "${env.name}". Run "PayGate: Set Consumer Secret…".`,
      };
}

/** Arguments for automation and tests; without them the commands ask. */
export interface SetConsumerSecretArgs {
  environment?: string;
  secret?: string;
}

export interface SetRsaKeyArgs {
  environment?: string;
  /** A PEM file (Uri or path). */
  file?: vscode.Uri | string;
  /** Empty or absent: the key is not encrypted. */
  passphrase?: string;
}

export type SetSecretResult = { ok: true; environment: string } | { ok: false; reason: string };

async function pickEnvironment(given: string | undefined, purpose: string): Promise<string | undefined> {
  const names = configuredEnvironments().environments.map((e) => e.name);
  if (given !== undefined) return given;
  if (names.length === 0) {
    void showInfo(
      said`No environment to store a ${typed.text(purpose)} for: the built-in "local" gateway needs none. Add one to the "paygate.environments" setting first.`,
    );
    return undefined;
  }
  const items = names.map((name) => ({ label: said`${typed.text(name)}`, name }));
  return (await showPick(items, { placeHolder: said`Environment to store the ${typed.text(purpose)} for`, ignoreFocusOut: true }))?.name;
}

function refuseLocal(env: string): SetSecretResult | undefined {
  if (env === LOCAL_ENVIRONMENT) {
    return { ok: false, reason: 'The built-in "local" gateway uses its own demo merchant keys; it needs no stored secret.' };
  }
  if (!configuredEnvironments().environments.some((e) => e.name === env)) {
    return { ok: false, reason: `There is no environment named "${env}" in the "paygate.environments" setting.` };
  }
  return undefined;
}

function report(result: SetSecretResult, what: string): SetSecretResult {
  if (result.ok) void showInfo(said`PayGate: ${typed.text(what)} stored for "${typed.text(result.environment)}".`);
  else void showError(said`PayGate: ${typed.text(result.reason)}`);
  return result;
}

export async function setConsumerSecretCommand(
  secrets: vscode.SecretStorage,
  args: SetConsumerSecretArgs = {},
): Promise<SetSecretResult | undefined> {
  const env = await pickEnvironment(args.environment, 'consumer secret');
  if (env === undefined) return undefined;
  const refused = refuseLocal(env);
  if (refused) return report(refused, 'Consumer secret');
  const secret =
    args.secret ??
    (await ask({
      title: said`PayGate: consumer secret of "${typed.text(env)}"`,
      prompt: said`Stored in the editor's secret storage, never in settings.`,
      password: true,
      ignoreFocusOut: true,
      validateInput: (v) => (v.trim() === '' ? said`The consumer secret cannot be empty` : undefined),
    }));
  if (secret === undefined) return undefined;
  if (secret.trim() === '') return report({ ok: false, reason: 'The consumer secret cannot be empty.' }, 'Consumer secret');
  await secrets.store(secretKeys.consumerSecret(env), secret);
  return report({ ok: true, environment: env }, 'Consumer secret');
}

export async function setRsaPrivateKeyCommand(
  secrets: vscode.SecretStorage,
  args: SetRsaKeyArgs = {},
): Promise<SetSecretResult | undefined> {
  const env = await pickEnvironment(args.environment, 'RSA private key');
  if (env === undefined) return undefined;
  const refused = refuseLocal(env);
  if (refused) return report(refused, 'RSA private key');
  let file = typeof args.file === 'string' ? vscode.Uri.file(args.file) : args.file;
  if (!file) {
    const picked = await vscode.window.showOpenDialog({
      title: `PayGate: RSA private key (PEM) of "${env}"`,
      canSelectMany: false,
      openLabel: 'Use this key',
      filters: { 'PEM private key': ['pem', 'key'], 'All files': ['*'] },
    });
    if (!picked?.length) return undefined;
    file = picked[0];
  }
  let pem: string;
  try {
    pem =
      file.scheme === 'file' ? await fs.readFile(file.fsPath, 'utf8') : new TextDecoder().decode(await vscode.workspace.fs.readFile(file));
  } catch (err) {
    return report(
      { ok: false, reason: `Cannot read ${file.fsPath}: ${(err as NodeJS.ErrnoException).code ?? 'read error'}` },
      'RSA private key',
    );
  }
  let passphrase = args.passphrase;
  if (passphrase === undefined && args.file === undefined) {
    passphrase = await ask({
      title: said`PayGate: passphrase of the RSA private key of "${typed.text(env)}"`,
      prompt: said`Leave empty when the key is not encrypted.`,
      password: true,
      ignoreFocusOut: true,
    });
    if (passphrase === undefined) return undefined;
  }
  // Checked before storing so a wrong passphrase is caught now, not at the first submission.
  const loaded = loadPrivateKey(pem, passphrase || undefined);
  if (!loaded.ok) return report({ ok: false, reason: `${file.fsPath}: ${loaded.reason}. Nothing was stored.` }, 'RSA private key');
  await secrets.store(secretKeys.rsaPrivateKey(env), pem);
  if (passphrase) await secrets.store(secretKeys.rsaPassphrase(env), passphrase);
  else await secrets.delete(secretKeys.rsaPassphrase(env));
  return report({ ok: true, environment: env }, 'RSA private key');
}
