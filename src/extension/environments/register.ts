import * as vscode from 'vscode';
import { defaultStateDir } from '../../local-gateway';
import type { EntryState } from '../entryState';
import type { ReadOnlyDocuments } from '../readOnlyDocs';
import { log } from '../log';
import { advanceLocalGatewayClockCommand } from './advanceClock';
import { LocalGatewayManager, type LocalGatewayInfo } from './localGateway';
import { setConsumerSecretCommand, setRsaPrivateKeyCommand, type SetConsumerSecretArgs, type SetRsaKeyArgs } from './secrets';
import { SECTION } from './settings';
import { selectEnvironmentCommand } from './statusBar';
import { addEnvironmentCommand } from './addEnvironment';
import type { TargetDeps } from './target';
import { showError, showInfo } from '../say';

// Environments: secrets, the built-in local gateway and the commands that choose where a batch or a report
// goes. The other features reach a gateway through the TargetDeps returned here. The status bar item and
// the settings watch run from activation (watch.ts); they are the entry's and are handed in here.

const LOCAL_RUNNING_CONTEXT = 'paygate.localGatewayRunning';

/** A string argument names the environment; an object is taken as the command's options. */
function envArgs<T extends { environment?: string }>(arg: unknown): T {
  if (typeof arg === 'string') return { environment: arg } as T;
  return arg && typeof arg === 'object' && !(arg instanceof vscode.Uri) ? (arg as T) : ({} as T);
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
  deps: { docs: ReadOnlyDocuments; entry: Pick<EntryState, 'status' | 'targetChanged' | 'local'> },
): EnvironmentsApi {
  const subs = context.subscriptions;
  const { docs } = deps;
  const { status, targetChanged: changed } = deps.entry;
  // `local` is stopped with the extension: LocalGatewayManager.dispose closes the server. A `paygate gateway`
  // already running on the CLI's state directory ($PAYGATE_STATE_DIR, as npm start sets it) is used instead.
  const local = new LocalGatewayManager(LocalGatewayManager.stateDirOf(context), log(), defaultStateDir());
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
      const message = `The local gateway could not start: ${err instanceof Error ? err.message : String(err)}`;
      log().error(message);
      void showError(`PayGate: ${message}`);
      return local.info();
    }
    const info = local.info();
    const by = info.externalPid !== undefined ? ` — run by paygate gateway (pid ${info.externalPid})` : '';
    void showInfo(`PayGate: local gateway running at ${info.baseUrl} (reports ${info.reportBaseUrl})${by}.`);
    return info;
  });
  register('paygate.stopLocalGateway', async (): Promise<boolean> => {
    const before = local.info();
    const stopped = await local.stop();
    let message = stopped ? 'PayGate: local gateway stopped.' : 'PayGate: the local gateway was not running.';
    if (before.externalPid !== undefined) {
      message = `PayGate: the local gateway at ${before.baseUrl} is run by paygate gateway (pid ${before.externalPid}): stop it where it runs (Ctrl+C).`;
    }
    void showInfo(message);
    return stopped;
  });
  register('paygate.advanceLocalGatewayClock', async (arg) => {
    const result = await advanceLocalGatewayClockCommand({ local, docs }, arg);
    changed.fire(); // the simulated day moved: previews count from it
    return result;
  });

  const syncLocal = () => {
    void vscode.commands.executeCommand('setContext', LOCAL_RUNNING_CONTEXT, local.running !== undefined);
    status.refresh();
    changed.fire();
  };
  subs.push(local.onDidChange(syncLocal));
  syncLocal();

  subs.push(
    vscode.workspace.onDidChangeConfiguration((e) => {
      // The embedded gateway serves the paths and port it started with; the next use starts it anew.
      if ((e.affectsConfiguration(`${SECTION}.paths`) || e.affectsConfiguration(`${SECTION}.localGateway.port`)) && local.running) {
        void local.stop();
      }
    }),
  );
  return { target: { secrets: context.secrets, local }, onDidChangeTarget: changed.event, localStateDir: () => local.stateDirInUse };
}
