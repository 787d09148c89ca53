import type * as vscode from 'vscode';
import type { LanguageClient } from 'vscode-languageclient/node';
import { PDF_VIEW_TYPE } from '../shared/pdfProtocol';
import { VIEW_TYPE } from '../shared/resultsProtocol';
import type { EntryState } from './entryState';
import { registerEnvironmentStatus } from './environments/watch';
import type * as FeaturesBundle from './features';
import { registerForecastLens } from './forecast/codeLens';
import { LazyFeatures } from './lazy';
import type * as ClientBundle from './lint/client';
import { registerDetection } from './lint/detect';
import { createLog } from './log';
import { registerSubmitLens } from './submit/codeLens';

// Wiring only, and only what the first screen needs (CONTRIBUTING.md, "Bundles"): the log, the
// status bar, the CodeLenses and language detection. The language client (dist/language-client.js)
// starts as soon as activation has returned; every command, both tree views and the restored panels load
// dist/features.js on first use (lazy.ts). Every disposable goes into context.subscriptions where it is made.

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
  log.info(`PayGate Toolkit ${context.extension.packageJSON.version} activating`);
  const local: EntryState['local'] = {};
  const { status, targetChanged } = registerEnvironmentStatus(context, local);
  let client: LanguageClient | undefined;
  const entry: EntryState = {
    log,
    status,
    targetChanged,
    local,
    client: () => (client ??= loadBundle<typeof ClientBundle>(context, 'language-client').startLanguageClient(context, entry)),
  };
  registerSubmitLens(context, targetChanged.event);
  registerForecastLens(context);
  registerDetection(context);
  context.subscriptions.push(
    new LazyFeatures({
      commands: (context.extension.packageJSON as Manifest).contributes.commands.map((c) => c.command),
      trees: { 'paygate.submissions': { showCollapseAll: true }, 'paygate.callbacks': {} },
      serializers: [VIEW_TYPE, PDF_VIEW_TYPE],
      load: (host) => {
        try {
          loadBundle<typeof FeaturesBundle>(context, 'features').activateFeatures(context, entry, host);
        } catch (err) {
          log.error(`PayGate features did not load: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
          throw err;
        }
      },
    }),
  );
  // Diagnostics need the language client: it loads and starts in the next turn, once the editor has the
  // activation's result (a feature used before then starts it itself, through entry.client()).
  const start = setImmediate(() => {
    try {
      entry.client();
    } catch (err) {
      log.error(`PayGate language client did not load: ${err instanceof Error ? err.message : String(err)}`);
    }
  });
  context.subscriptions.push({ dispose: () => clearImmediate(start) });
  log.info('PayGate Toolkit active');
  return { startup: { bundleStartedAt, evaluatedAt, activateCalledAt, activatedAt: performance.now() } };
}

export function deactivate(): void {
  // Everything is disposed through context.subscriptions.
}
