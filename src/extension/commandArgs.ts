import * as vscode from 'vscode';

// Commands are reached from the palette (no arguments), the editor title and CodeLens (a Uri), the
// explorer (a Uri and the selected Uris) and from tests or automation (a Uri or path plus an options
// object). These helpers read whichever of those arrived.

export type CommandArgs = unknown[];

function asUri(v: unknown): vscode.Uri | undefined {
  if (v instanceof vscode.Uri) return v;
  if (typeof v === 'string' && v !== '') return v.includes('://') ? vscode.Uri.parse(v) : vscode.Uri.file(v);
  return undefined;
}

/**
 * The first Uri-like argument, else the active editor's document, else the active tab's file (a batch
 * over 50 MB has a tab but no editor an extension can see: bigBatch.ts).
 */
export function uriArg(args: CommandArgs): vscode.Uri | undefined {
  for (const a of args) {
    const u = asUri(a);
    if (u) return u;
  }
  const input = vscode.window.tabGroups.activeTabGroup.activeTab?.input;
  return vscode.window.activeTextEditor?.document.uri ?? (input instanceof vscode.TabInputText ? input.uri : undefined);
}

/** The first plain object argument that is not a Uri or a list of Uris (the explorer passes those). */
export function optionsArg<T extends object>(args: CommandArgs): Partial<T> {
  for (const a of args) {
    if (a && typeof a === 'object' && !(a instanceof vscode.Uri) && !Array.isArray(a)) return a as Partial<T>;
  }
  return {};
}
