import * as vscode from 'vscode';
import { Codes } from '../../core/rules/codes';
import { safeFixEdits } from '../../core/rules/fixAll';
import type { LintResult } from '../../core/rules/lint';
import type { LintDiagnostic } from '../../core/rules/types';
import type { TextEdit } from '../../core/text';
import { DIAGNOSTIC_SOURCE, FIX_ALL_KIND, LANGUAGE_ID } from './constants';
import { findLintDiagnostic, toWorkspaceEdit } from './convert';
import type { LintStore } from './store';

/**
 * Quick fixes come from the core's fixes of the diagnostic under the cursor, found again in the cached
 * lint by code, message and range (VS Code hands back copies of our diagnostics, not the objects).
 */
export class PaygateCodeActions implements vscode.CodeActionProvider {
  static readonly providedCodeActionKinds = [vscode.CodeActionKind.QuickFix, FIX_ALL_KIND];

  constructor(private readonly store: LintStore) {}

  provideCodeActions(
    document: vscode.TextDocument,
    _range: vscode.Range | vscode.Selection,
    context: vscode.CodeActionContext,
  ): vscode.CodeAction[] {
    // The lightbulb asks on every cursor move: without one of our diagnostics there is nothing to fix,
    // and linting a file that changed since its last check would defeat the debounce and onSave.
    const quickFixes = wants(context, vscode.CodeActionKind.QuickFix) && context.diagnostics.some((d) => d.source === DIAGNOSTIC_SOURCE);
    // Source actions are only ever shown on request (Source Action…, codeActionsOnSave, the API).
    const fixAll = context.only !== undefined && wants(context, FIX_ALL_KIND);
    if (!quickFixes && !fixAll) return [];
    const result = this.store.get(document);
    const actions: vscode.CodeAction[] = [];
    if (quickFixes) {
      let offeredDstSweep = false;
      let mendsSafely = false;
      for (const diagnostic of context.diagnostics) {
        const mended = findLintDiagnostic(result.diagnostics, diagnostic);
        if (!mended) continue;
        mendsSafely ||= mended.fixes.some((f) => f.safe);
        for (const fix of mended.fixes) {
          const action = new vscode.CodeAction(fix.title, vscode.CodeActionKind.QuickFix);
          action.diagnostics = [diagnostic];
          action.isPreferred = fix.preferred === true;
          action.edit = toWorkspaceEdit(document.uri, fix.edits);
          actions.push(action);
        }
        if (mended.code === Codes.dstUnsupported && !offeredDstSweep) {
          const sweep = dstSweep(document, result, mended);
          if (sweep) {
            sweep.diagnostics = context.diagnostics.filter((d) => findLintDiagnostic(result.diagnostics, d)?.code === Codes.dstUnsupported);
            actions.push(sweep);
            offeredDstSweep = true;
          }
        }
      }
      // Next to a safe fix, the same fix-all the save action runs, when it would do more than this one.
      if (mendsSafely && result.diagnostics.filter((d) => d.fixes.some((f) => f.safe)).length > 1) {
        const action = new vscode.CodeAction('Fix all safe PayGate problems in the file', vscode.CodeActionKind.QuickFix);
        action.edit = toWorkspaceEdit(document.uri, safeFixEdits(result));
        actions.push(action);
      }
    }
    if (fixAll) {
      const edits = safeFixEdits(result);
      if (edits.length > 0) {
        const action = new vscode.CodeAction('Fix all safe PayGate problems', FIX_ALL_KIND);
        action.edit = toWorkspaceEdit(document.uri, edits);
        actions.push(action);
      }
    }
    return actions;
  }
}

/** Whether the request (lightbulb, Quick Fix menu, codeActionsOnSave, Source Action…) asks for `kind`. */
function wants(context: vscode.CodeActionContext, kind: vscode.CodeActionKind): boolean {
  return !context.only || context.only.contains(kind) || kind.contains(context.only);
}

/**
 * "Clear every DST-unsupported value in the file": the clear-cell fix of each dst-unsupported diagnostic,
 * in one edit. Offered only when there is more than the one cell the single fix already clears.
 */
function dstSweep(document: vscode.TextDocument, result: LintResult, mended: LintDiagnostic): vscode.CodeAction | undefined {
  const all = result.diagnostics.filter((d) => d.code === Codes.dstUnsupported);
  if (all.length < 2) return undefined;
  // When the core already offers a file-wide fix, that one is shown and this would duplicate it.
  if (mended.fixes.some((f) => f.edits.length > 1)) return undefined;
  const edits: TextEdit[] = [];
  for (const d of all) {
    const fix = d.fixes.find((f) => f.safe) ?? d.fixes[0];
    if (fix) edits.push(...fix.edits);
  }
  if (edits.length === 0) return undefined;
  const action = new vscode.CodeAction(`Clear every DST-unsupported value in the file (${all.length} cells)`, vscode.CodeActionKind.QuickFix);
  action.edit = toWorkspaceEdit(document.uri, edits);
  return action;
}

export function registerCodeActions(context: vscode.ExtensionContext, store: LintStore): void {
  context.subscriptions.push(
    vscode.languages.registerCodeActionsProvider({ language: LANGUAGE_ID }, new PaygateCodeActions(store), {
      providedCodeActionKinds: PaygateCodeActions.providedCodeActionKinds,
    }),
  );
}
