import type { Connection } from 'vscode-languageserver';
import { DEFAULT_LINT_SETTINGS, LINT_SECTION, readLintSettings, type LintSettings } from '../shared/lintProtocol';

/** `{ paygate: { lint: {...} } }`, the shape of initializationOptions and of didChangeConfiguration's settings. */
function lintSection(raw: unknown): unknown {
  const paygate = raw !== null && typeof raw === 'object' ? (raw as Record<string, unknown>).paygate : undefined;
  return paygate !== null && typeof paygate === 'object' ? (paygate as Record<string, unknown>).lint : undefined;
}

/**
 * `paygate.lint` per document. Clients that answer workspace/configuration (VS Code) are asked per
 * document, so folder and language settings apply; others give the settings in initializationOptions
 * and didChangeConfiguration. Nothing given: lint on every change and publish at once.
 */
export class LintSettingsSource {
  private global: LintSettings;
  private readonly perDocument = new Map<string, Promise<LintSettings>>();

  constructor(
    private readonly connection: Connection,
    private readonly pulls: boolean,
    initializationOptions: unknown,
  ) {
    this.global = readLintSettings(lintSection(initializationOptions));
  }

  for(uri: string): Promise<LintSettings> {
    if (!this.pulls) return Promise.resolve(this.global);
    let settings = this.perDocument.get(uri);
    if (!settings) {
      settings = this.connection.workspace.getConfiguration({ scopeUri: uri, section: LINT_SECTION }).then(
        (raw: unknown) => readLintSettings(raw, this.global),
        () => this.global,
      );
      this.perDocument.set(uri, settings);
    }
    return settings;
  }

  /** didChangeConfiguration: pulled settings are asked again; pushed ones replace the global ones. */
  changed(settings: unknown): void {
    this.perDocument.clear();
    const section = lintSection(settings);
    if (section !== undefined) this.global = readLintSettings(section, DEFAULT_LINT_SETTINGS);
  }

  forget(uri: string): void {
    this.perDocument.delete(uri);
  }
}
