import { existsSync } from 'node:fs';
import { basename, resolve } from 'node:path';
import { DiffIndex, diffAgainstSend, differs, sendRowsOf, sentAt, serialText, submissionState, type BatchDiff } from '../../core/ledger';
import { joinLaid, laid, maskText, vet, vouched, type Laid, type Vetted } from '../../core/output';
import { readBatch } from '../../core/rules/batch';
import type { CliContext } from '../context';
import { readInput } from '../io';
import { openLedger } from '../ledger';
import { inputError, jsonOut } from '../output';
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
  let heading: Laid;
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
    heading = laid`${shownName(input.name)} against ${shownName(older.name)}`;
  } else {
    const input = await readInput(file, ctx);
    if (!input.ok) return fail(input.message);
    const batch = readBatch(input.text);
    const name = file === '-' ? input.name : basename(file);
    const found = await sendRowsOf(openLedger(ctx, o.state), against === 'last' ? { last: name } : { serial: against });
    if (!found.ok) return fail(found.message);
    const r = found.record;
    const [day, time] = sentAt(r).split(' ');
    const sent = laid`${vet.date(day)} ${vet.text(time)} UTC`;
    const where = laid`${shownName(basename(r.file))} to ${shownName(r.environment)}, endpoint ${shownName(r.endpointId)}`;
    heading = laid`${shownName(input.name)} against the send of ${sent} (${where}: ${shownName(serialText(r))}, ${vet.text(submissionState(r))})`;
    // FILE walked in place against the send's row keys: no row keys of FILE are made (sentDiff.ts).
    diff = diffAgainstSend(found.secret, found.sent, batch);
  }
  ctx.stdout(o.format === 'json' ? jsonOut(diff) : vouched(diffText(heading, diff)));
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

/**
 * A name or id from input (a file name, a client-orderid, an environment) as one value: free text, masked as
 * free text is (maskText), a control character shown as a space, then vetted as any value.
 */
const shownName = (s: string): Vetted => vet.text(maskText(s).replace(/\p{Cc}/gu, ' '));

/** The text form: a heading, one line per added, removed and changed row, and the counts. */
export function diffText(heading: Laid, d: BatchDiff): Laid {
  // Laid out from values vetted one by one (core/output/laid.ts), never masked as a composed line.
  const n = vet.count;
  const lines = [laid`${heading}:`];
  for (const r of d.added) lines.push(laid`  added    ${shownName(r['client-orderid'])}  line ${n(r.line)}`);
  for (const r of d.removed) lines.push(laid`  removed  ${shownName(r['client-orderid'])}  line ${n(r.line)} of the other`);
  for (const r of d.changed)
    lines.push(laid`  changed  ${shownName(r['client-orderid'])}  line ${n(r.line)}: ${joinLaid(r.columns.map(vet.text), ', ')}`);
  lines.push(laid`${n(d.added.length)} added, ${n(d.removed.length)} removed, ${n(d.changed.length)} changed, ${n(d.unchanged)} unchanged`);
  return laid`${joinLaid(lines, '\n')}\n`;
}
