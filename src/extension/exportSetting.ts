import * as vscode from 'vscode';

/**
 * `paygate.export.neutraliseFormulas`: whether a CSV the editor exports (the table's rows, the forecast's
 * buckets) neutralises cells a spreadsheet would run as formulas. Read here only, at each export.
 */
export function exportNeutralisesFormulas(): boolean {
  return vscode.workspace.getConfiguration('paygate.export').get<boolean>('neutraliseFormulas', true);
}
