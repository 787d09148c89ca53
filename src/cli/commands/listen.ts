import * as path from 'node:path';
import type { CliContext } from '../context';
import { laid, ourWords, said, typed, vouched } from '../../core/output';
import { field, inputError, jsonOut, saidOut, usageError } from '../output';
import { choiceOption, exits, paygateCommand } from '../parser';
import { loopbackUrl } from '../../core/callbacks/loopback';
import {
  CALLBACKS_FILE,
  CallbackStore,
  DRAIN_MS,
  entryLine,
  ForwardToSelfError,
  HOP_HEADER,
  MAX_STORED_CALLBACKS,
  startCallbackListener,
} from '../../callback-listener';
import { DEFAULT_STATE_DIR_WORDS, demoControlKey } from '../../local-gateway';
import { stateDirOption } from '../localGateway';

export interface ListenOptions {
  port?: string;
  forwardTo?: string;
  controlKey?: string;
  format: 'text' | 'json';
  state?: string;
}

export const STATE_OPTION_TEXT = `state directory holding the kept callbacks and the local gateway's control key (default ${DEFAULT_STATE_DIR_WORDS})`;

/** `--control-key`, else $PAYGATE_CONTROL_KEY, else the local gateway's demo merchant's key, else none. */
export function controlKeyFor(ctx: CliContext, given: string | undefined, stateDir: string): string | undefined {
  return given ?? ctx.env['PAYGATE_CONTROL_KEY'] ?? demoControlKey(stateDir);
}

export function listenCommand(ctx: CliContext) {
  return paygateCommand(
    {
      name: 'listen',
      summary: 'receive callbacks on 127.0.0.1: show, keep and forward them',
      description:
        'Receives callbacks (any path, any method) on 127.0.0.1 until Ctrl+C or SIGTERM. Prints "listening on ' +
        'http://127.0.0.1:PORT/" first, then one line (or one JSON object) per call with its fields decoded (the query ' +
        "string, as the gateway sends them with GET, and a form body; a field in both is one field, the body's value) and card " +
        `numbers masked, "control: valid|invalid|absent" when the control key is known, and "repeat of ID" when it repeats an ` +
        'earlier call (same status, type, orderid and client_orderid). Answers 200 "OK", or with ' +
        "--forward-to passes the call on (method, headers, body; to the target's URL exactly, the call's query added to it) " +
        `plus a ${HOP_HEADER} header naming this listener, to a loopback handler, and answers with the handler's status and body ` +
        '(502 when it is down or slow). Keeps the newest ' +
        `${MAX_STORED_CALLBACKS} calls in DIR/${CALLBACKS_FILE} and the file before it, callbacks.1.jsonl, for "paygate callbacks list" and "replay". ` +
        'Card numbers are masked and CVVs dropped in every field, header, path, query and body before anything is printed or kept.',
      notes:
        "The control key: --control-key, else $PAYGATE_CONTROL_KEY, else the local gateway's demo merchant's key (shown by " +
        '"paygate gateway"). A body over 64 KiB gets 413, a malformed form 400, a sender that stalls (headers or body) 408, ' +
        'a call this listener already forwarded 508 Loop Detected; the listener keeps serving. A --forward-to that is the ' +
        `listener's own address and port is refused. Ctrl+C or SIGTERM answers the calls in flight first (at most ${DRAIN_MS / 1000} s; 503 for any left).`,
      exits: [
        [0, 'stopped cleanly'],
        [1, 'could not start (the port is taken)'],
        [2, 'usage error'],
      ],
    },
    ctx,
  )
    .option('--port <N>', 'port to listen on (default 0: any free port)')
    .option('--forward-to <URL>', 'a loopback handler (http://127.0.0.1:PORT/path or localhost) each call is passed on to')
    .option('--control-key <KEY>', "the merchant's control key the calls' control field is checked with")
    .addOption(
      choiceOption(
        '--format <FORMAT>',
        'text, or one JSON object per line: {"id","time","method","path","fields","control","forwarded","repeatOf"}',
        ['text', 'json'],
      ).default('text'),
    )
    .option('--state <DIR>', STATE_OPTION_TEXT)
    .action(exits((o) => listen(o, ctx)));
}

export async function listen(o: ListenOptions, ctx: CliContext): Promise<number> {
  const port = o.port === undefined ? 0 : Number(o.port);
  if (!/^\d+$/.test(o.port ?? '0') || port > 65535) return usageError(ctx, 'paygate listen', '--port must be a number from 0 to 65535');
  if (o.forwardTo !== undefined) {
    const t = loopbackUrl(o.forwardTo);
    if (!t.ok) return inputError(ctx, 'paygate listen', `--forward-to: ${t.reason}`);
  }
  const stateDir = stateDirOption(ctx, o.state);
  const controlKey = controlKeyFor(ctx, o.controlKey, stateDir);
  let listener;
  try {
    listener = await startCallbackListener({
      port,
      forwardTo: o.forwardTo,
      controlKey,
      store: new CallbackStore(stateDir),
      onCall: (e) => {
        if (o.format === 'json') {
          const { id, time, method, path: p, fields, control, forwarded, repeatOf } = e;
          ctx.stdout(jsonOut({ id, time, method, path: p, fields, control, forwarded, ...(repeatOf ? { repeatOf } : {}) }));
        } else ctx.stdout(vouched(laid`${entryLine(e)}\n`));
      },
      onRejected: (line) => ctx.stderr(saidOut(said`[listen] ${typed.text(line)}\n`)),
    });
  } catch (err) {
    if (err instanceof ForwardToSelfError) return inputError(ctx, 'paygate listen', `--forward-to: ${err.message}`);
    ctx.stderr(saidOut(said`paygate listen: cannot start: ${typed.text((err as Error).message)}\n`));
    return 1;
  }
  const stop = ctx.stopped();
  try {
    ctx.stdout(vouched(laid`listening on ${field(listener.url)}\n`));
    const doing = o.forwardTo ? said`forwarding to ${typed.text(o.forwardTo)}` : ourWords('answering 200 OK');
    const control = ourWords(controlKey === undefined ? 'not checked (no key)' : 'checked');
    ctx.stderr(
      saidOut(said`[listen] ${doing}; control ${control}; kept in ${typed.text(path.join(stateDir, CALLBACKS_FILE))}; Ctrl+C to stop\n`),
    );
    const signal = await stop;
    ctx.stderr(
      saidOut(
        said`[listen] ${typed.text(signal)}: stopping (calls in flight are answered first, at most ${typed.count(DRAIN_MS / 1000)} s)\n`,
      ),
    );
  } finally {
    await listener.close();
  }
  return 0;
}
