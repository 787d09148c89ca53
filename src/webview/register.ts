import * as vscode from 'vscode';

/** What the other faces may ask of the results panel. (Being built.) */
export interface ResultsPanelApi {
  // Filled in by the results-panel work: showReport, showSubmission, openCsv...
}

export function registerResultsPanel(_context: vscode.ExtensionContext): ResultsPanelApi {
  return {};
}
