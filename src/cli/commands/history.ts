import { approvalsText } from '../../core/ledger/approvals';
import type { Approval } from '../../core/ledger/store';
import { localGatewayText, recordedOutcomeText, sentBy, type SubmissionRecord } from '../../core/ledger';
import type { CliContext } from '../context';
import { damageText, LedgerUrlError, openLedger, sendingNow } from '../ledger';
import { field, inputError, jsonLine } from '../output';
import { choiceOption, exits, paygateCommand } from '../parser';

export interface LedgerListOptions {
  format: 'text' | 'json';
  limit?: string;
  state?: string;
  ledger?: string;
}

export function historyCommand(ctx: CliContext) {
  return paygateCommand(
    {
      name: 'history',
      summary: 'list the submission ledger (what was sent, where, and what came of it)',
      description:
        'Lists the submission ledger, newest first: every create sent from the CLI or the editor, with its environment, ' +
        'endpoint id, rows, content hash and outcome. The ledger holds no card number, CVV or secret.',
      exits: [
        [0, 'listed'],
        [2, 'usage error or the ledger cannot be read'],
      ],
    },
    ctx,
  )
    .addOption(choiceOption('--format <FORMAT>', 'text, or JSON: {"ledger": FILE, "records": [...]}', ['text', 'json']).default('text'))
    .option('--limit <N>', 'only the newest N submissions (read from the end of the ledger: fast on a long history)')
    .option('--state <DIR>', 'the ledger directory (default $PAYGATE_DATA_DIR, else $XDG_DATA_HOME/paygate, else ~/.local/share/paygate)')
    .option(
      '--ledger <URL>',
      'the team ledger (postgres://ROLE@HOST:PORT/DATABASE; default $PAYGATE_LEDGER_URL); the file ledger when neither is set',
    )
    .action(exits((o) => listLedger(o, ctx)));
}

function state(r: SubmissionRecord): string {
  if (r.state === 'sending') return sendingNow(r) ? 'sending (in progress)' : 'sending, interrupted: outcome unknown';
  return field(recordedOutcomeText(r));
}

/**
 * One submission as text. The ledger is masked when written, but its values came from files and from the
 * gateway's answers (a file name, an error-message): each is one value on its line.
 */
function recordText(r: SubmissionRecord, approvals: ReadonlyMap<string, Approval[]>): string {
  const where = `${field(r.environment)}${r.production ? ' (production)' : ''}, endpoint ${field(r.endpointId)}, from ${field(r.face)}`;
  const lines = [
    `${field(r.time)}  ${state(r)}${r.role !== undefined ? `  (${field(sentBy(r).trim())})` : ''}`,
    `  ${field(r.file)} (${r.rowCount} row${r.rowCount === 1 ? '' : 's'}) → ${where}`,
    `  sha256 ${field(r.contentHash)}`,
  ];
  const approved = approvals.get(`${r.environment}\0${r.contentHash}`);
  if (approved) lines.push(`  approved for ${field(r.environment)} by ${field(approvalsText(approved))}`);
  // Two local gateways both answer as endpoint 1001: which one it was tells their payments apart.
  if (r.localGateway) lines.push(`  sent to ${localGatewayText(r.localGateway)}`);
  if (r.recurringPaymentIds.length)
    lines.push(
      `  recurring-payment-id ${r.recurringPaymentIds.map((id, i) => field(r.statuses[i] ? `${id} (${r.statuses[i]})` : id)).join(', ')}`,
    );
  if (r.serialNumbers.length) lines.push(`  serial-number ${r.serialNumbers.map(field).join(', ')}`);
  if (r.errorCode) lines.push(`  error-code ${field(r.errorCode)}`);
  if (r.errorId) lines.push(`  error id ${field(r.errorId)}`);
  if (r.message && r.outcome !== 'accepted') lines.push(`  ${field(r.message)}`);
  return `${lines.join('\n')}\n`;
}

/** Lists the ledger; the logic behind `paygate history`, for any argument parser to call. */
export async function listLedger(o: LedgerListOptions, ctx: CliContext): Promise<number> {
  let ledger;
  try {
    ledger = openLedger(ctx, o.state, o.ledger);
  } catch (err) {
    if (err instanceof LedgerUrlError) return inputError(ctx, 'paygate history', err.message);
    throw err;
  }
  // One store at a time, and which one is said: the file, or the team ledger's URL without its password.
  const place = ledger.kind === 'file' ? ledger.filePath : ledger.place;
  const limit = o.limit === undefined ? undefined : Number(o.limit);
  if (limit !== undefined && !(Number.isInteger(limit) && limit > 0))
    return inputError(ctx, 'paygate history', `--limit must be a whole number above 0, not "${o.limit}"`);
  let reading;
  try {
    // With --limit the ledger is read backwards, only as far as needed (damage is found by a whole read).
    reading = limit !== undefined ? { records: await ledger.recent(limit), damage: undefined } : await ledger.read();
  } catch (err) {
    return inputError(
      ctx,
      'paygate history',
      ledger.kind === 'file' ? `cannot read the submission ledger ${place}: ${(err as Error).message}` : (err as Error).message,
    );
  }
  let approvals = new Map<string, Approval[]>();
  if (ledger.kind === 'team') {
    try {
      approvals = await ledger.allApprovals();
    } catch (err) {
      return inputError(ctx, 'paygate history', (err as Error).message);
    }
  }
  if (reading.damage) ctx.stderr(`paygate history: ${damageText(reading.damage, ledger)}\n`);
  const records = reading.records.map(({ seq: _order, ...r }) => {
    const approved = approvals.get(`${r.environment}\0${r.contentHash}`);
    return approved ? { ...r, approvals: approved.map(({ mine: _mine, ...a }) => a) } : r;
  });
  if (o.format === 'json') {
    ctx.stdout(jsonLine({ ledger: place, store: ledger.kind, records, ...(reading.damage ? { damage: reading.damage } : {}) }));
    return 0;
  }
  if (records.length === 0) {
    ctx.stdout(`No submissions recorded in ${place}.\n`);
    return 0;
  }
  ctx.stdout(`${reading.records.map((r) => recordText(r, approvals)).join('\n')}\n${records.length} submission(s) in ${place}\n`);
  return 0;
}
