// What every PayGate webview page shares on the host side: the same options (scripts on, forms and
// command links off, only the built assets reachable) and the same HTML shell and CSP (html.ts), each
// page naming its own bundle in dist/.
import * as vscode from 'vscode';
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
