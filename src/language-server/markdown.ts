import type { ColumnSpec } from '../core/rules/columns';

/**
 * Text from a file (values, amounts, dates) as Markdown that shows literally: every ASCII punctuation
 * character backslash-escaped (CommonMark allows exactly that), line breaks as spaces. Clients render
 * hovers as untrusted Markdown without HTML; escaping also stops a value like `[x](command:…)` or
 * `<img>` from turning into a link or vanishing.
 */
export function escapeMarkdown(text: string): string {
  return text.replace(/[\r\n]+/g, ' ').replace(/[!-/:-@[-`{-~]/g, '\\$&');
}

/**
 * One column's documentation from the column table: the same words the README's rule table and the
 * checks use, so the editor cannot disagree with them.
 */
export function columnDoc(spec: ColumnSpec): string {
  let md = `**${escapeMarkdown(spec.name)}** — ${escapeMarkdown(spec.necessityText)}\n\n`;
  md += '| | |\n|---|---|\n';
  // valueText is the table's own Markdown (`SRC` in code spans), never text from a file.
  md += `| Value | ${spec.valueText.replace(/\|/g, '\\|')} |\n`;
  const perElement = spec.kind === 'decimal-list' ? ' per element' : '';
  md += `| Max length | ${spec.maxLength === null ? 'not limited' : `${spec.maxLength}${perElement}`} |\n`;
  md += `| DST rows | ${spec.dst ? 'may carry a value' : 'must leave it empty'} |\n`;
  if (spec.aliases.length > 0) md += `| Also read as | ${spec.aliases.map(escapeMarkdown).join(', ')} |\n`;
  if (spec.doc.trim() !== '') md += `\n${escapeMarkdown(spec.doc)}\n`;
  return md;
}
