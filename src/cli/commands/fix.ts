import { resolve } from 'node:path';
import { readBatch } from '../../core/rules/batch';
import { stripCvv } from '../../core/rules/batchEdits';
import { applySafeFixes } from '../../core/rules/fixAll';
import { lint } from '../../core/rules/lint';
import type { CliContext } from '../context';
import { displayPosition, maxBytesOption, readInput, writeFileAtomic, type Input } from '../io';
import { inputError, saidOut, usageError } from '../output';
import { ourWords, said, typed } from '../../core/output';
import { exits, paygateCommand } from '../parser';
import { collectGarbage, COLLECT_FROM_CHARS } from '../memory';

/** Fixes can uncover more fixes (a comma file rewritten, then its aliases renamed): a few passes. */
const MAX_PASSES = 4;

export interface FixOptions {
  dryRun?: true;
  stripCvv?: true;
  maxBytes?: string;
}

export function fixCommand(ctx: CliContext) {
  return paygateCommand(
    {
      name: 'fix',
      summary: 'apply the safe fixes to files (or --dry-run)',
      description:
        'Applies every safe fix of the rule book (the editor\'s "Fix all"): column renames of known aliases, rp_card_type ' +
        'upper case, expire-month padding, dates rewritten as DD.MM.YYYY, a comma or tab file rewritten with ";", the byte ' +
        'order mark dropped. Prints each change. Fixes that could lose data or only guess (clearing a DST value, renaming ' +
        'an unknown column, adding an empty column) are left to you.',
      exits: [
        [0, 'no errors remain'],
        [1, 'errors remain (see paygate lint)'],
        [2, 'usage error or unreadable file (with several files, the highest of theirs)'],
      ],
    },
    ctx,
  )
    .argument('<FILE...>', 'the files to fix in place (each written through a temporary file and a rename)')
    .option('--dry-run', 'print what would change, write nothing')
    .option(
      '--strip-cvv',
      'instead of the safe fixes: empty every cvv2 value (the column stays), as PCI DSS requires once a batch is accepted (cvv-after-send)',
    )
    .option('--max-bytes <N>', 'read files up to N bytes (default 512M; K, M, G suffixes)')
    .action(exits((files, o) => fixFiles(files, o, ctx)));
}

/** Several files (as pre-commit passes them): each is fixed on its own; the worst status wins. */
export async function fixFiles(paths: string[], values: FixOptions, ctx: CliContext): Promise<number> {
  if (paths.includes('-')) return usageError(ctx, 'paygate fix', 'give one or more FILEs (standard input cannot be fixed in place)');
  if (maxBytesOption(values.maxBytes) === null) {
    return usageError(
      ctx,
      'paygate fix',
      said`--max-bytes must be a whole number of bytes (e.g. 1073741824 or 1G), not "${typed.text(values.maxBytes)}"`,
    );
  }
  let status = 0;
  for (const path of paths)
    status = Math.max(status, await (values.stripCvv ? stripCvvFile(path, values, ctx) : fixFile(path, values, ctx)));
  return status;
}

/** Empties every cvv2 value of one file in place (or only says how many with dryRun). */
async function stripCvvFile(path: string, values: FixOptions, ctx: CliContext): Promise<number> {
  const input = await readInput(path, ctx, { maxBytes: maxBytesOption(values.maxBytes) ?? undefined });
  if (!input.ok) return inputError(ctx, 'paygate fix', input.message);
  const { text, count } = stripCvv(input.text, readBatch(input.text));
  const verb = values.dryRun ? 'would empty' : 'emptied';
  ctx.stdout(
    saidOut(said`${typed.text(input.name)}: ${ourWords(verb)} ${typed.count(count)} cvv2 value${ourWords(count === 1 ? '' : 's')}\n`),
  );
  if (count > 0 && !values.dryRun) {
    try {
      await writeFileAtomic(resolve(ctx.cwd, path), text);
    } catch (err) {
      return inputError(ctx, 'paygate fix', said`${typed.text(input.name)}: cannot write: ${typed.text((err as Error).message)}`);
    }
  }
  return 0;
}

/** Fixes one file in place (or only prints with dryRun); its exit status. */
export async function fixFile(path: string, values: FixOptions, ctx: CliContext): Promise<number> {
  let input: Input | null = await readInput(path, ctx, { maxBytes: maxBytesOption(values.maxBytes) ?? undefined });
  if (!input.ok) return inputError(ctx, 'paygate fix', input.message);

  const name = input.name;
  let text = input.text;
  // Only `text` holds the file from here: once a pass has fixed it, the next lints the fixed text without
  // the original still in memory (on a file fixed on every row, a copy of the file less at fix's peak).
  // eslint-disable-next-line no-useless-assignment -- the point: the reference to the original is dropped
  input = null;
  let changes = 0;
  /** The errors of `text` as it stands, when the last pass linted it and changed nothing. */
  let remaining: number | undefined;
  for (let pass = 0; pass < MAX_PASSES; pass++) {
    const done = fixPass(text, name, ctx);
    if (done.applied === 0) {
      remaining = done.errors;
      break;
    }
    changes += done.applied;
    text = done.text;
    // The pass's text and fixes are garbage now; collected before the next lint, not at some point during it.
    if (text.length >= COLLECT_FROM_CHARS) collectGarbage();
  }

  // Only the count is needed: no diagnostic is kept (a file broken everywhere would hold millions).
  remaining ??= lint(text, { maxDiagnostics: 0 }).omitted?.error ?? 0;
  const verb = values.dryRun ? 'would apply' : 'applied';
  const one = remaining === 1;
  ctx.stdout(
    saidOut(
      said`${typed.text(name)}: ${ourWords(verb)} ${typed.count(changes)} fix${ourWords(changes === 1 ? '' : 'es')}; ${typed.count(remaining)} error${ourWords(one ? '' : 's')} remain${ourWords(one ? 's' : '')}\n`,
    ),
  );
  if (changes > 0 && !values.dryRun) {
    try {
      await writeFileAtomic(resolve(ctx.cwd, path), text);
    } catch (err) {
      return inputError(ctx, 'paygate fix', said`${typed.text(name)}: cannot write: ${typed.text((err as Error).message)}`);
    }
  }
  return remaining > 0 ? 1 : 0;
}

/**
 * One pass: apply the safe fixes and print each. Its own function so that nothing of a pass (its list of
 * fixes, the text's line index) is still held while the next pass lints the fixed text.
 */
function fixPass(text: string, name: string, ctx: CliContext): { text: string; applied: number; errors: number } {
  const bom = text.charCodeAt(0) === 0xfeff;
  const { text: next, applied, errors } = applySafeFixes(text);
  if (applied.count === 0 || next === text) return { text, applied: 0, errors };
  for (let k = 0; k < applied.count; k++) {
    const a = applied.at(k);
    const p = displayPosition(a.range.start, bom);
    ctx.stdout(saidOut(said`${typed.text(name)}:${typed.count(p.line)}:${typed.count(p.column)}: ${typed.text(a.code)}: ${a.title}\n`));
  }
  return { text: next, applied: applied.count, errors };
}
