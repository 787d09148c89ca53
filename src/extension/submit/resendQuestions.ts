import {
  alreadySentMessage,
  damageText,
  samePayerMessage,
  sentAt,
  sentBy,
  serialText,
  submissionState,
  type AlreadySentRow,
  type ResendBlocker,
  type RowKey,
  type SamePayerRow,
} from '../../core/ledger';
import { joinSaid, ourWords, said, typed } from '../../core/output';
import { showPick, showWarning } from '../say';

// The questions a submit asks before sending again, each with one way to say yes: the same content sent
// before (or a damaged ledger that may hide such a send), rows already sent in other batches, and rows of
// a payer already sent under another id. Their dates, line numbers and counts are typed values (issue 38):
// the pick lists pass the editor's floor as its messages do (../say.ts showPick).

/**
 * The resend question, with one way to say no. A modal message always adds its own Cancel, and VS Code
 * focuses its first button, so a "Don't Send" beside it was a second no, and making it the close button
 * would have put the focus (Enter) on "Send Again". A pick list has exactly the two answers: the first,
 * selected one is "Don't send" (Enter), Escape also answers no, and only "Send again" sends.
 */
export async function askSendAgain(blocker: ResendBlocker, name: string, envName: string, endpoint: string): Promise<boolean> {
  if ('damage' in blocker) {
    const choice = await showWarning(
      said`${typed.text(name)} may have been sent before: the submission ledger was damaged. Sending it again may create the payments twice.`,
      {
        modal: true,
        detail: said`${damageText(blocker.damage, '')}\n\n${typed.text(name)} → ${typed.text(envName)}\n${typed.text(endpoint)}`,
      },
      { title: "Don't Send" },
      { title: 'Send Anyway' },
    );
    return choice?.title === 'Send Anyway';
  }
  const previous = blocker.record;
  const t = typed.text;
  const when = typed.date(new Date(previous.time).toLocaleString());
  const what =
    previous.state === 'sending'
      ? 'no answer recorded: it may still be on its way, or was interrupted'
      : `${previous.outcome ?? 'no answer recorded'}${previous.kind ? `, ${previous.kind}` : ''}`;
  // A team ledger's record names who sent it (the database role) and from which machine.
  const by =
    previous.role !== undefined ? sentBy(previous) : said` from ${ourWords(previous.face === 'cli' ? 'the paygate CLI' : 'the editor')}`;
  const from = said`sent${by}: ${t(previous.file)}`;
  const send = {
    label: ourWords('$(warning) Send again'),
    description: ourWords('may create the payments twice'),
    detail: said`${t(name)} → ${t(envName)} · ${t(endpoint)}`,
  };
  const dont = { label: ourWords("Don't send"), description: ourWords('keep the earlier submission'), detail: from };
  const choice = await showPick([dont, send], {
    title: said`PayGate: the same content was already sent to this endpoint on ${when} (${t(what)})`,
    placeHolder: ourWords('Sending it again may create the payments twice.'),
    ignoreFocusOut: true,
  });
  return choice === send;
}

/** What the person chose about rows already sent: not to send (the default), to move them out, or to send. */
export type RowsAnswer = 'dont-send' | 'move' | 'send';

/**
 * The row question: three answers in a pick list, "Don't send" first and selected (Enter), Escape also
 * no; "Move … to a new file" keeps them (never a silent delete) and leaves the rest to send; only "Send
 * anyway" sends them again.
 */
export async function askRowsAgain(rows: readonly AlreadySentRow[], name: string, envName: string): Promise<RowsAnswer> {
  const n = rows.length;
  const first = rows[0];
  const dont = {
    label: ourWords("Don't send"),
    description: ourWords('nothing is sent'),
    detail: alreadySentMessage(first),
  };
  const move = {
    label: said`Move the ${typed.count(n)} already-sent row${ourWords(n === 1 ? '' : 's')} to a new file`,
    description: ourWords('then send what is left'),
    detail: said`${joinSaid(
      rows.slice(0, 5).map((r) => said`line ${typed.count(r.line)}`),
      ', ',
    )}${n > 5 ? said`, … (${typed.count(n)} rows)` : said``}: kept in a file of their own beside ${typed.text(name)}`,
  };
  const send = {
    label: ourWords('$(warning) Send anyway'),
    description: ourWords('may create their payments twice'),
    detail: said`last sent ${typed.date(sentAt(first.earlier))}: ${typed.text(serialText(first.earlier))}, ${typed.text(submissionState(first.earlier))}`,
  };
  const choice = await showPick([dont, move, send], {
    title: said`PayGate: ${typed.count(n)} row${typed.text(n === 1 ? ` of ${name} was` : `s of ${name} were`)} already sent to ${typed.text(envName)}`,
    placeHolder: ourWords('Sending them again may create their payments twice.'),
    ignoreFocusOut: true,
  });
  if (choice === send) return 'send';
  return choice === move ? 'move' : 'dont-send';
}

/**
 * The same payer under another id: a modal naming, for the first rows, the earlier id (masked, as the
 * ledger keeps it), when and which submission. "Don't Send" comes first (the focused button), Escape and
 * the modal's own Cancel also answer no; only "Send Anyway" sends.
 */
export async function askSamePayer(rows: readonly SamePayerRow<RowKey>[], name: string, envName: string): Promise<boolean> {
  const n = rows.length;
  const listed = rows.slice(0, 5).map((r) => said`line ${typed.count(r.ref.line)}: ${samePayerMessage(r)}`);
  if (n > 5) listed.push(said`… and ${typed.count(n - 5)} more`);
  const choice = await showWarning(
    said`${typed.count(n)} row${n === 1 ? said` of ${typed.text(name)} has` : said`s of ${typed.text(name)} have`} the card and schedule of a row already sent to ${typed.text(envName)} under another client-orderid. Send anyway? The same payer${n === 1 ? said`` : said`s`} would be charged again.`,
    { modal: true, detail: joinSaid(listed, '\n') },
    { title: "Don't Send" },
    { title: 'Send Anyway' },
  );
  return choice?.title === 'Send Anyway';
}
