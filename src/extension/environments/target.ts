import * as vscode from 'vscode';
import { LOCAL_ENVIRONMENT, type Environment, type PathTemplates } from '../../core/gateway/environments';
import { checkSigningCredentials, type SigningCredentials } from '../../core/oauth';
import { configuredEnvironment, pathTemplates, requestTimeoutMs } from './settings';
import { demoMerchantCredentials } from '../../local-gateway/merchant';
import type { LocalGatewayHandle, LocalGatewayManager } from './localGateway';
import { storedCredentials, type Operation } from './secrets';
import { showError } from '../say';
import { errorMessage } from '../../core/errorMessage';
import { said, typed } from '../../core/output';

// Where a request goes and what signs it. `local` resolves to the running embedded gateway and its demo
// merchant; every other name to its settings entry and the secrets stored for it.

export interface Target {
  environment: Environment;
  paths: PathTemplates;
  credentials: SigningCredentials;
  timeoutMs: number;
  /** The local gateway, when the environment is `local`. */
  local?: LocalGatewayHandle;
}

export type TargetResult =
  | { ok: true; target: Target }
  | {
      ok: false;
      reason: 'unknown-environment' | 'no-credentials' | 'local-gateway-failed';
      message: string;
      fixCommand?: { title: string; command: string; args?: unknown };
    };

export interface TargetDeps {
  secrets: vscode.SecretStorage;
  local: LocalGatewayManager;
}

export async function resolveTarget(deps: TargetDeps, name: string, operation: Operation): Promise<TargetResult> {
  if (name === LOCAL_ENVIRONMENT) {
    let gateway;
    try {
      gateway = await deps.local.ensureStarted();
    } catch (err) {
      return {
        ok: false,
        reason: 'local-gateway-failed',
        message: `The local gateway could not start: ${errorMessage(err)}`,
      };
    }
    const credentials = demoMerchantCredentials(gateway.merchant, operation);
    // The embedded gateway serves the paths it was started with (restarted when they change).
    return {
      ok: true,
      target: { environment: gateway.environment, paths: pathTemplates(), credentials, timeoutMs: requestTimeoutMs(), local: gateway },
    };
  }
  const environment = configuredEnvironment(name);
  if (!environment) {
    return {
      ok: false,
      reason: 'unknown-environment',
      message: `There is no environment named "${name}": add it to the "paygate.environments" setting or select another one.`,
      fixCommand: { title: 'Select Environment', command: 'paygate.selectEnvironment' },
    };
  }
  const creds = await storedCredentials(deps.secrets, environment, operation);
  if (!creds.ok) {
    return {
      ok: false,
      reason: 'no-credentials',
      message: creds.message,
      fixCommand:
        creds.missing === 'consumer-secret'
          ? { title: 'Set Consumer Secret…', command: 'paygate.setConsumerSecret', args: { environment: name } }
          : { title: 'Set RSA Private Key…', command: 'paygate.setRsaPrivateKey', args: { environment: name } },
    };
  }
  // A stored key was checked when it was set, but a later passphrase change or corruption shows up here, before anything is recorded or sent.
  const usable = checkSigningCredentials(creds.credentials);
  if (!usable.ok) {
    return {
      ok: false,
      reason: 'no-credentials',
      message: `The signing key stored for "${name}" cannot be used: ${usable.reason}.`,
      fixCommand: { title: 'Set RSA Private Key…', command: 'paygate.setRsaPrivateKey', args: { environment: name } },
    };
  }
  return { ok: true, target: { environment, paths: pathTemplates(), credentials: creds.credentials, timeoutMs: requestTimeoutMs() } };
}

/** Shows why a target could not be resolved, with the command that fixes it; never waits for the user. */
export function showTargetProblem(problem: Extract<TargetResult, { ok: false }>): void {
  const actions = problem.fixCommand ? [problem.fixCommand.title] : [];
  // eslint-disable-next-line no-restricted-syntax -- bounded: at most one action
  void showError(said`PayGate: ${typed.text(problem.message)}`, ...actions).then((choice) => {
    const fix = problem.fixCommand;
    if (choice && fix)
      void (fix.args === undefined ? vscode.commands.executeCommand(fix.command) : vscode.commands.executeCommand(fix.command, fix.args));
  });
}
