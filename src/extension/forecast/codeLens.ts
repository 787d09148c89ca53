import * as vscode from 'vscode';
import { LANGUAGE_ID } from '../../shared/lintProtocol';
import { headerLine } from '../submit/codeLens';

// "Forecast" beside "Submit" above a batch's header: on the first screen, so registered at activation;
// the command it runs loads with the features (register.ts).

export const SHOW_FORECAST_COMMAND = 'paygate.showForecast';

class ForecastCodeLensProvider implements vscode.CodeLensProvider {
  provideCodeLenses(document: vscode.TextDocument): vscode.CodeLens[] {
    const header = headerLine(document);
    if (header === undefined) return [];
    return [
      new vscode.CodeLens(new vscode.Range(header, 0, header, 0), {
        title: '$(graph) Forecast',
        tooltip: "Show this batch's charges by day, week or month per currency",
        command: SHOW_FORECAST_COMMAND,
        arguments: [document.uri],
      }),
    ];
  }
}

export function registerForecastLens(context: vscode.ExtensionContext): void {
  context.subscriptions.push(vscode.languages.registerCodeLensProvider({ language: LANGUAGE_ID }, new ForecastCodeLensProvider()));
}
