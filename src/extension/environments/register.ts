import * as vscode from 'vscode';
import type { EnvironmentsEntry } from './entryPart';
import type { ReadOnlyDocuments } from '../readOnlyDocs';
import { log } from '../log';
import { advanceLocalGatewayClockCommand } from './advanceClock';
import { LocalClockWatch } from './clockWatch';
import { LocalGatewayManager, type LocalGatewayInfo } from './localGateway';
import { LOCAL_STATE_SETTING, localStateDir, ownLocalStateDir } from './localState';
import { setConsumerSecretCommand, setRsaPrivateKeyCommand, type SetConsumerSecretArgs, type SetRsaKeyArgs } from './secrets';
import { SECTION } from './settings';
import { selectEnvironmentCommand } from './statusBar';
import { addEnvironmentCommand } from './addEnvironment';
import type { TargetDeps } from './target';
import { showError, showInfo } from '../say';
import { errorMessage } from '../../core/errorMessage';
import { said, typed } from '../../core/output';

// Environments: secrets, the built-in local gateway and the commands that choose where a batch or a report
// goes. The other features reach a gateway through the TargetDeps returned here. The status bar item and
// the settings watch run from activation (watch.ts); they are the entry's and are handed in here.

const LOCAL_RUNNING_CONTEXT = 'paygate.localGatewayRunning';

/** A string argument names the environment; an object is taken as the command's options. */
function envArgs<T extends { environment?: string }>(arg: unknown): T {
  if (typeof arg === 'string') return { environment: arg } as T;
  return arg && typeof arg === 'object' && !(arg instanceof vscode.Uri) ? (arg as T) : ({} as T);
}

/** How this window names itself in the local gateway's client list. */
function windowLabel(): string {
  const name = vscode.workspace.name;
  return `${vscode.env.appName}${name ? ` (${name})` : ''}`;
}

export interface EnvironmentsApi {
  target: TargetDeps;
  /** Fires when something that decides the target changed (settings, trust, the local gateway, its clock). */
  onDidChangeTarget: vscode.Event<void>;
  /** Where the local gateway `local` uses keeps its state (its simulated clock included). */
  localStateDir(): string;
}

export function registerEnvironments(
  context: vscode.ExtensionContext,
  deps: { docs: ReadOnlyDocuments; entry: EnvironmentsEntry },
): EnvironmentsApi {
  const subs = context.subscriptions;
  const { docs } = deps;
  const { status, targetChanged: changed } = deps.entry;
  // `local` is the local gateway of the CLI's state directory: the one running there (a terminal's
  // `paygate gateway`, npm start's, another window's), else one started here and stopped with the extension.
  const local = new LocalGatewayManager({ shared: localStateDir, own: ownLocalStateDir(context) }, log(), windowLabel);
  deps.entry.local.manager = local;
  subs.push(local, {
    dispose: () => {
      if (deps.entry.local.manager === local) deps.entry.local.manager = undefined;
    },
  });
  const register = (id: string, fn: (...args: unknown[]) => unknown) => subs.push(vscode.commands.registerCommand(id, fn));

  register('paygate.selectEnvironment', (arg) => selectEnvironmentCommand(status, arg));
  register('paygate.addEnvironment', () => addEnvironmentCommand());
  register('paygate.setConsumerSecret', (arg) => setConsumerSecretCommand(context.secrets, envArgs<SetConsumerSecretArgs>(arg)));
  register('paygate.setRsaPrivateKey', (arg) => setRsaPrivateKeyCommand(context.secrets, envArgs<SetRsaKeyArgs>(arg)));
  register('paygate.startLocalGateway', async (): Promise<LocalGatewayInfo> => {
    try {
      await local.ensureStarted();
    } catch (err) {
      const message = `The local gateway could not start: ${errorMessage(err)}`;
      log().error(said`${typed.text(message)}`);
      void showError(said`PayGate: ${typed.text(message)}`);
      return local.info();
    }
    const info = local.info();
    const by = info.externalPid !== undefined ? ` — run by ${info.runBy ?? 'another process'} (pid ${info.externalPid})` : '';
    void showInfo(
      said`PayGate: local gateway running at ${typed.text(info.baseUrl)} (reports ${typed.text(info.reportBaseUrl)})${typed.text(by)}.`,
    );
    return info;
  });
  register('paygate.stopLocalGateway', async (): Promise<boolean> => {
    const before = local.info();
    const stopped = await local.stop();
    let message = stopped ? 'PayGate: local gateway stopped.' : 'PayGate: the local gateway was not running.';
    if (before.externalPid !== undefined) {
      message = `PayGate: the local gateway at ${before.baseUrl} is run by ${before.runBy ?? 'another process'} (pid ${before.externalPid}): this window no longer uses it; stop it where it runs.`;
    }
    void showInfo(said`${typed.text(message)}`);
    return stopped;
  });
  register('paygate.advanceLocalGatewayClock', async (arg) => {
    const result = await advanceLocalGatewayClockCommand({ local, docs }, arg);
    changed.fire(); // the simulated day moved: previews count from it
    return result;
  });

  // The clock moved elsewhere (a terminal, another window): previews count from the new day.
  const clock = new LocalClockWatch(
    () => local.stateDirInUse,
    () => changed.fire(),
  );
  const syncLocal = () => {
    void vscode.commands.executeCommand('setContext', LOCAL_RUNNING_CONTEXT, local.running !== undefined);
    status.refresh();
    clock.follow();
    changed.fire();
  };
  subs.push(clock, local.onDidChange(syncLocal));
  syncLocal();

  subs.push(
    vscode.workspace.onDidChangeConfiguration((e) => {
      // A gateway serves the paths and port it started with, on its state directory: the next use finds the right one.
      const moved = ['paths', 'localGateway.port', LOCAL_STATE_SETTING].some((k) => e.affectsConfiguration(`${SECTION}.${k}`));
      if (moved) clock.follow();
      if (moved && local.running) {
        void local.stop();
      }
    }),
  );
  return { target: { secrets: context.secrets, local }, onDidChangeTarget: changed.event, localStateDir: () => local.stateDirInUse };
}
