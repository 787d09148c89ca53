import type * as vscode from 'vscode';
import type { LocalGatewayManager } from './localGateway';
import type { EnvironmentStatus } from './statusBar';

/** The environments' part of what the entry bundle keeps for the bundles it loads (../entryState.ts). */
export interface EnvironmentsEntry {
  /** The status bar item, made by dist/first-screen.js: the first read loads that bundle if it is not yet. */
  readonly status: EnvironmentStatus;
  /** Fires when something that decides the target changed (settings, trust, the local gateway, its clock). */
  targetChanged: vscode.EventEmitter<void>;
  /** The local gateway `local` uses, once the features bundle made it. */
  local: { manager?: LocalGatewayManager };
}
