import * as vscode from 'vscode';
import { terminalSafe } from '../core/output';

// Every message the editor shows a person passes the output boundary (src/core/output): card numbers
// masked, labelled CVVs hidden, control characters shown escaped. A message is built from a file name, an
// answer's error-message or a cell, so each of these is safe without remembering to be. `vscode.window`'s
// own show…Message is not called anywhere else (ESLint refuses it outside this file); the log is safe the
// same way (./log.ts).

/** A message's text as the editor shows it. */
export const shown = (text: string): string => terminalSafe(text);

type Show = (message: string, ...rest: unknown[]) => Thenable<unknown>;
type Kind = 'showErrorMessage' | 'showWarningMessage' | 'showInformationMessage';

/** The options' detail (a modal's second paragraph) passes the boundary too; items are our own words. */
function through(kind: Kind, message: string, rest: unknown[]): Thenable<never> {
  const [first, ...others] = rest;
  // Options are the one argument that is an object without a title (a MessageItem has one).
  const isOptions = typeof first === 'object' && first !== null && !('title' in first);
  const options = first as vscode.MessageOptions;
  const safe = isOptions && options.detail !== undefined ? [{ ...options, detail: shown(options.detail) }, ...others] : rest;
  // Looked up at each call (a test may stand in for the editor's window).
  const show = vscode.window[kind] as Show;
  // eslint-disable-next-line no-restricted-syntax -- bounded: the options and a few buttons
  return show.call(vscode.window, shown(message), ...safe) as Thenable<never>;
}

interface Say {
  <T extends string>(message: string, ...items: T[]): Thenable<T | undefined>;
  <T extends string>(message: string, options: vscode.MessageOptions, ...items: T[]): Thenable<T | undefined>;
  <T extends vscode.MessageItem>(message: string, ...items: T[]): Thenable<T | undefined>;
  <T extends vscode.MessageItem>(message: string, options: vscode.MessageOptions, ...items: T[]): Thenable<T | undefined>;
}

export const showError: Say = (message: string, ...rest: unknown[]) => through('showErrorMessage', message, rest);
export const showWarning: Say = (message: string, ...rest: unknown[]) => through('showWarningMessage', message, rest);
export const showInfo: Say = (message: string, ...rest: unknown[]) => through('showInformationMessage', message, rest);
