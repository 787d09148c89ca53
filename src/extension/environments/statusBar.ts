import * as vscode from 'vscode';
import { Disposable } from '../disposable';
import { LOCAL_ENVIRONMENT } from '../../core/gateway/environments';
import { activeEnvironmentName, configuredEnvironment, configuredEnvironments, isKnownEnvironment, setActiveEnvironment } from './settings';
import type { LocalGatewayInfo } from './localGateway';
import { showError, showPick } from '../say';
import { said, typed } from '../../core/output';

// The active environment, always in sight: a production environment on the warning colour, a name that
// no longer exists on the error colour. A click opens Select Environment.

export class EnvironmentStatus extends Disposable {
  private readonly item = this.register(vscode.window.createStatusBarItem('paygate.environment', vscode.StatusBarAlignment.Left, 50));

  /** @param localInfo the local gateway's state: not running until the features bundle starts one */
  constructor(private readonly localInfo: () => LocalGatewayInfo) {
    super();
    this.item.name = 'PayGate Environment';
    this.item.command = 'paygate.selectEnvironment';
    this.refresh();
    this.item.show();
  }

  get text(): string {
    return this.item.text;
  }

  refresh(): void {
    const name = activeEnvironmentName();
    const env = configuredEnvironment(name);
    const tooltip = new vscode.MarkdownString(undefined, true);
    tooltip.isTrusted = false;
    // The same words in plain text for screen readers: the Markdown tooltip escapes them (Built\-in…).
    let plain: string;
    if (name === LOCAL_ENVIRONMENT) {
      const info = this.localInfo();
      this.item.text = `$(server-environment) PayGate: ${name}`;
      this.item.backgroundColor = undefined;
      plain = info.running ? `Built-in local gateway, running at ${info.baseUrl}` : 'Built-in local gateway (starts when first used)';
      if (info.externalPid !== undefined)
        plain = `Local gateway run by ${info.runBy ?? 'another process'} (pid ${info.externalPid}), at ${info.baseUrl}`;
      if (info.stateDir !== undefined) plain += `\nState: ${info.stateDir}`;
      tooltip.appendText(plain);
    } else if (env) {
      this.item.text = `$(${env.production ? 'warning' : 'server-environment'}) PayGate: ${name}`;
      this.item.backgroundColor = env.production ? new vscode.ThemeColor('statusBarItem.warningBackground') : undefined;
      plain = `${env.production ? 'PRODUCTION — real cards are charged. ' : ''}Payments: ${env.baseUrl}\nReports: ${env.reportBaseUrl}\nEndpoint ${env.endpointId}, consumer key ${env.consumerKey}`;
      tooltip.appendText(plain);
    } else {
      this.item.text = `$(error) PayGate: ${name}?`;
      this.item.backgroundColor = new vscode.ThemeColor('statusBarItem.errorBackground');
      plain = `There is no environment named "${name}" in the "paygate.environments" setting.`;
      tooltip.appendText(plain);
    }
    tooltip.appendMarkdown('\n\nClick to select another environment.');
    this.item.tooltip = tooltip;
    this.item.accessibilityInformation = { label: statusLabel(name, plain), role: 'button' };
  }

  get accessibleLabel(): string {
    return this.item.accessibilityInformation?.label ?? '';
  }
}

/** The status item's accessible label: plain sentences, no Markdown escapes, no codicon names. */
export function statusLabel(environment: string, detail: string): string {
  return `PayGate environment ${environment}. ${detail.replace(/\n/g, '. ')}. Activate to select another environment.`;
}

export type SelectEnvironmentResult =
  { ok: true; environment: string; statusText: string; statusLabel: string } | { ok: false; message: string; adding?: boolean };

interface EnvironmentPick extends vscode.QuickPickItem {
  name: string;
  add?: boolean;
}

/** The environment a command argument names: a string, or `{ environment }`; anything else names none. */
function environmentArg(arg: unknown): string | undefined {
  if (typeof arg === 'string') return arg;
  return arg && typeof arg === 'object' && typeof (arg as { environment?: unknown }).environment === 'string'
    ? (arg as { environment: string }).environment
    : undefined;
}

/** Select Environment: a name argument (string or `{ environment }`) selects without asking. */
export async function selectEnvironmentCommand(status: EnvironmentStatus, arg?: unknown): Promise<SelectEnvironmentResult | undefined> {
  let name = environmentArg(arg);
  if (name === undefined) {
    const current = activeEnvironmentName();
    const items: EnvironmentPick[] = [
      {
        name: LOCAL_ENVIRONMENT,
        label: LOCAL_ENVIRONMENT,
        description: 'built-in local gateway',
        detail: "No credentials needed: the demo merchant's keys come from the local gateway.",
      },
      ...configuredEnvironments().environments.map((e) => ({
        name: e.name,
        label: `${e.production ? '$(warning) ' : ''}${e.name}`,
        description: e.production ? 'PRODUCTION' : e.baseUrl,
        detail: `endpoint ${e.endpointId} · consumer key ${e.consumerKey}`,
      })),
    ].map((i) => (i.name === current ? { ...i, description: `${i.description} · current` } : i));
    // The way to a new environment is where one looks for it: at the end of the list of environments.
    items.push(
      { name: '', label: '', kind: vscode.QuickPickItemKind.Separator },
      {
        name: '',
        add: true,
        label: '$(add) Add environment…',
        detail: 'Opens the paygate.environments setting in settings JSON with an entry to fill in.',
      },
    );
    const picked = await showPick(items, { placeHolder: `Active PayGate environment (now: ${current})` });
    if (!picked) return undefined;
    if (picked.add) {
      await vscode.commands.executeCommand('paygate.addEnvironment');
      return { ok: false, adding: true, message: 'Opened settings JSON to add an environment.' };
    }
    name = picked.name;
  }
  if (!isKnownEnvironment(name)) {
    const message = `There is no environment named "${name}": add it to the "paygate.environments" setting first.`;
    void showError(said`PayGate: ${typed.text(message)}`);
    return { ok: false, message };
  }
  await setActiveEnvironment(name);
  status.refresh();
  return { ok: true, environment: name, statusText: status.text, statusLabel: status.accessibleLabel };
}
