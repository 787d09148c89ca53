import { randomInt } from 'node:crypto';
import type { CliContext } from '../context';
import { EXIT, field, inputError, jsonOut, quotedAnswer, saidOut } from '../output';
import { choiceOption, exits, paygateCommand } from '../parser';
import { joinLaid, laid, ourWords, said, typed, vet, vouched } from '../../core/output';
import { CALLBACK_STATUSES, CALLBACK_TYPES, callbackQuery, withQuery } from '../../core/callbacks';
import { loopbackUrl } from '../../core/callbacks/loopback';
import { CallbackStore, entryLine, replayEntry, sendToHandler, type SendResult } from '../../callback-listener';
import { stateDirOption } from '../localGateway';
import { controlKeyFor, STATE_OPTION_TEXT } from './listen';

// `paygate callbacks list | replay | send`: what `paygate listen` kept, sent again, or a callback made up
// as the gateway would make it, for testing a handler without waiting for a charge.

/**
 * The handler's answer: the status line, then its body quoted line by line through the boundary
 * (quotedAnswer: masked, CVVs hidden, escapes shown, at most 40 lines of 300 characters), so a line of
 * the answer never stands as a line of ours and an escape sequence in it never reaches the terminal.
 */
function printAnswer(ctx: CliContext, command: string, r: SendResult): number {
  if (!r.ok) {
    ctx.stderr(saidOut(said`${ourWords(command)}: ${typed.text(r.url)}: ${typed.text(r.error)} (after ${typed.count(r.ms)} ms)\n`));
    return EXIT.transport;
  }
  ctx.stdout(
    saidOut(
      said`HTTP ${typed.count(r.status)} from ${typed.text(r.url)} in ${typed.count(r.ms)} ms\n${quotedAnswer(r.body.toString('utf8'))}`,
    ),
  );
  return r.status >= 200 && r.status < 300 ? EXIT.ok : EXIT.rejected;
}

const SENT_EXITS = [
  [0, 'the handler answered 2xx'],
  [1, 'the handler answered another status'],
  [2, 'usage error, an unknown ID or a target that is not a loopback address'],
  [4, 'the handler could not be reached or did not answer in time'],
] as const;

/** `callbacks send` takes no ID: it makes the callback up, so an unknown ID cannot be its usage error. */
const MADE_UP_EXITS = [
  SENT_EXITS[0],
  SENT_EXITS[1],
  [2, 'usage error or a target that is not on this machine (a loopback address)'],
  SENT_EXITS[3],
] as const;

function listCommand(ctx: CliContext) {
  return paygateCommand(
    {
      name: 'list',
      summary: 'list the callbacks "paygate listen" received (oldest first)',
      description: 'Lists the callbacks kept by "paygate listen" and the editor\'s Callbacks view, oldest first, masked as they were kept.',
      exits: [
        [0, 'listed'],
        [2, 'usage error or the store cannot be read'],
      ],
    },
    ctx,
  )
    .addOption(choiceOption('--format <FORMAT>', 'text, or JSON: {"file": FILE, "callbacks": [...]}', ['text', 'json']).default('text'))
    .option('--state <DIR>', STATE_OPTION_TEXT)
    .action(
      exits(async (o: { format: 'text' | 'json'; state?: string }) => {
        const store = new CallbackStore(stateDirOption(ctx, o.state));
        let entries;
        try {
          entries = store.list();
        } catch (err) {
          return inputError(ctx, 'paygate callbacks list', `cannot read ${store.file}: ${(err as Error).message}`);
        }
        // Laid out from values (core/output/laid.ts) and vouched for: the floor does not read the list again.
        if (o.format === 'json') ctx.stdout(jsonOut({ file: store.file, callbacks: entries }));
        else if (entries.length === 0) ctx.stdout(vouched(laid`No callbacks kept in ${field(store.file)}.\n`));
        else {
          const lines = joinLaid(entries.map(entryLine), '\n');
          ctx.stdout(vouched(laid`${lines}\n${vet.count(entries.length)} callback(s) in ${field(store.file)}\n`));
        }
        return EXIT.ok;
      }),
    );
}

