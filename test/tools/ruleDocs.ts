import { CodeInfo, FixDocs, type Code } from '../../src/core/rules/codes';
import { COLUMNS } from '../../src/core/rules/columns';
import { PUBLISHED_TEST_CARDS } from '../../src/core/rules/testCards';

// The rule book's tables in docs/rules.md, rendered from the column table and the code table so the
// documentation cannot drift from the checks (a unit test compares docs/rules.md with these). A tool of
// `npm run readme`, not of the product: the links a diagnostic carries are built in src/core/rules/links.ts.

const cell = (s: string) => s.replace(/\|/g, '\\|');

export function renderColumnTable(): string {
  const lines = [
    '| column | necessity | value | max length | DST | also accepted (renamed by the alias fix) | notes |',
    '|---|---|---|---:|---|---|---|',
  ];
  for (const c of COLUMNS) {
    const aliases = c.aliases.map((a) => `\`${a}\``).join(', ');
    lines.push(
      `| \`${c.name}\` | ${cell(c.necessityText)} | ${cell(c.valueText)} | ${c.maxLength === null ? '—' : c.maxLength} | ${c.dst ? 'yes' : 'no'} | ${aliases} | ${cell(c.doc)} |`,
    );
  }
  return lines.join('\n');
}

export function renderCodeTable(): string {
  const lines = ['| code | severity | where | when | quick fix |', '|---|---|---|---|---|'];
  for (const [code, info] of Object.entries(CodeInfo) as [Code, (typeof CodeInfo)[Code]][]) {
    // `<a id="CODE">` is what ruleDocUrl links to; `rule-CODE` keeps the README's old links working.
    lines.push(
      `| <a id="${code}"></a><a id="rule-${code}"></a>\`${code}\` | ${info.severity} | ${info.where} | ${cell(info.when)} | ${cell(FixDocs[code] ?? '')} |`,
    );
  }
  return lines.join('\n');
}

/**
 * The README's one-paragraph index of the codes by severity, each linking to its entry in docs/rules.md.
 * Each carries the old `rule-CODE` anchor, so links made to the README before the rule book moved still
 * land on the code.
 */
export function renderCodeIndex(rulesPath = 'docs/rules.md'): string {
  const groups: [string, string][] = [
    ['error', 'Errors'],
    ['warning', 'Warnings'],
    ['information', 'Information'],
  ];
  const entries = Object.entries(CodeInfo) as [Code, (typeof CodeInfo)[Code]][];
  return groups
    .map(([severity, title]) => {
      const links = entries
        .filter(([, info]) => info.severity === severity)
        .map(([code]) => `<a id="rule-${code}"></a>[\`${code}\`](${rulesPath}#${code})`);
      return `**${title}**: ${links.join(' · ')}`;
    })
    .join('\n\n');
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

/** The published test numbers card-data-in-git never reports, as a table for docs/rules.md. */
export function renderTestCards(): string {
  return ['| number | scheme |', '|---|---|', ...PUBLISHED_TEST_CARDS.map((c) => `| \`${c.number}\` | ${c.scheme} |`)].join('\n');
}
