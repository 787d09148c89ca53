// Entry of the forecast page (bundled by esbuild.js to dist/forecast.js, its CSS with uPlot's to dist/forecast.css).
import './style.css';
import { FORECAST_PROTOCOL_VERSION, isForecastHostToPage } from '../../src/shared/forecastProtocol';
import { ForecastView } from './view';
import type { VsCodeApi } from '../dom';
import type { ForecastPageToHost } from '../../src/shared/forecastProtocol';

declare function acquireVsCodeApi(): VsCodeApi<ForecastPageToHost>;

const vscode = acquireVsCodeApi();
const view = new ForecastView(document.getElementById('app')!, vscode);

window.addEventListener('message', (event: MessageEvent) => {
  // Only the host posts to this page; anything not shaped like the protocol is ignored, not trusted.
  if (isForecastHostToPage(event.data)) view.handle(event.data);
  else vscode.postMessage({ type: 'log', level: 'warn', message: 'Ignored a message that does not match the protocol.' });
});

vscode.postMessage({ type: 'ready', version: FORECAST_PROTOCOL_VERSION });