function replayCommand(ctx: CliContext) {
  return paygateCommand(
    {
      name: 'replay',
      summary: 'send a kept callback again to a loopback handler and print its answer',
      description:
        "Sends the kept call ID again (method, headers, body) to a loopback handler, to URL exactly with the call's query " +
        'string (where the gateway puts its fields) added to it, and prints the URL it went to and the answer. ' +
        'The body is the one received, byte for byte: callbacks carry no card number, so nothing had to be masked; ' +
        'a call that did carry card data was kept masked, and its replay sends the masked body and says so.',
      exits: SENT_EXITS,
    },
    ctx,
  )
    .argument('<ID>', 'the id shown by "paygate callbacks list" (cb_…)')
    .requiredOption('--to <URL>', 'the loopback handler (http://127.0.0.1:PORT/path or localhost)')
    .option('--state <DIR>', STATE_OPTION_TEXT)
    .action(
      exits(async (id: string, o: { to: string; state?: string }) => {
        const command = 'paygate callbacks replay';
        const t = loopbackUrl(o.to);
        if (!t.ok) return inputError(ctx, command, `--to: ${t.reason}`);
        const store = new CallbackStore(stateDirOption(ctx, o.state));
        const entry = store.get(id);
        if (!entry) return inputError(ctx, command, `no callback ${id} in ${store.file} (see "paygate callbacks list")`);
        ctx.stderr(vouched(laid`${ourWords(command)}: ${entryLine(entry)}\n`));
        const r = await replayEntry(entry, o.to);
        if (r.masked)
          ctx.stderr(saidOut(said`${ourWords(command)}: this call held card data and was kept masked: the masked body was sent\n`));
        return printAnswer(ctx, command, r);
      }),
    );
}

interface SendOptions {
  to: string;
  clientOrderid: string;
  status: string;
  type: string;
  method: 'GET' | 'POST';
  orderid?: string;
  amount: string;
  currency: string;
  controlKey?: string;
  state?: string;
}

function sendCommand(ctx: CliContext) {
  return paygateCommand(
    {
      name: 'send',
      summary: 'make a callback as the gateway would for a charge and send it to a loopback handler',
      description:
        "Makes the callback the gateway would send for a charge (the fields docs/callbacks.md lists, under the gateway's " +
        'names, signed with the control key) and sends it to a loopback handler as the gateway does, a GET with the fields ' +
        "in the URL's query string (after the URL's own query), or with --method POST as a form body; prints the URL it " +
        'went to and the answer: a handler can be tested without waiting for a charge.',
      notes:
        "The control key: --control-key, else $PAYGATE_CONTROL_KEY, else the local gateway's demo merchant's key; without one the callback has no control field.",
      exits: MADE_UP_EXITS,
    },
    ctx,
  )
    .requiredOption('--to <URL>', 'the loopback handler (http://127.0.0.1:PORT/path or localhost)')
    .addOption(choiceOption('--status <STATUS>', 'the status', CALLBACK_STATUSES).default('approved'))
    .addOption(choiceOption('--type <TYPE>', 'the transaction type', CALLBACK_TYPES).default('sale'))
    .option('--client-orderid <ID>', "the merchant's order id (sent as client_orderid and merchant_order)", 'TEST-1')
    .option('--orderid <ID>', "the gateway's transaction id (default: a random one)")
    .option('--amount <A>', 'the amount', '10.00')
    .option('--currency <C>', 'the currency', 'EUR')
    .addOption(
      choiceOption('--method <METHOD>', "GET (the gateway's: fields in the query string) or POST (a form body)", ['GET', 'POST']).default(
        'GET',
      ),
    )
    .option('--control-key <KEY>', 'sign the control field with this key')
    .option('--state <DIR>', STATE_OPTION_TEXT)
    .action(
      exits(async (o: SendOptions) => {
        const command = 'paygate callbacks send';
        const t = loopbackUrl(o.to);
        if (!t.ok) return inputError(ctx, command, `--to: ${t.reason}`);
        const key = controlKeyFor(ctx, o.controlKey, stateDirOption(ctx, o.state));
        const fields = callbackQuery(
          {
            type: o.type,
            status: o.status,
            orderid: o.orderid ?? String(randomInt(1_000_000, 10_000_000)),
            client_orderid: o.clientOrderid,
            amount: o.amount,
            currency: o.currency,
          },
          key,
        );
        const get = o.method === 'GET';
        const to = typed.text(get ? `${t.url.origin}${withQuery(`${t.url.pathname}${t.url.search}`, fields)}` : o.to);
        const body = get ? ourWords('') : said`\n${ourWords(command)}: ${typed.text(fields)}`;
        const unsigned = ourWords(key === undefined ? ' (no control key known: unsigned)' : '');
        ctx.stderr(saidOut(said`${ourWords(command)}: ${typed.text(o.method)} ${to}${body}${unsigned}\n`));
        const r = await sendToHandler(o.to, {
          method: o.method,
          path: get ? `?${fields}` : '',
          headers: get ? [] : [['content-type', 'application/x-www-form-urlencoded']],
          body: Buffer.from(get ? '' : fields, 'utf8'),
        });
        return printAnswer(ctx, command, r);
      }),
    );
}

export function callbacksCommand(ctx: CliContext) {
  const cmd = paygateCommand(
    {
      name: 'callbacks',
      summary: 'list, replay and send callbacks (see "paygate listen")',
      usage: '<list|replay|send> [options]',
      description: 'The callbacks "paygate listen" kept: list them, replay one to your handler, or send one made up as the gateway would.',
      exits: [
        [0, 'done'],
        [2, 'usage error'],
      ],
    },
    ctx,
  );
  cmd.addCommand(listCommand(ctx)).addCommand(replayCommand(ctx)).addCommand(sendCommand(ctx));
  return cmd;
}
