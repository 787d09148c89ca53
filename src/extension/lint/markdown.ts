import * as vscode from 'vscode';
import type { ColumnSpec } from '../../core/rules/columns';

/**
 * Text from a file (values, amounts, dates) as Markdown that shows literally: every ASCII punctuation
 * character backslash-escaped (CommonMark allows exactly that), line breaks as spaces. Hovers are never
 * trusted and never render HTML; escaping also stops a value like `[x](command:…)` or `<img>` from
 * turning into a link or vanishing.
 */
export function escapeMarkdown(text: string): string {
  return text.replace(/[\r\n]+/g, ' ').replace(/[!-/:-@[-`{-~]/g, '\\$&');
}

/** A new MarkdownString that is plain Markdown only: no command links, no HTML. */
export function plainMarkdown(): vscode.MarkdownString {
  const md = new vscode.MarkdownString('', false);
  md.isTrusted = false;
  md.supportHtml = false;
  return md;
}

/**
 * One column's documentation from the column table: the same words the README's rule table and the
 * checks use, so the editor cannot disagree with them.
 */
export function appendColumnDoc(md: vscode.MarkdownString, spec: ColumnSpec): vscode.MarkdownString {
  md.appendMarkdown(`**${escapeMarkdown(spec.name)}** — ${escapeMarkdown(spec.necessityText)}\n\n`);
  md.appendMarkdown('| | |\n|---|---|\n');
  // valueText is the table's own Markdown (`SRC` in code spans), never text from a file.
  md.appendMarkdown(`| Value | ${spec.valueText.replace(/\|/g, '\\|')} |\n`);
  const perElement = spec.kind === 'decimal-list' ? ' per element' : '';
  md.appendMarkdown(`| Max length | ${spec.maxLength === null ? 'not limited' : `${spec.maxLength}${perElement}`} |\n`);
  md.appendMarkdown(`| DST rows | ${spec.dst ? 'may carry a value' : 'must leave it empty'} |\n`);
  if (spec.aliases.length > 0) {
    md.appendMarkdown(`| Also read as | ${spec.aliases.map(escapeMarkdown).join(', ')} |\n`);
  }
  if (spec.doc.trim() !== '') md.appendMarkdown(`\n${escapeMarkdown(spec.doc)}\n`);
  return md;
}

export function columnDoc(spec: ColumnSpec): vscode.MarkdownString {
  return appendColumnDoc(plainMarkdown(), spec);
}
