import * as vscode from 'vscode';

// One LogOutputChannel for the whole extension (architecture habit 6). Never log secrets or card data.
// The entry bundle creates it; each lazily loaded bundle (its own copy of this module) adopts that one.
let channel: vscode.LogOutputChannel | undefined;

export function createLog(context: vscode.ExtensionContext): vscode.LogOutputChannel {
  channel = vscode.window.createOutputChannel('PayGate', { log: true });
  context.subscriptions.push(channel);
  return channel;
}

/** In a lazily loaded bundle: use the channel the entry created (never a second one). */
export function useLog(created: vscode.LogOutputChannel): void {
  channel = created;
}

export function log(): vscode.LogOutputChannel {
  if (!channel) throw new Error('PayGate log used before activation');
  return channel;
}

/** A short message for the user with a "Show log" action; the details belong in the log. */
export async function showErrorWithLog(message: string): Promise<void> {
  const choice = await vscode.window.showErrorMessage(message, 'Show log');
  if (choice === 'Show log') channel?.show(true);
}
