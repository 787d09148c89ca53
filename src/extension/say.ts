import type * as vscode from 'vscode';
import { window } from 'vscode';
import type { Part, Said } from '../core/output';
import type * as Boundary from './boundary';

// Every message the editor shows a person passes the output boundary (src/core/output): card numbers
// masked, labelled CVVs hidden, control characters shown escaped. A message is built from a file name, an
// answer's error-message or a cell, so each of these is safe without remembering to be. `vscode.window`'s
// own show…Message is not called anywhere else (ESLint refuses it outside this file); the log is safe the
// same way (./log.ts).
//
// Mask values, not layouts (issue 38): a message that shows dates, amounts, counts, hashes or ids is a `Said`
// (said`…${typed.date(d)}…`, src/core/output/said.ts), each value checked alone by its type, so two values
// meeting on the line are never read as one card number. What this file shows takes a `Said` only (a plain
// string does not compile): free text is a `typed.text` part of one, our words the literal words.

let floor: typeof Boundary | undefined;
/**
 * The output boundary (./boundary.ts), required when first used rather than with the entry bundle: its patterns compile as
 * it loads, and activation shows and writes nothing (issue 40). The log (./log.ts) reads it through here too. In the
 * extension's bundles this require is of dist/boundary.js, a bundle of its own that they share (esbuild.js).
 */
// eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded on first use, not with the entry
export const boundary = (): typeof Boundary => (floor ??= require('./boundary') as typeof Boundary);

/**
 * A message's text as the editor shows it: a `Said` part by part. Anything else (a string cast past the types,
 * an object from another bundle that is no `Said`) is read whole as free text.
 */
export const shown = (text: Said): string => {
  const { isSaid, saidText, terminalSafe } = boundary();
  return isSaid(text) ? saidText(text) : terminalSafe(typeof text === 'string' ? text : JSON.stringify(text));
};

type Show = (message: string, ...rest: unknown[]) => Thenable<unknown>;
/** Message options whose detail (a modal's second paragraph) is a `Said` too. */
export type SayOptions = Omit<vscode.MessageOptions, 'detail'> & { detail?: Said };
type Kind = 'showErrorMessage' | 'showWarningMessage' | 'showInformationMessage';

/** The options' detail (a modal's second paragraph) passes the boundary too; items are our own words. */
function through(kind: Kind, message: Said, rest: unknown[]): Thenable<never> {
  const [first, ...others] = rest;
  // Options are the one argument that is an object without a title (a MessageItem has one).
  const isOptions = typeof first === 'object' && first !== null && !('title' in first);
  const options = first as SayOptions;
  const safe = isOptions && options.detail !== undefined ? [{ ...options, detail: shown(options.detail) }, ...others] : rest;
  // Looked up at each call (a test may stand in for the editor's window).
  const show = window[kind] as Show;
  // eslint-disable-next-line no-restricted-syntax -- bounded: the options and a few buttons
  return show.call(window, shown(message), ...safe) as Thenable<never>;
}

interface Say {
  <T extends string>(message: Said, ...items: T[]): Thenable<T | undefined>;
  <T extends string>(message: Said, options: SayOptions, ...items: T[]): Thenable<T | undefined>;
  <T extends vscode.MessageItem>(message: Said, ...items: T[]): Thenable<T | undefined>;
  <T extends vscode.MessageItem>(message: Said, options: SayOptions, ...items: T[]): Thenable<T | undefined>;
}

export const showError: Say = (message: Said, ...rest: unknown[]) => through('showErrorMessage', message, rest);
export const showWarning: Say = (message: Said, ...rest: unknown[]) => through('showWarningMessage', message, rest);
export const showInfo: Say = (message: Said, ...rest: unknown[]) => through('showInformationMessage', message, rest);

/** An item of a pick list: its words are `Said`s. */
export interface PickItem {
  label: Said;
  description?: Said;
  detail?: Said;
  kind?: vscode.QuickPickItemKind;
}
type PickOptions = Omit<vscode.QuickPickOptions, 'title' | 'placeHolder' | 'canPickMany'> & { title?: Said; placeHolder?: Said };

/** A pick list through the same floor: each item's words, the title and the placeholder; the item chosen comes back as given. */
export async function showPick<T extends PickItem>(items: readonly T[], options: PickOptions): Promise<T | undefined> {
  const opt = (s: Said | undefined) => (s === undefined ? undefined : shown(s));
  const safe = items.map((i) => ({ label: shown(i.label), description: opt(i.description), detail: opt(i.detail), kind: i.kind }));
  const chosen = await window.showQuickPick(safe, { ...options, title: opt(options.title), placeHolder: opt(options.placeHolder) });
  return chosen === undefined ? undefined : items[safe.indexOf(chosen)];
}

/**
 * An input box's words as `Said`s: the title, the prompt, the placeholder and each validation message. `value`
 * (the text the box starts with) is a typed value: shown only if the floor leaves it as it is, for whatever the
 * box holds comes back as the answer, and a masked default accepted as it stands would be a damaged answer.
 */
export interface AskOptions extends Omit<vscode.InputBoxOptions, 'title' | 'prompt' | 'placeHolder' | 'value' | 'validateInput'> {
  title?: Said;
  prompt?: Said;
  placeHolder?: Said;
  value?: Part;
  validateInput?: (value: string) => Said | undefined;
}

/** An input box through the same floor; the answer comes back as typed. */
export function ask(options: AskOptions): Thenable<string | undefined> {
  const { title, prompt, placeHolder, value, validateInput, valueSelection, ...rest } = options;
  const opt = (s: Said | undefined) => (s === undefined ? undefined : shown(s));
  const start = value === undefined ? undefined : shown({ said: [value] });
  const kept = start !== undefined && start === value?.[1];
  return window.showInputBox({
    ...rest,
    title: opt(title),
    prompt: opt(prompt),
    placeHolder: opt(placeHolder),
    ...(kept ? { value: start, valueSelection } : {}),
    ...(validateInput ? { validateInput: (v: string) => opt(validateInput(v)) } : {}),
  });
}

/** A progress notification's reports: each message a `Said`. */
export interface SaidProgress {
  report(value: { message?: Said; increment?: number }): void;
}

/** A progress notification through the same floor: its title and each message reported. */
export function withProgress<R>(
  options: Omit<vscode.ProgressOptions, 'title'> & { title?: Said },
  task: (progress: SaidProgress, token: vscode.CancellationToken) => Thenable<R>,
): Thenable<R> {
  const { title, ...rest } = options;
  return window.withProgress({ ...rest, ...(title ? { title: shown(title) } : {}) }, (progress, token) =>
    task({ report: ({ message, increment }) => progress.report({ ...(message ? { message: shown(message) } : {}), increment }) }, token),
  );
}
