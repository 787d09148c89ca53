import * as vscode from 'vscode';
import { Disposable } from '../disposable';
import { LOCAL_ENVIRONMENT } from '../../core/gateway/environments';
import { activeEnvironmentName, configuredEnvironment, configuredEnvironments, isKnownEnvironment, setActiveEnvironment } from './settings';
import type { LocalGatewayInfo } from './localGateway';
import { showError, showPick, shown, type PickItem } from '../say';
import { joinSaid, ourWords, said, typed, type Said } from '../../core/output';

// The active environment, always in sight: a production environment on the warning colour, a name that
// no longer exists on the error colour. A click opens Select Environment. Its words come from the settings
// (the environment's name, URLs, endpoint, consumer key) and the local gateway: each a value of a `Said`,
// checked alone where it is shown (the item is drawn by the first screen, after the floor is loaded).

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
    let about: Said;
    const named = typed.text(name);
    if (name === LOCAL_ENVIRONMENT) {
      const info = this.localInfo();
      this.item.text = shown(said`$(server-environment) PayGate: ${named}`);
      this.item.backgroundColor = undefined;
      about = info.running
        ? said`Built-in local gateway, running at ${typed.text(info.baseUrl)}`
        : ourWords('Built-in local gateway (starts when first used)');
      if (info.externalPid !== undefined)
        about = said`Local gateway run by ${typed.text(info.runBy ?? 'another process')} (pid ${typed.count(info.externalPid)}), at ${typed.text(info.baseUrl)}`;
      if (info.stateDir !== undefined) about = said`${about}\nState: ${typed.text(info.stateDir)}`;
    } else if (env) {
      this.item.text = shown(said`$(${ourWords(env.production ? 'warning' : 'server-environment')}) PayGate: ${named}`);
      this.item.backgroundColor = env.production ? new vscode.ThemeColor('statusBarItem.warningBackground') : undefined;
      about = said`${ourWords(env.production ? 'PRODUCTION — real cards are charged. ' : '')}Payments: ${typed.text(env.baseUrl)}\nReports: ${typed.text(env.reportBaseUrl)}\nEndpoint ${typed.text(env.endpointId)}, consumer key ${typed.text(env.consumerKey)}`;
    } else {
      this.item.text = shown(said`$(error) PayGate: ${named}?`);
      this.item.backgroundColor = new vscode.ThemeColor('statusBarItem.errorBackground');
      about = said`There is no environment named "${named}" in the "paygate.environments" setting.`;
    }
    const plain = shown(about);
    tooltip.appendText(plain);
    tooltip.appendMarkdown('\n\nClick to select another environment.');
    this.item.tooltip = tooltip;
    this.item.accessibilityInformation = { label: statusLabel(shown(said`${named}`), plain), role: 'button' };
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

interface EnvironmentPick extends PickItem {
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
        label: ourWords(LOCAL_ENVIRONMENT),
        description: ourWords('built-in local gateway'),
        detail: ourWords("No credentials needed: the demo merchant's keys come from the local gateway."),
      },
      ...configuredEnvironments().environments.map((e) => ({
        name: e.name,
        label: said`${ourWords(e.production ? '$(warning) ' : '')}${typed.text(e.name)}`,
        description: e.production ? ourWords('PRODUCTION') : said`${typed.text(e.baseUrl)}`,
        detail: said`endpoint ${typed.text(e.endpointId)} · consumer key ${typed.text(e.consumerKey)}`,
      })),
    ].map((i) => (i.name === current ? { ...i, description: joinSaid([i.description, ourWords('current')], ' · ') } : i));
    // The way to a new environment is where one looks for it: at the end of the list of environments.
    items.push(
      { name: '', label: ourWords(''), kind: vscode.QuickPickItemKind.Separator },
      {
        name: '',
        add: true,
        label: ourWords('$(add) Add environment…'),
        detail: ourWords('Opens the paygate.environments setting in settings JSON with an entry to fill in.'),
      },
    );
    const picked = await showPick(items, { placeHolder: said`Active PayGate environment (now: ${typed.text(current)})` });
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
