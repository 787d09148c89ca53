import { mkdirSync, readdirSync } from 'node:fs';
import { basename, dirname, resolve } from 'node:path';
import { joinSaid, maskText, ourWords, said, typed, type Said } from '../../core/output';
import { isPartOf, partName, splitBatch, type SplitLimit, type SplitPart } from '../../core/split/split';
import type { CliContext } from '../context';
import { displayPosition, maxBytesOption, parseByteCount, readInput } from '../io';
import { sweepStaleTemps, writeNewFiles } from '../newFiles';
import { inputError, jsonOut, saidOut, usageError } from '../output';
import { choiceOption, exits, paygateCommand } from '../parser';

export interface SplitOptions {
  maxRows?: string;
  maxBytes?: string;
  outDir?: string;
  format: 'text' | 'json';
  readMaxBytes?: string;
}

export function splitCommand(ctx: CliContext) {
  return paygateCommand(
    {
      name: 'split',
      summary: 'cut a batch into parts within a number of rows or a payload size',
      description:
        'Writes FILE as NAME.part-001.rpcsv, NAME.part-002.rpcsv, … (beside FILE, or in --out-dir): each with the ' +
        "header, then the next rows in file order, each row's text as the file holds it (a quoted value is never cut, " +
        'line breaks inside it included), at most --max-rows rows or a payload of at most --max-bytes bytes as the ' +
        'gateway receives it (Base64 of the text sent). Blank lines are left out. Nothing is written when the file ' +
        'cannot be split (an unterminated quote, another delimiter, a row too big for --max-bytes on its own) or when ' +
        "parts of FILE are already there. Send the parts with 'paygate submit NAME.part-*.rpcsv': each is one " +
        'submission, and a part already accepted is skipped when run again.',
      exits: [
        [0, 'the parts were written'],
        [2, 'usage error, unreadable file, a file that cannot be split, or parts already there (nothing written)'],
      ],
    },
    ctx,
  )
    .argument('<FILE>', 'the batch to split')
    .option('--max-rows <N>', 'at most N rows in a part')
    .option('--max-bytes <N>', "a payload of at most N bytes in a part (K, M suffixes), e.g. the environment's maximum")
    .option('--out-dir <DIR>', "where the parts are written (default: FILE's folder)")
    .addOption(
      choiceOption('--format <FORMAT>', 'json: {"file","parts":[{"file","rows","firstLine","lastLine","payloadBytes"}]}', [
        'text',
        'json',
      ]).default('text'),
    )
    .option('--read-max-bytes <N>', 'read FILE up to N bytes (default 512M)')
    .action(exits((file, o) => splitFile(file, o, ctx)));
}

function limitOf(o: SplitOptions): SplitLimit | string {
  if ((o.maxRows === undefined) === (o.maxBytes === undefined)) return 'give one of --max-rows N or --max-bytes N';
  if (o.maxRows !== undefined) {
    const n = /^\d+$/.test(o.maxRows) ? Number(o.maxRows) : NaN;
    return Number.isSafeInteger(n) && n > 0 ? { maxRows: n } : `--max-rows must be a whole number above 0, not "${o.maxRows}"`;
  }
  const bytes = parseByteCount(o.maxBytes!);
  return bytes === undefined
    ? `--max-bytes must be a whole number of bytes (e.g. 4194304 or 4M), not "${o.maxBytes}"`
    : { maxBytes: bytes };
}

/** Splits FILE and writes its parts; the exit code. */
export async function splitFile(file: string, o: SplitOptions, ctx: CliContext): Promise<number> {
  const limit = limitOf(o);
  if (typeof limit === 'string') return usageError(ctx, 'paygate split', limit);
  if (file === '-') return usageError(ctx, 'paygate split', "FILE must be a file: its name names the parts ('-' has none)");
  const readMax = maxBytesOption(o.readMaxBytes);
  if (readMax === null)
    return usageError(ctx, 'paygate split', `--read-max-bytes must be a whole number of bytes, not "${o.readMaxBytes}"`);
  const fail = (message: string) => inputError(ctx, 'paygate split', maskText(message));
  const input = await readInput(file, ctx, { maxBytes: readMax });
  if (!input.ok) return fail(input.message);

  const split = splitBatch(input.text, limit);
  if (!split.ok) {
    const p = displayPosition(split.problem.position, input.text.charCodeAt(0) === 0xfeff);
    return fail(`${input.name}:${p.line}:${p.column}: ${split.problem.message}; nothing was written`);
  }
  const outDir = resolve(ctx.cwd, o.outDir ?? dirname(file));
  const name = basename(file);
  try {
    mkdirSync(outDir, { recursive: true });
  } catch (err) {
    return fail(`cannot make ${outDir}: ${(err as Error).message}`);
  }
  // A split killed here before left its temporary files (card data) behind: gone before anything else.
  await sweepStaleTemps(outDir);
  const existing = listParts(outDir, name);
  if (typeof existing === 'string') return fail(`cannot read ${outDir}: ${existing}`);
  if (existing.length > 0)
    return fail(
      `${existing.length} part${existing.length === 1 ? '' : 's'} of ${name} already in ${outDir} (${existing.slice(0, 3).join(', ')}` +
        `${existing.length > 3 ? ', …' : ''}); nothing was written. Remove them first: an old part left beside new ones could be sent with them`,
    );
  const count = split.parts.length;
  const files = split.parts.map((part) => ({ part, path: resolve(outDir, partName(name, part.number, count)) }));
  try {
    await writeNewFiles(files.map((f) => ({ path: f.path, text: f.part.text })));
  } catch (err) {
    return fail(`cannot write the parts in ${outDir}: ${(err as Error).message}`);
  }
  // A file name is the merchant's text: masked, and no control character reaches the terminal (the CLI's
  // output boundary does it again for every line; here the text is whole).
  ctx.stdout(o.format === 'json' ? splitJson(input.name, files) : saidOut(splitText(input.name, outDir, files)));
  return 0;
}

/** The parts of `name` already in `dir`, or why it cannot be read. */
function listParts(dir: string, name: string): string[] | string {
  try {
    return readdirSync(dir)
      .filter((f) => isPartOf(f, name))
      .sort();
  } catch (err) {
    return (err as NodeJS.ErrnoException).code ?? (err as Error).message;
  }
}

type Written = { part: SplitPart; path: string };

/**
 * The parts written, each value alone: a part's first and last line are two counts, so a part of a batch of
 * millions of lines (`lines 1000001–1000083`, joined by a dash) is never read as one card number.
 */
function splitText(name: string, outDir: string, files: readonly Written[]): Said {
  const plural = (n: number, word: string) => said`${typed.count(n.toLocaleString('en-US'))} ${ourWords(n === 1 ? word : `${word}s`)}`;
  const rows = files.reduce((n, f) => n + f.part.rows, 0);
  const lines = files.map(
    ({ part, path }) =>
      said`  ${typed.text(basename(path))}  ${plural(part.rows, 'row')} (lines ${typed.count(part.firstLine)}–${typed.count(part.lastLine)}), payload ${plural(part.payloadBytes, 'byte')}`,
  );
  return said`${typed.text(name)}: ${plural(rows, 'row')} in ${plural(files.length, 'part')}, written to ${typed.text(outDir)}\n${joinSaid(lines, '\n')}\n`;
}

function splitJson(name: string, files: readonly Written[]): string {
  const parts = files.map(({ part, path }) => ({
    file: path,
    rows: part.rows,
    firstLine: part.firstLine,
    lastLine: part.lastLine,
    payloadBytes: part.payloadBytes,
  }));
  return jsonOut({ file: name, parts });
}
