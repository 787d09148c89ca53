import * as vscode from 'vscode';
import type { Code } from '../../core/rules/codes';

export const LANGUAGE_ID = 'paygate-recurring-csv';
export const DIAGNOSTIC_SOURCE = 'paygate';

/**
 * Every diagnostic links to its row of the README's rule table, whose rows carry `<a id="rule-CODE"></a>`
 * anchors. This is the one place the link is built.
 */
export const RULE_DOC_BASE = 'https://github.com/paygate/paygate-toolkit#rule-';

export function ruleDocUri(code: Code): vscode.Uri {
  return vscode.Uri.parse(RULE_DOC_BASE + code);
}

/** `editor.codeActionsOnSave: { "source.fixAll.paygate": "explicit" }` asks for this kind. */
export const FIX_ALL_KIND = vscode.CodeActionKind.SourceFixAll.append('paygate');

/** Views of a file from source control or logs are not the file itself: their problems would be noise. */
const SKIPPED_SCHEMES = new Set(['git', 'gitfs', 'output', 'vscode-scm', 'debug']);

export function isRecurringCsv(document: vscode.TextDocument): boolean {
  return document.languageId === LANGUAGE_ID && !SKIPPED_SCHEMES.has(document.uri.scheme);
}
