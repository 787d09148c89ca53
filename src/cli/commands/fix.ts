import { fixAll } from '../../core/rules/fixes';
import { lint } from '../../core/rules/lint';
import { commandArgs } from '../args';
import type { Command } from '../command';
import { displayPosition, maxBytesOption, readInput, writeFileAtomic } from '../io';

const HELP = `Usage: paygate fix FILE [--dry-run] [--max-bytes N]

Applies every safe fix of the rule book (the editor's "Fix all"): column renames of known aliases,
rp_card_type upper case, expire-month padding, dates rewritten as DD.MM.YYYY, a comma or tab file
rewritten with ";", the byte order mark dropped. Prints each change. Fixes that could lose data or
only guess (clearing a DST value, renaming an unknown column, adding an empty column) are left to you.

Options:
  --dry-run      print what would change, write nothing
  --max-bytes N  read files up to N bytes (default 512M; K, M, G suffixes)
  -h, --help     this help

The file is replaced in one step through a private temporary file: a symlink stays a symlink (its
target is fixed), the file keeps its mode and owner, and a failure leaves it as it was.

Exit status: 0 no errors remain, 1 errors remain (see paygate lint), 2 usage error or unreadable file.`;

/** Fixes can uncover more fixes (a comma file rewritten, then its aliases renamed): a few passes. */
const MAX_PASSES = 4;

export const fix: Command = {
  summary: 'apply the safe fixes to a file (or --dry-run)',
  async run(args) {
    const parsed = commandArgs('fix', HELP, args, { 'dry-run': { type: 'boolean' }, 'max-bytes': { type: 'string' } });
    if (typeof parsed === 'number') return parsed;
    const { values, positionals } = parsed;
    if (positionals.length !== 1 || positionals[0] === '-') {
      process.stderr.write(`paygate fix: give exactly one FILE (standard input cannot be fixed in place)\n${HELP}\n`);
      return 2;
    }
    const maxBytes = maxBytesOption(values['max-bytes']);
    if (maxBytes === null) {
      process.stderr.write(`paygate fix: --max-bytes must be a whole number of bytes (e.g. 1073741824 or 1G), not "${values['max-bytes']}"\n`);
      return 2;
    }
    const input = await readInput(positionals[0], { maxBytes });
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

    // Only the count is needed: no diagnostic is kept (a file broken everywhere would hold millions).
    const remaining = lint(text, { maxDiagnostics: 0 }).omitted?.error ?? 0;
    const verb = values['dry-run'] ? 'would apply' : 'applied';
    process.stdout.write(`${verb} ${changes} fix${changes === 1 ? '' : 'es'}; ${remaining} error${remaining === 1 ? '' : 's'} remain${remaining === 1 ? 's' : ''}\n`);
    if (changes > 0 && !values['dry-run']) {
      try {
        await writeFileAtomic(positionals[0], text);
      } catch (err) {
        process.stderr.write(`paygate fix: ${input.name}: cannot write: ${(err as Error).message}\n`);
        return 2;
      }
    }
    return remaining > 0 ? 1 : 0;
  },
};
