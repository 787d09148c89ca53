import { recordedFacts } from '../gateway/outcomes';
import { joinSaid, maskText, ourWords, said, typed, type Said } from '../output';
import type { AlreadySentRow } from './alreadySent';
import type { PayerRef, SamePayerRow } from './samePayer';
import type { DamageMark, LocalGatewayRef, SubmissionRecord } from './records';

// What every face says about the ledger's findings (a damaged ledger, rows already sent) and about the local
// gateway a send went to: the same words in the terminal and the editor.

/** The damage a reading of the ledger found, and what it means for a send: a `Said`, each value checked by its type. */
export function damageText(d: DamageMark, ledgerFile: string): Said {
  const where = ledgerFile === '' ? ourWords('The submission ledger') : said`The submission ledger ${typed.text(ledgerFile)}`;
  const which =
    d.contentHashes.length > 0 && d.unidentified === 0
      ? said`the batch(es) named there (sha256 ${joinSaid(
          d.contentHashes.map((h) => typed.hash(h, 12)),
          ', ',
        )}) may have been sent`
      : ourWords('any batch may have been sent');
  const moved = said`${typed.count(d.unreadableLines)} unreadable line(s) were moved aside with the whole file to ${typed.text(d.movedTo)}`;
  const kept = said`${typed.count(d.keptLines)} readable line(s) were kept`;
  return said`${where} was damaged: ${moved}; ${kept}. Earlier sends recorded in the unreadable part cannot be vouched for: ${which}. Check in the gateway what was created before sending again; nothing was sent.`;
}

/** When a submission was sent, in UTC to the minute ("2026-03-02 10:00 UTC"): the same in every face. */
export function sentAt(r: Pick<SubmissionRecord, 'time'>): string {
  return `${minute(r)} UTC`;
}

const minute = (r: Pick<SubmissionRecord, 'time'>) => `${r.time.slice(0, 10)} ${r.time.slice(11, 16)}`;

/** sentAt as a part of a `Said`: the date and time checked as a date. */
const sentOn = (r: Pick<SubmissionRecord, 'time'>): Said => said`${typed.date(minute(r))} UTC`;

/**
 * Who sent it, where a team ledger recorded it: "by ROLE from the editor on HOST" (the database role the
 * team's server vouches for, and the host: the record's words, each a value); undefined for the file ledger,
 * which is one person's.
 */
export function whoSent(r: Pick<SubmissionRecord, 'role' | 'face' | 'host'>): Said | undefined {
  if (r.role === undefined) return undefined;
  return said`by ${typed.text(r.role)} from ${ourWords(r.face === 'editor' ? 'the editor' : 'the CLI')} on ${typed.text(r.host)}`;
}

/** whoSent after a space, to follow a verb (" by ROLE from the editor on HOST"); nothing for the file ledger. */
export function sentBy(r: Pick<SubmissionRecord, 'role' | 'face' | 'host'>): Said {
  const who = whoSent(r);
  return who ? said` ${who}` : ourWords('');
}

/** How a submission ended, in a few words: its outcome (and kind), or that no answer was recorded yet. */
export function submissionState(r: Pick<SubmissionRecord, 'state' | 'outcome' | 'kind'>): string {
  if (r.state === 'sending') return 'no answer recorded (still sending, or interrupted)';
  return `${r.outcome ?? 'no outcome'}${r.kind ? ` (${r.kind})` : ''}`;
}

/** The serial-number(s) the gateway gave a submission, or that it gave none. */
export function serialText(r: Pick<SubmissionRecord, 'serialNumbers'>): string {
  return r.serialNumbers.length > 0 ? `serial-number ${r.serialNumbers.join(', ')}` : 'no serial-number';
}

/** The serial-number(s) as a part of a `Said`: each one a value of its own. */
const serials = (r: Pick<SubmissionRecord, 'serialNumbers'>): Said =>
  r.serialNumbers.length > 0
    ? said`serial-number ${joinSaid(
        r.serialNumbers.map((n) => typed.text(n)),
        ', ',
      )}`
    : ourWords('no serial-number');

/** A client-orderid (kept masked) in a message: no control character, at most 40 characters, quoted; one value. */
function shownId(orderId: string): Said {
  const printable = orderId.replace(/\p{Cc}/gu, ' ');
  return said`"${typed.text(printable.length > 40 ? `${printable.slice(0, 37)}...` : printable)}"`;
}

