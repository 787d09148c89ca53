import { Codes, CodeInfo } from './codes';
import type { Batch } from './batch';
import { isPublishedTestCard } from './testCards';
import type { LintDiagnostic } from './types';
import { luhnValid } from './values';

// `card-data-in-git`: a batch holding real card numbers that git tracks, or would take with the next
// `git add .`. PCI DSS forbids storing card numbers unprotected, and a repository is storage that is
// copied to every clone and kept in history. The check itself is pure: the face asks git (core/git.ts)
// and says what it found.

/** Where a file stands with git: tracked, in a work tree and not ignored, ignored, or in no work tree. */
export type GitTracking = 'tracked' | 'unignored' | 'ignored' | 'outside';

const CARD_COLUMN = 'credit-card-number';

/** A full card number: 12–19 digits passing Luhn, and not one of the schemes' published test numbers. */
export function isFullCardNumber(value: string): boolean {
  return /^\d{12,19}$/.test(value) && luhnValid(value) && !isPublishedTestCard(value);
}

/** The warning on the first cell holding a full card number, when git keeps or would keep the file. */
export function cardDataInGit(batch: Batch, tracking: GitTracking, fileName: string): LintDiagnostic | undefined {
  if (tracking !== 'tracked' && tracking !== 'unignored') return undefined;
  const column = batch.columnIndex.get(CARD_COLUMN);
  if (column === undefined) return undefined;
  for (const row of batch.rows) {
    const value = row.record.values[column];
    if (value === undefined || !isFullCardNumber(value.trim())) continue;
    const start = row.record.fieldStart(column);
    const message =
      tracking === 'tracked'
        ? `${fileName} holds full card numbers and git tracks it: every clone and the history keep them. Remove it from the repository (git rm --cached ${fileName}) and from its history (git filter-repo or BFG), then keep batches git-ignored or outside the work tree.`
        : `${fileName} holds full card numbers and lies in a git work tree without being ignored: the next commit may store them. Add it to .gitignore, or keep batches outside the work tree.`;
    return {
      code: Codes.cardDataInGit,
      severity: CodeInfo[Codes.cardDataInGit].severity,
      message,
      range: batch.csv.index.range(start, start + value.length),
      columnName: CARD_COLUMN,
      fixes: [],
    };
  }
  return undefined;
}

/**
 * The `.gitignore` text with `entry` (a path relative to the work tree's root, `/`-separated) added on a
 * line of its own, anchored at the root so it names this file only. Unchanged when the line is there.
 */
export function withGitignoreEntry(gitignore: string, entry: string): string {
  const line = `/${entry.replace(/^\/+/, '').replace(/([\\*?[\]!# ])/g, '\\$1')}`;
  const lines = gitignore.split(/\r?\n/);
  if (lines.includes(line)) return gitignore;
  const eol = gitignore.includes('\r\n') ? '\r\n' : '\n';
  const sep = gitignore === '' || gitignore.endsWith('\n') ? '' : eol;
  return `${gitignore}${sep}${line}${eol}`;
}
