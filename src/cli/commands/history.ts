import { approvalsText } from '../../core/ledger/approvals';
import type { Approval } from '../../core/ledger/store';
import { localGatewayText, recordedOutcomeText, whoSent, type SubmissionRecord } from '../../core/ledger';
import type { CliContext } from '../context';
import { damageText, LedgerUrlError, openLedger, sendingNow } from '../ledger';
import { joinLaid, laid, said, vet, vouched, words, type Laid } from '../../core/output';
import { field, inputError, jsonOut, saidOut } from '../output';
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

function state(r: SubmissionRecord): Laid {
  if (r.state === 'sending') return words(sendingNow(r) ? 'sending (in progress)' : 'sending, interrupted: outcome unknown');
  return laid`${recordedOutcomeText(r)}`;
}

/** The gateway's recurring-payment-ids (ids of no known form), each with its status. */
const paymentIds = (r: SubmissionRecord) =>
  joinLaid(
    r.recurringPaymentIds.map((id, i) => (r.statuses[i] ? laid`${field(id)} (${field(r.statuses[i])})` : laid`${field(id)}`)),
    ', ',
  );

/**
 * One submission as text, laid out from its values (core/output/laid.ts). The ledger is masked when written,
 * but its values came from files and from the gateway's answers (a file name, an error-message): each is one
 * value on its line, the time, the row count and the content hash checked by their type.
 */
function recordText(r: SubmissionRecord, approvals: ReadonlyMap<string, Approval[]>): Laid {
  const where = laid`${field(r.environment)}${words(r.production ? ' (production)' : '')}, endpoint ${field(r.endpointId)}, from ${field(r.face)}`;
  const who = whoSent(r);
  const by = who ? laid`  (${who})` : words('');
  const lines = [
    laid`${vet.date(r.time)}  ${state(r)}${by}`,
    laid`  ${field(r.file)} (${vet.count(r.rowCount)} row${words(r.rowCount === 1 ? '' : 's')}) → ${where}`,
    laid`  sha256 ${vet.hash(r.contentHash)}`,
  ];
  const approved = approvals.get(`${r.environment}\0${r.contentHash}`);
  if (approved) lines.push(laid`  approved for ${field(r.environment)} by ${approvalsText(approved)}`);
  // Two local gateways both answer as endpoint 1001: which one it was tells their payments apart.
  if (r.localGateway) lines.push(laid`  sent to ${localGatewayText(r.localGateway)}`);
  if (r.recurringPaymentIds.length) lines.push(laid`  recurring-payment-id ${paymentIds(r)}`);
  if (r.serialNumbers.length) lines.push(laid`  serial-number ${joinLaid(r.serialNumbers.map(field), ', ')}`);
  if (r.errorCode) lines.push(laid`  error-code ${field(r.errorCode)}`);
  if (r.errorId) lines.push(laid`  error id ${field(r.errorId)}`);
  if (r.message && r.outcome !== 'accepted') lines.push(laid`  ${field(r.message)}`);
  return laid`${joinLaid(lines, '\n')}\n`;
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
  if (reading.damage) ctx.stderr(saidOut(said`paygate history: ${damageText(reading.damage, ledger)}\n`));
  const records = reading.records.map(({ seq: _order, ...r }) => {
    const approved = approvals.get(`${r.environment}\0${r.contentHash}`);
    return approved ? { ...r, approvals: approved.map(({ mine: _mine, ...a }) => a) } : r;
  });
  if (o.format === 'json') {
    ctx.stdout(jsonOut({ ledger: place, store: ledger.kind, records, ...(reading.damage ? { damage: reading.damage } : {}) }));
    return 0;
  }
  if (records.length === 0) {
    ctx.stdout(vouched(laid`No submissions recorded in ${field(place)}.\n`));
    return 0;
  }
  const listed = joinLaid(
    reading.records.map((r) => recordText(r, approvals)),
    '\n',
  );
  ctx.stdout(vouched(laid`${listed}\n${vet.count(records.length)} submission(s) in ${field(place)}\n`));
  return 0;
}
