// Entry of the results page (bundled by esbuild.js to dist/webview-ui.js, CSS to dist/webview-ui.css).
import './style.css';
import { PROTOCOL_VERSION, isHostToPage, isPersistedState, type PageToHost, type PersistedState } from '../src/shared/resultsProtocol';
import { App } from './app';
import type { VsCodeApi } from './dom';
import csvWorker from './csvWorker?worker';
import { ParseWorker } from './parseWorker';

declare function acquireVsCodeApi(): VsCodeApi<PageToHost, PersistedState>;

const vscode = acquireVsCodeApi();
const app = new App(document.getElementById('app')!, vscode, new ParseWorker(csvWorker));

window.addEventListener('message', (event: MessageEvent) => {
  // Only the host posts to this page; anything not shaped like the protocol is ignored, not trusted.
  if (isHostToPage(event.data)) app.handle(event.data);
  else vscode.postMessage({ type: 'log', level: 'warn', message: 'Ignored a message that does not match the protocol.' });
});

const saved = vscode.getState();
const restored = isPersistedState(saved) ? app.restore(saved) : false;
vscode.postMessage({ type: 'ready', version: PROTOCOL_VERSION, restored });