/** Where a submission went and how it ended, each value alone: `on DATE UTC to ENV, endpoint ID`, `SERIALS, STATE`. */
const sentTo = (r: SubmissionRecord): Said =>
  said`${sentBy(r)} on ${sentOn(r)} to ${typed.text(r.environment)}, endpoint ${typed.text(r.endpointId)}`;
const ended = (r: SubmissionRecord): Said => said`${serials(r)}, ${typed.text(submissionState(r))}`;

/** One row already sent, as the diagnostic and the refusal say it: the date, the serial-number, the outcome. */
export function alreadySentMessage(row: AlreadySentRow): Said {
  const r = row.earlier;
  return said`client-orderid ${shownId(row.orderId)} was already sent${sentTo(r)} (${ended(r)}): sending it again may create its payments twice`;
}

/** Rows listed by a refusal before the rest are only counted. */
export const LISTED_ROWS = 20;

/** The refusal's list: `file:line: message` for the first LISTED_ROWS rows, then how many more. */
export function alreadySentLines(file: string, rows: readonly AlreadySentRow[], max = LISTED_ROWS): Said[] {
  const lines = rows.slice(0, max).map((row) => said`${typed.text(file)}:${typed.count(row.line)}: ${alreadySentMessage(row)}`);
  if (rows.length > max) lines.push(moreRows(rows.length - max, 'already-sent'));
  return lines;
}

/** `… and 3 more same-payer rows`. */
const moreRows = (n: number, code: string): Said =>
  said`… and ${typed.count(n)} more ${ourWords(code)} ${ourWords(n === 1 ? 'row' : 'rows')}`;

/** A file's name without its folders (a URI's last segment too). */
const fileName = (file: string) => file.slice(Math.max(file.lastIndexOf('/'), file.lastIndexOf('\\')) + 1);

/**
 * One row of the same payer under another id, as the diagnostic, the refusal and the editor's question say
 * it: the earlier id (masked), when, and which submission (its file, serial-number and outcome).
 */
export function samePayerMessage(row: Pick<SamePayerRow, 'earlier' | 'earlierOrderId'>): Said {
  const r = row.earlier;
  const id = shownId(maskText(row.earlierOrderId));
  const file = shownId(maskText(fileName(r.file)));
  return said`the same card and schedule were already sent${sentTo(r)}, under client-orderid ${id} (submission of ${file}, ${ended(r)}): to the gateway this is another id, so the same payer would be charged twice`;
}

/** The refusal's list of same-payer rows: `file:line: message` for the first LISTED_ROWS, then how many more. */
export function samePayerLines(file: string, rows: readonly SamePayerRow<PayerRef & { line: number }>[], max = LISTED_ROWS): Said[] {
  const lines = rows
    .slice(0, max)
    .map((row) => said`${typed.text(file)}:${typed.count(row.ref.line)}: same-payer: ${samePayerMessage(row)}`);
  if (rows.length > max) lines.push(moreRows(rows.length - max, 'same-payer'));
  return lines;
}

/** "/home/you/.local/state/paygate/gateway (run 3f9c…), its date 31.12.2026": which local gateway, and when. */
export function localGatewayPlace(g: LocalGatewayRef): Said {
  const run = g.startId === '' ? ourWords('') : said` (run ${typed.text(g.startId)})`;
  return said`${typed.text(g.stateDir)}${run}${g.today ? said`, its date ${typed.date(g.today)}` : ourWords('')}`;
}

export const localGatewayText = (g: LocalGatewayRef): Said => said`the local gateway of ${localGatewayPlace(g)}`;

/**
 * A completed record's outcome as the ledger's lists say it (`paygate history`, the Submissions view):
 * the outcome table's label, the kind and the HTTP status; an outcome whose payments may exist unseen
 * says so.
 */
export function recordedOutcomeText(r: Pick<SubmissionRecord, 'outcome' | 'kind' | 'httpStatus'>): Said {
  const facts = recordedFacts(r.outcome);
  // The table's label is ours; an outcome this version does not know, and the kind, are the record's words.
  const label = facts ? ourWords(facts.label) : said`${typed.text(r.outcome ?? '?')} (not known to this version)`;
  const kind = r.kind ? said` (${typed.text(r.kind)})` : ourWords('');
  const http = r.httpStatus !== undefined ? said` HTTP ${typed.count(r.httpStatus)}` : ourWords('');
  const text = said`${label}${kind}${http}`;
  return facts?.unknown ? said`${text}: the gateway may have created the payments; check before sending again` : text;
}
