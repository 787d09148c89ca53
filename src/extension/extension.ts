import type * as vscode from 'vscode';
import { EventEmitter } from 'vscode';
import type { LanguageClient } from 'vscode-languageclient/node';
import { PDF_VIEW_TYPE, VIEW_TYPE } from '../shared/viewTypes';
import type { EntryState } from './entryState';
import type * as FeaturesBundle from './features';
import type * as FirstScreenBundle from './firstScreen';
import { LazyFeatures } from './lazy';
import type * as ClientBundle from './lint/client';
import { createLog } from './log';

// Wiring only, and only what must exist when activate() returns (CONTRIBUTING.md, "Bundles"): the log (its
// channel made on first use) and stand-ins for every command (lazy.ts), which the editor may call at once;
// the stand-ins of both tree views and both panel serializers go to the editor in the next turn, which it
// waits for (lazy.ts). What the first screen shows loads in the next turn: the status bar, the CodeLenses and
// language detection (dist/first-screen.js), then the language client (dist/language-client.js); every
// command, both tree views and the restored panels load dist/features.js on first use. Every disposable
// goes into context.subscriptions where it is made.
// The entry's modules import `vscode` by name, never `import * as vscode`: esbuild wraps a namespace import of
// it in __toESM, which copies the API's ~260 names into an object of getters once per module, at evaluation
// (test/unit/extension-entry-bundle.test.ts).

// The host's clock when this bundle began to evaluate (esbuild's banner, esbuild.js) and when it was
// evaluated; with activate()'s own two moments, the start-up bench tells the editor's share from ours
// (test/smoke/installed.test.ts).
declare const __paygateBundleStart: number | undefined;
const evaluatedAt = performance.now();
const bundleStartedAt = typeof __paygateBundleStart === 'number' ? __paygateBundleStart : evaluatedAt;

/** What activate() returns: the extension host's clock at the four moments above. */
export interface PayGateExports {
  startup: { bundleStartedAt: number; evaluatedAt: number; activateCalledAt: number; activatedAt: number };
}

interface Manifest {
  contributes: { commands: { command: string }[] };
}

/** A bundle beside this one (dist/<name>.js): a separate build, so it is required by path. */
function loadBundle<T>(context: vscode.ExtensionContext, name: string): T {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded when first needed, not with the entry
  return require(context.asAbsolutePath(`dist/${name}.js`)) as T;
}

export function activate(context: vscode.ExtensionContext): PayGateExports {
  const activateCalledAt = performance.now();
  const log = createLog(context);
  // The log's two activation lines are written in the next turn, or before anything else loads if that is
  // sooner: writing makes the host's channel and loads the output boundary (./log.ts), which activate() need not.
  let announced = false;
  const announce = () => {
    if (announced) return;
    announced = true;
    log.info(`PayGate Toolkit ${context.extension.packageJSON.version} activating`);
    log.info('PayGate Toolkit active');
  };
  const targetChanged = new EventEmitter<void>();
  context.subscriptions.push(targetChanged);
  let screen: FirstScreenBundle.FirstScreen | undefined;
  let client: LanguageClient | undefined;
  const firstScreen = () => {
    announce();
    return (screen ??= loadBundle<typeof FirstScreenBundle>(context, 'first-screen').showFirstScreen(context, entry));
  };
  const entry: EntryState = {
    log,
    targetChanged,
    local: {},
    get status() {
      return firstScreen().status;
    },
    client: () => {
      announce();
      return (client ??= loadBundle<typeof ClientBundle>(context, 'language-client').startLanguageClient(context, entry));
    },
  };
  context.subscriptions.push(
    new LazyFeatures({
      commands: (context.extension.packageJSON as Manifest).contributes.commands.map((c) => c.command),
      trees: { 'paygate.submissions': { showCollapseAll: true }, 'paygate.callbacks': {} },
      serializers: [VIEW_TYPE, PDF_VIEW_TYPE],
      load: (host) => {
        try {
          firstScreen();
          loadBundle<typeof FeaturesBundle>(context, 'features').activateFeatures(context, entry, host);
        } catch (err) {
          log.error(`PayGate features did not load: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
          throw err;
        }
      },
    }),
  );
  // The first screen needs the rest: it loads in the next turn, once the editor has the activation's
  // result (a feature used before then loads what it needs itself, through entry.status and entry.client()).
  const start = setImmediate(() => {
    for (const [what, load] of [
      ['first screen', firstScreen],
      ['language client', entry.client],
    ] as const) {
      try {
        load();
      } catch (err) {
        log.error(`PayGate ${what} did not load: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
      }
    }
  });
  context.subscriptions.push({ dispose: () => clearImmediate(start) });
  return { startup: { bundleStartedAt, evaluatedAt, activateCalledAt, activatedAt: performance.now() } };
}

export function deactivate(): void {
  // Everything is disposed through context.subscriptions.
}
