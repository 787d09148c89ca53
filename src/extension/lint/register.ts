import * as vscode from 'vscode';

// Diagnostics, code actions, hover and completion for paygate-recurring-csv. (Being built.)
export function registerLinting(_context: vscode.ExtensionContext): void {}
