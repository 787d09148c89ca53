import * as vscode from 'vscode';
import { LOCAL_ENVIRONMENT, type Environment, type PathTemplates } from '../../core/gateway/environments';
import { parseEnvironments, parsePathTemplates } from '../../core/gateway/settings';

// The editor's view of `paygate.*` gateway settings. The built-in `local` environment is never stored in
// settings: its addresses exist only once the embedded gateway runs, so it is described by name here and
// resolved to a real Environment by localGateway.ts.

export const SECTION = 'paygate';

export interface ConfiguredEnvironments {
  /** From settings, valid entries only. */
  environments: Environment[];
  /** One line per broken settings entry, for the log. */
  problems: string[];
}

export function configuredEnvironments(): ConfiguredEnvironments {
  return parseEnvironments(vscode.workspace.getConfiguration(SECTION).get<unknown>('environments', []));
}

export function activeEnvironmentName(): string {
  const name = vscode.workspace.getConfiguration(SECTION).get<string>('environment', LOCAL_ENVIRONMENT);
  return name && name.trim() !== '' ? name : LOCAL_ENVIRONMENT;
}

/** The settings entry, or undefined for `local` and for names that no longer exist. */
export function configuredEnvironment(name: string): Environment | undefined {
  return configuredEnvironments().environments.find((e) => e.name === name);
}

export function isKnownEnvironment(name: string): boolean {
  return name === LOCAL_ENVIRONMENT || configuredEnvironment(name) !== undefined;
}

export function isProduction(name: string): boolean {
  return configuredEnvironment(name)?.production === true;
}

export function pathTemplates(): PathTemplates {
  const c = vscode.workspace.getConfiguration(SECTION);
  return parsePathTemplates({
    createRecurringPayments: c.get<string>('paths.createRecurringPayments'),
    customReport: c.get<string>('paths.customReport'),
  });
}

export function requestTimeoutMs(): number {
  const seconds = vscode.workspace.getConfiguration(SECTION).get<number>('requestTimeoutSeconds', 60);
  return Number.isFinite(seconds) && seconds > 0 ? Math.round(seconds * 1000) : 60_000;
}

export function localGatewayPort(): number {
  const port = vscode.workspace.getConfiguration(SECTION).get<number>('localGateway.port', 0);
  return Number.isInteger(port) && port >= 0 && port <= 65535 ? port : 0;
}

/**
 * Writes the choice where the current one comes from: a workspace that pins an environment keeps pinning
 * it, otherwise the user settings hold it (no settings file is created inside the project unasked).
 */
export async function setActiveEnvironment(name: string): Promise<void> {
  const config = vscode.workspace.getConfiguration(SECTION);
  const inspected = config.inspect<string>('environment');
  const target = inspected?.workspaceValue !== undefined ? vscode.ConfigurationTarget.Workspace : vscode.ConfigurationTarget.Global;
  await config.update('environment', name, target);
}

export function affectsGatewaySettings(e: vscode.ConfigurationChangeEvent): boolean {
  return ['environment', 'environments', 'paths', 'requestTimeoutSeconds', 'localGateway'].some((k) =>
    e.affectsConfiguration(`${SECTION}.${k}`),
  );
}
