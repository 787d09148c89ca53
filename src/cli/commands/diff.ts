import { existsSync } from 'node:fs';
import { basename, resolve } from 'node:path';
import { DiffIndex, diffAgainstSend, differs, sendRowsOf, sentAt, serialText, submissionState, type BatchDiff } from '../../core/ledger';
import { maskText } from '../../core/output';
import { readBatch } from '../../core/rules/batch';
import type { CliContext } from '../context';
import { readInput } from '../io';
import { openLedger } from '../ledger';
import { inputError } from '../output';
import { choiceOption, exits, paygateCommand } from '../parser';

export interface DiffOptions {
  against: string;
  format: 'text' | 'json';
  state?: string;
}

export function diffCommand(ctx: CliContext) {
  return paygateCommand(
    {
      name: 'diff',
      summary: 'what changed in a batch since its last send, row by row',
      description:
        'Compares FILE with the last send of a file of the same name (--against last, the default), the submission with ' +
        'a serial-number, or another batch file, rows keyed by client-orderid: added, removed, changed (the names of the ' +
        'columns whose values differ; cvv2 is never compared) and how many are unchanged. A send is read back from the ' +
        "ledger's own keyed hashes of its rows: the ledger keeps no card data, so no value is shown.",
      exits: [
        [0, 'nothing differs'],
        [1, 'rows were added, removed or changed'],
        [2, 'usage error, unreadable file, or no such send in the ledger'],
      ],
    },
    ctx,
  )
    .argument('<FILE>', 'the batch; - reads standard input')
    .option('--against <WHAT>', 'last (the last send of a file with this name), a FILE, or a SERIAL number', 'last')
    .addOption(
      choiceOption(
        '--format <FORMAT>',
        'json: {"added":[{"client-orderid","line"}],"removed":[...],"changed":[{"client-orderid","line","columns":[...]}],"unchanged":N}',
        ['text', 'json'],
      ).default('text'),
    )
    .option('--state <DIR>', 'the submission ledger directory (default: as paygate submit chooses it)')
    .action(exits((file, o) => diffFile(file, o, ctx)));
}

/** Reads FILE and what it is compared with, prints the difference; 0 when nothing differs, 1 otherwise. */
export async function diffFile(file: string, o: DiffOptions, ctx: CliContext): Promise<number> {
  const fail = (message: string) => inputError(ctx, 'paygate diff', message);
  const against = o.against;
  let heading: string;
  let diff: BatchDiff;
  if (against !== 'last' && existsSync(resolve(ctx.cwd, against))) {
    // The older file first, kept only as a compact index; then FILE, walked against it: two parsed files
    // are never held at once. FILE's own error is told first, as when it was read first.
    const older = await indexFile(against, ctx);
    if (!older.ok) {
      const input = await readInput(file, ctx);
      return fail(input.ok ? older.message : input.message);
    }
    const input = await readInput(file, ctx);
    if (!input.ok) return fail(input.message);
    diff = older.index.diff(readBatch(input.text));
    heading = `${maskText(input.name)} against ${maskText(older.name)}`;
  } else {
    const input = await readInput(file, ctx);
    if (!input.ok) return fail(input.message);
    const batch = readBatch(input.text);
    const name = file === '-' ? input.name : basename(file);
    const found = await sendRowsOf(openLedger(ctx, o.state), against === 'last' ? { last: name } : { serial: against });
    if (!found.ok) return fail(found.message);
    const r = found.record;
    heading =
      `${maskText(input.name)} against the send of ${sentAt(r)} (${maskText(basename(r.file))} to ${maskText(r.environment)}, ` +
      `endpoint ${maskText(r.endpointId)}: ${maskText(serialText(r))}, ${submissionState(r)})`;
    // FILE walked in place against the send's row keys: no row keys of FILE are made (sentDiff.ts).
    diff = diffAgainstSend(found.secret, found.sent, batch);
  }
  ctx.stdout(o.format === 'json' ? `${JSON.stringify(diff)}\n` : diffText(heading, diff));
  return differs(diff) ? 1 : 0;
}

/** The older side read and indexed; its text and parse are garbage once this returns. */
async function indexFile(
  file: string,
  ctx: CliContext,
): Promise<{ ok: true; name: string; index: DiffIndex } | { ok: false; message: string }> {
  const other = await readInput(file, ctx);
  return other.ok ? { ok: true, name: other.name, index: DiffIndex.of(readBatch(other.text)) } : other;
}

/** The text form: a heading, one line per added, removed and changed row, and the counts. */
export function diffText(heading: string, d: BatchDiff): string {
  // A client-orderid is the merchant's free text: masked, and no control character reaches the terminal.
  const id = (s: string) => maskText(s).replace(/\p{Cc}/gu, ' ');
  // The heading's values were masked as they went in (diffCommand), never the composed line.
  const lines = [`${heading.replace(/\p{Cc}/gu, ' ')}:`];
  for (const r of d.added) lines.push(`  added    ${id(r['client-orderid'])}  line ${r.line}`);
  for (const r of d.removed) lines.push(`  removed  ${id(r['client-orderid'])}  line ${r.line} of the other`);
  for (const r of d.changed) lines.push(`  changed  ${id(r['client-orderid'])}  line ${r.line}: ${r.columns.join(', ')}`);
  lines.push(`${d.added.length} added, ${d.removed.length} removed, ${d.changed.length} changed, ${d.unchanged} unchanged`);
  return `${lines.join('\n')}\n`;
}
