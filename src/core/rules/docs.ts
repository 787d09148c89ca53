import { CodeInfo, FixDocs, type Code } from './codes';
import { COLUMNS } from './columns';

// The README's rule tables, rendered from the column table and the code table so the documentation
// cannot drift from the checks (a unit test compares the README with these).

const cell = (s: string) => s.replace(/\|/g, '\\|');

export function renderColumnTable(): string {
  const lines = [
    '| column | necessity | value | max length | DST | also accepted (renamed by the alias fix) | notes |',
    '|---|---|---|---:|---|---|---|',
  ];
  for (const c of COLUMNS) {
    const aliases = c.aliases.map((a) => `\`${a}\``).join(', ');
    lines.push(`| \`${c.name}\` | ${cell(c.necessityText)} | ${cell(c.valueText)} | ${c.maxLength === null ? '—' : c.maxLength} | ${c.dst ? 'yes' : 'no'} | ${aliases} | ${cell(c.doc)} |`);
  }
  return lines.join('\n');
}

export function renderCodeTable(): string {
  const lines = ['| code | severity | where | when | quick fix |', '|---|---|---|---|---|'];
  for (const [code, info] of Object.entries(CodeInfo) as [Code, (typeof CodeInfo)[Code]][]) {
    lines.push(`| <a id="rule-${code}"></a>\`${code}\` | ${info.severity} | ${info.where} | ${cell(info.when)} | ${cell(FixDocs[code] ?? '')} |`);
  }
  return lines.join('\n');
}

/** Replaces `<!-- NAME:start -->…<!-- NAME:end -->` in a Markdown text; undefined if the markers are missing. */
export function replaceRegion(markdown: string, name: string, body: string): string | undefined {
  const start = `<!-- ${name}:start -->`;
  const end = `<!-- ${name}:end -->`;
  const a = markdown.indexOf(start);
  const b = markdown.indexOf(end);
  if (a === -1 || b < a) return undefined;
  return `${markdown.slice(0, a + start.length)}\n${body}\n${markdown.slice(b)}`;
}
