import type { Code } from './codes';

// Where a code's documentation lives. docs/rules.md has one heading per code whose anchor is the code
// itself (`## csv-syntax` → #csv-syntax), so the link is the code and nothing else. Every face that links
// a code to its entry (SARIF rules, diagnostics' code links) builds it here.

/** The project's home page (package.json `repository`). */
export const PROJECT_URL = 'https://github.com/paygate/paygate-toolkit';

/** The rule reference on the default branch. */
export const RULE_DOCS_URL = `${PROJECT_URL}/blob/main/docs/rules.md`;

/** The fragment of a code's entry in docs/rules.md. */
export function ruleAnchor(code: Code): string {
  return code;
}

export function ruleDocUrl(code: Code): string {
  return `${RULE_DOCS_URL}#${ruleAnchor(code)}`;
}
