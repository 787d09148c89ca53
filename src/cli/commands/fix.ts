import { fixAll } from '../../core/rules/fixAll';
import { lint } from '../../core/rules/lint';
import { commandArgs } from '../args';
import type { Command } from '../command';
import { displayPosition, readInput, writeFileAtomic } from '../io';

const HELP = `Usage: paygate fix FILE... [--dry-run]

Applies every safe fix of the rule book (the editor's "Fix all"): column renames of known aliases,
rp_card_type upper case, expire-month padding, dates rewritten as DD.MM.YYYY, a comma or tab file
rewritten with ";", the byte order mark dropped. Prints each change. Fixes that could lose data or
only guess (clearing a DST value, renaming an unknown column, adding an empty column) are left to you.

Options:
  --dry-run    print what would change, write nothing
  -h, --help   this help

Exit status: 0 no errors remain, 1 errors remain (see paygate lint), 2 usage error or unreadable file
(with several files, the highest of theirs).`;

/** Fixes can uncover more fixes (a comma file rewritten, then its aliases renamed): a few passes. */
const MAX_PASSES = 4;

export const fix: Command = {
  summary: 'apply the safe fixes to a file (or --dry-run)',
  async run(args) {
    const parsed = commandArgs('fix', HELP, args, { 'dry-run': { type: 'boolean' } });
    if (typeof parsed === 'number') return parsed;
    const { values, positionals } = parsed;
    if (positionals.length === 0 || positionals.includes('-')) {
      process.stderr.write(`paygate fix: give one or more FILEs (standard input cannot be fixed in place)\n${HELP}\n`);
      return 2;
    }
    // Several files (as pre-commit passes them): each is fixed on its own; the worst status wins.
    let status = 0;
    for (const path of positionals) status = Math.max(status, await fixFile(path, values['dry-run'] === true));
    return status;
  },
};

/** Fixes one file in place (or only prints with dryRun); its exit status. */
async function fixFile(path: string, dryRun: boolean): Promise<number> {
  const input = await readInput(path);
  if (!input.ok) {
    process.stderr.write(`paygate fix: ${input.message}\n`);
    return 2;
  }

  let text = input.text;
  let changes = 0;
  for (let pass = 0; pass < MAX_PASSES; pass++) {
    const bom = text.charCodeAt(0) === 0xfeff;
    const { text: next, applied } = fixAll(text);
    if (applied.length === 0 || next === text) break;
    for (const a of applied) {
      const p = displayPosition(a.range.start, bom);
      process.stdout.write(`${input.name}:${p.line}:${p.column}: ${a.code}: ${a.title}\n`);
    }
    changes += applied.length;
    text = next;
  }

  const remaining = lint(text).diagnostics.filter((d) => d.severity === 'error').length;
  const verb = dryRun ? 'would apply' : 'applied';
  process.stdout.write(`${input.name}: ${verb} ${changes} fix${changes === 1 ? '' : 'es'}; ${remaining} error${remaining === 1 ? '' : 's'} remain${remaining === 1 ? 's' : ''}\n`);
  if (changes > 0 && !dryRun) {
    try {
      await writeFileAtomic(path, text);
    } catch (err) {
      process.stderr.write(`paygate fix: ${input.name}: cannot write: ${(err as Error).message}\n`);
      return 2;
    }
  }
  return remaining > 0 ? 1 : 0;
}
