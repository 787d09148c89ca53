// The forecast panel of one batch, beside it: a PanelPage (the results page's shell, CSP and ready
// handshake), recomputation after edits (debounced; the last edit wins), the rows of a clicked period,
// revealing a line and the three exports.
import * as vscode from 'vscode';
import { exportNeutralisesFormulas } from '../exportSetting';
import type { CalendarDate } from '../../core/dates';
import { forecastCsv } from '../../core/forecast/csv';
import {
  FORECAST_VIEW_TYPE,
  isForecastPageToHost,
  type ForecastBy,
  type ForecastHostToPage,
  type ForecastPageToHost,
} from '../../shared/forecastProtocol';
import { said, typed } from '../../core/output';
import { log } from '../log';
import { showInfo, shown } from '../say';
import { PanelPage, webviewOptions } from '../results/webviewPage';
import { dataUrlBytes, exportWords, saveAs } from '../results/saveAs';
import { BatchForecast } from './compute';

/** Quiet time after the last edit before the batch is read again: typing never waits on a forecast. */
export const RECOMPUTE_DELAY_MS = 400;

const baseName = (uri: vscode.Uri) => uri.path.slice(uri.path.lastIndexOf('/') + 1);

/** The gateway's today (the day a row without start-date starts on) and when it changes. */
export interface ForecastGateway {
  today(): CalendarDate;
  onDidChangeToday: vscode.Event<void>;
}

export class ForecastPanel extends PanelPage {
  private by: ForecastBy = 'month';
  private current: BatchForecast | undefined;
  private generation = 0;
  private timer: ReturnType<typeof setTimeout> | undefined;

  // The page's lifecycle (options, HTML, messages, disposal, the live-page flag) is PanelPage's.
  private constructor(
    panel: vscode.WebviewPanel,
    private document: vscode.TextDocument,
    extensionUri: vscode.Uri,
    private readonly gateway: ForecastGateway,
  ) {
    super(panel, extensionUri, { name: 'forecast' });
    this.register(panel);
    this.register(
      vscode.workspace.onDidChangeTextDocument((e) => {
        if (e.document === this.document && e.contentChanges.length > 0) this.schedule();
      }),
    );
    // The gateway's date moved (the local gateway's clock, another environment): rows without start-date move with it.
    this.register(gateway.onDidChangeToday(() => this.schedule()));
    this.register({ dispose: () => clearTimeout(this.timer) });
  }

  static open(document: vscode.TextDocument, extensionUri: vscode.Uri, gateway: ForecastGateway): ForecastPanel {
    const panel = vscode.window.createWebviewPanel(
      FORECAST_VIEW_TYPE,
      shown(said`Forecast: ${typed.text(baseName(document.uri))}`),
      // Beside the batch, keeping the focus in it: the chart is for looking while typing.
      { viewColumn: vscode.ViewColumn.Beside, preserveFocus: true },
      webviewOptions(extensionUri),
    );
    return new ForecastPanel(panel, document, extensionUri, gateway);
  }

  get uri(): vscode.Uri {
    return this.document.uri;
  }

  reveal(): void {
    this.panel.reveal(undefined, true);
  }

  private schedule(): void {
    clearTimeout(this.timer);
    if (this.isReady) void this.post({ type: 'computing' });
    this.timer = setTimeout(() => void this.recompute(), RECOMPUTE_DELAY_MS);
  }

  private async recompute(): Promise<void> {
    if (this.isDisposed) return;
    const generation = ++this.generation;
    const started = Date.now();
    this.current = BatchForecast.compute(this.document.getText(), this.by, this.gateway.today());
    log().info(
      said`Forecast of ${typed.text(baseName(this.document.uri))} by ${typed.text(this.by)}: ${typed.count(Date.now() - started)} ms`,
    );
    if (this.isReady)
      await this.post({ type: 'forecast', file: baseName(this.document.uri), generation, forecast: this.current.run.forecast });
  }

  private post(msg: ForecastHostToPage): Thenable<boolean> {
    return this.panel.webview.postMessage(msg);
  }

  protected async onMessage(raw: unknown): Promise<void> {
    if (!isForecastPageToHost(raw)) {
      log().warn(said`Forecast panel: ignored a message that does not match the protocol`);
      return;
    }
    const msg: ForecastPageToHost = raw;
    switch (msg.type) {
      case 'ready':
        this.isReady = true;
        await this.recompute();
        break;
      case 'setBy':
        this.by = msg.by;
        await this.recompute();
        break;
      case 'bucket': {
        const { rows, total } = this.current?.rowsIn(msg.period) ?? { rows: [], total: 0 };
        await this.post({ type: 'bucketRows', period: msg.period, rows, total });
        break;
      }
      case 'reveal':
        await this.revealLine(msg.line);
        break;
      case 'export':
        await this.export(msg);
        break;
      case 'log':
        log()[msg.level](said`Forecast page: ${typed.text(msg.message)}`);
        break;
    }
  }

  private async revealLine(line: number): Promise<void> {
    const position = new vscode.Position(Math.min(line, this.document.lineCount) - 1, 0);
    const beside = vscode.window.visibleTextEditors.find((e) => e.document === this.document);
    await vscode.window.showTextDocument(this.document, {
      viewColumn: beside?.viewColumn ?? vscode.ViewColumn.One,
      selection: new vscode.Range(position, position),
      preserveFocus: false,
    });
  }

  private async export(msg: Extract<ForecastPageToHost, { type: 'export' }>): Promise<void> {
    const forecast = this.current?.run.forecast;
    if (!forecast) return;
    const stem = `${baseName(this.document.uri).replace(/\.[^.]*$/, '')}-forecast-by-${forecast.by}`;
    await saveAs({
      suggestedName: `${stem}.${msg.format}`,
      filters: { [msg.format.toUpperCase()]: [msg.format] },
      saveLabel: `Export ${msg.format.toUpperCase()}`,
      bytes: () =>
        msg.format === 'png'
          ? dataUrlBytes(msg.dataUrl)
          : // CSV through the boundary, formulas neutralised unless the user turned it off (as the table's export).
            new TextEncoder().encode(msg.format === 'svg' ? msg.svg : forecastCsv(forecast, !exportNeutralisesFormulas())),
      tell: (ok, message) => this.post({ type: 'exportDone', ok, message }),
      words: exportWords((file) => said`Exported to ${typed.text(file)}.`),
      logAs: 'Forecast panel: export',
      afterSave: (target) => void showInfo(said`PayGate: exported the forecast to ${typed.text(target.fsPath)}.`),
    });
  }
}
