// What every PayGate webview page shares on the host side: the same options (scripts on, forms and
// command links off, only the built assets reachable) and the same HTML shell and CSP (html.ts), each
// page naming its own bundle in dist/.
import * as vscode from 'vscode';
import { Disposable } from '../disposable';
import { makeNonce, renderShell } from './html';

export function webviewOptions(extensionUri: vscode.Uri): vscode.WebviewOptions & vscode.WebviewPanelOptions {
  return {
    enableScripts: true,
    enableForms: false,
    enableCommandUris: false,
    // Only the built page assets; a page loads nothing else.
    localResourceRoots: [vscode.Uri.joinPath(extensionUri, 'dist')],
  };
}

export interface PageBundle {
  /** The bundle's name in dist/: `NAME.js` and `NAME.css`. */
  name: string;
  title: string;
  /** Directives the page needs beyond the shared policy (never script-src). */
  extraDirectives?: string[];
  /** data-* attributes of the page's root, by asset file name in dist/ (turned into webview URIs). */
  assets?: Record<string, string>;
}

export function pageHtml(webview: vscode.Webview, extensionUri: vscode.Uri, page: PageBundle): string {
  const dist = vscode.Uri.joinPath(extensionUri, 'dist');
  const asset = (file: string) => webview.asWebviewUri(vscode.Uri.joinPath(dist, file)).toString();
  return renderShell({
    cspSource: webview.cspSource,
    nonce: makeNonce(),
    scriptUri: asset(`${page.name}.js`),
    styleUri: asset(`${page.name}.css`),
    title: page.title,
    extraDirectives: page.extraDirectives,
    data: page.assets && Object.fromEntries(Object.entries(page.assets).map(([k, file]) => [k, asset(file)])),
  });
}

/**
 * A panel showing one PayGate page: its options and HTML, its messages routed to onMessage, disposed with
 * the panel, and whether a live page is there to receive (a hidden page is discarded, as the panels keep
 * no retainContextWhenHidden, and says `ready` again when shown).
 */
export abstract class PanelPage extends Disposable {
  protected isReady = false;
  readonly onDidDispose: vscode.Event<void>;

  constructor(
    readonly panel: vscode.WebviewPanel,
    extensionUri: vscode.Uri,
    page: Omit<PageBundle, 'title'>,
  ) {
    super();
    panel.webview.options = webviewOptions(extensionUri);
    this.register(panel.webview.onDidReceiveMessage((m: unknown) => this.onMessage(m)));
    this.onDidDispose = panel.onDidDispose;
    panel.onDidDispose(() => this.dispose());
    this.register(
      panel.onDidChangeViewState((e) => {
        if (!e.webviewPanel.visible) this.isReady = false;
      }),
    );
    panel.webview.html = pageHtml(panel.webview, extensionUri, { ...page, title: panel.title });
  }

  protected abstract onMessage(raw: unknown): Promise<void>;
}
