import * as path from 'node:path';
import type { CliContext } from '../context';
import { localGatewayFor, stateDirOption } from '../localGateway';
import { DEFAULT_PATHS } from '../../core/gateway/environments';
import { saidOut, usageError } from '../output';
import { exits, paygateCommand } from '../parser';
import { formatGatewayDate } from '../../core/dates';
import { joinSaid, ourWords, said, typed, type Said } from '../../core/output';
import {
  clientSaid,
  DEFAULT_STATE_DIR_WORDS,
  DEMO_PROJECT_CURRENCY,
  gatewayClients,
  holderSaid,
  loadOrCreateDemoMerchant,
  MAX_ADVANCE_DAYS,
  PRIVATE_KEY_FILE,
  readRunningGateway,
  RUNNING_FILE,
  SIMULATE_500_ORDER_ID,
  simulatedToday,
  startLocalGateway,
  StateDirLockedError,
  type GatewayClient,
  type RunningGateway,
} from '../../local-gateway';

export interface GatewayOptions {
  port?: string;
  state?: string;
  quiet?: true;
  advance?: string;
}

/** How often the client list (and, while watching, the other gateway) is looked at. */
const WATCH_MS = 500;
/** How long a lock may stay held by a gateway that is still starting before this gives up. */
const STARTING_LIMIT_MS = 30_000;
/** What `paygate gateway` calls itself in gateway.json and in the messages of those it refuses. */
const RUN_BY = 'paygate gateway';

export function gatewayCommand(ctx: CliContext) {
  return paygateCommand(
    {
      name: 'gateway',
      summary: 'run (or show) the local gateway on 127.0.0.1, and who uses it',
      description:
        'Runs the local gateway of a state directory (both operations, signatures verified, simulated clock) on 127.0.0.1 until ' +
        `Ctrl+C or SIGTERM, and prints its base URLs, admin token and the editors and commands using it. DIR/${RUNNING_FILE} ` +
        '(mode 0600) holds the addresses while it runs and locks DIR: there is one local gateway per state directory, and the ' +
        'editor and every paygate command use it. When one already runs on DIR (an editor started it, or another terminal), ' +
        'this prints that one instead and watches it; when it stops, this process runs the gateway.',
      notes:
        'Admin (loopback only, header "Authorization: Bearer TOKEN" with the printed admin token): POST {origin}/_local/advance?days=N ' +
        'moves the clock; GET {origin}/_local/payments lists payments.',
      exits: [
        [0, 'stopped cleanly'],
        [1, 'could not start'],
        [2, 'usage error'],
      ],
    },
    ctx,
  )
    .option('--port <N>', 'port to listen on (default 0: any free port)')
    .option(
      '--state <DIR>',
      `state directory: demo merchant keys, payments, clock (default ${DEFAULT_STATE_DIR_WORDS}; the editor uses the same)`,
    )
    .option('--quiet', 'do not log requests to standard error')
    .option(
      '--advance <DAYS>',
      "move the local gateway's simulated clock DAYS days forward (making the charges due meanwhile) and exit, instead of running it: the running one of DIR, else DIR's state",
    )
    .action(exits((o) => (o.advance === undefined ? serveGateway(o, ctx) : advanceClock(o.advance, o, ctx))));
}

/** Says who starts and stops using the gateway, by comparing the client list with the last one. */
class ClientWatch {
  private seen = new Map<string, GatewayClient>();

  constructor(
    private readonly stateDir: string,
    private readonly say: (line: Said) => void,
  ) {}

  /** The list now, remembered as seen (for the card). */
  list(): GatewayClient[] {
    const now = gatewayClients(this.stateDir);
    this.seen = new Map(now.map((c) => [key(c), c]));
    return now;
  }

  refresh(): void {
    const before = this.seen;
    const now = this.list();
    for (const c of now) if (!before.has(key(c))) this.say(said`now used by ${clientSaid(c)}`);
    for (const [k, c] of before) if (!this.seen.has(k)) this.say(said`no longer used by ${clientSaid(c)}`);
  }
}

const key = (c: GatewayClient) => `${c.pid}\0${c.since}\0${c.label}`;
// A lease's label and a lock's runBy are any process's words: free text, each one value on the line.
const usersSaid = (clients: GatewayClient[]) => (clients.length === 0 ? ourWords('nobody yet') : joinSaid(clients.map(clientSaid), '; '));

interface Card {
  title: Said;
  baseUrl: string;
  reportBaseUrl: string;
  origin: string;
  adminToken: string;
  /** The simulated date (`DD.MM.YYYY`), or undefined when not known yet. */
  today: string | undefined;
  clients: GatewayClient[];
}

/** The card: our words, and each value alone (addresses, keys and paths as free text, the date as a date). */
function cardSaid(stateDir: string, c: Card): Said {
  const m = loadOrCreateDemoMerchant(stateDir);
  const at = (file: string) => typed.text(path.join(stateDir, file)); // the user's path: one value, one line
  const today = c.today === undefined ? ourWords('not known yet') : said`${typed.date(c.today)}`;
  return said`${c.title}
  base URL:         ${typed.text(c.baseUrl)}
  report base URL:  ${typed.text(c.reportBaseUrl)}
  endpoint id:      ${typed.text(m.endpointId)}
  consumer key:     ${typed.text(m.consumerKey)}
  control key:      ${typed.text(m.controlKey)} (signs callbacks' control field)
  project currency: ${typed.text(DEMO_PROJECT_CURRENCY)}
  RSA private key:  ${at(PRIVATE_KEY_FILE)}
  state directory:  ${typed.text(stateDir)}
  simulated date:   ${today}
  admin token:      ${typed.text(c.adminToken)} (new on every start; also in ${at(RUNNING_FILE)})
  admin:            curl -X POST -H 'Authorization: Bearer ${typed.text(c.adminToken)}' '${typed.text(c.origin)}/_local/advance?days=N'
  500 trigger:      client-orderid ${typed.text(SIMULATE_500_ORDER_ID)}
  in use by:        ${usersSaid(c.clients)}
`;
}

type Ended = 'stopped' | 'gone';

/**
 * Waits for the stop signal, looking at the clients every WATCH_MS meanwhile; with `holder`, also ends
 * ('gone') once that gateway no longer holds the directory.
 */
async function watch(stop: Promise<string>, clients: ClientWatch, stateDir: string, holder?: RunningGateway): Promise<Ended> {
  for (;;) {
    let timer: NodeJS.Timeout | undefined;
    const tick = new Promise<'tick'>((r) => (timer = setTimeout(() => r('tick'), WATCH_MS)));
    const what = await Promise.race([stop.then(() => 'stop' as const), tick]);
    clearTimeout(timer);
    if (what === 'stop') return 'stopped';
    clients.refresh();
    if (holder) {
      const now = readRunningGateway(stateDir);
      if (now?.pid !== holder.pid || now.adminToken !== holder.adminToken) return 'gone';
    }
  }
}

/** `paygate gateway --advance DAYS`: the terminal's way to move the one local gateway's clock, without curl and a token. */
async function advanceClock(daysText: string, values: GatewayOptions, ctx: CliContext): Promise<number> {
  const days = Number(daysText);
  if (!/^\d+$/.test(daysText) || days < 1 || days > MAX_ADVANCE_DAYS)
    return usageError(
      ctx,
      'paygate gateway',
      said`--advance must be a whole number of days from 1 to ${typed.count(MAX_ADVANCE_DAYS)}, not "${typed.text(daysText)}"`,
    );
  const stateDir = stateDirOption(ctx, values.state);
  const found = await localGatewayFor(stateDir, DEFAULT_PATHS, 'paygate gateway --advance');
  if (!found.ok) {
    ctx.stderr(saidOut(said`paygate gateway: ${typed.text(found.message)}\n`));
    return 1;
  }
  try {
    const a = await found.value.advanceDays(days);
    const approved = a.charges.filter((c) => c.status === 'approved').length;
    const split =
      a.chargeCount === a.charges.length
        ? said` (${typed.count(approved)} approved, ${typed.count(a.charges.length - approved)} declined)`
        : ourWords('');
    ctx.stdout(
      saidOut(
        said`Advanced the local gateway of ${typed.text(stateDir)} ${typed.count(days)} day(s): ${typed.date(a.from)} → ${typed.date(a.today)}; ${typed.count(a.chargeCount)} charge(s) made${split}, ${typed.count(a.stopped.length)} payment(s) stopped\n`,
      ),
    );
    if (a.truncated) ctx.stdout(saidOut(said`Stopped early: ${typed.text(a.truncated.reason)}\n`));
    return 0;
  } catch (err) {
    ctx.stderr(saidOut(said`paygate gateway: cannot advance the clock: ${typed.text((err as Error).message)}\n`));
    return 1;
  } finally {
    await found.value.release();
  }
}

export async function serveGateway(values: GatewayOptions, ctx: CliContext): Promise<number> {
  const port = values.port === undefined ? 0 : Number(values.port);
  if (!/^\d+$/.test(values.port ?? '0') || port > 65535) {
    return usageError(ctx, 'paygate gateway', '--port must be a number from 0 to 65535');
  }
  const stateDir = stateDirOption(ctx, values.state);
  // A log line quotes what clients sent (paths, order ids): one value, one line.
  const log = values.quiet ? undefined : (line: string) => ctx.stderr(saidOut(said`[gateway] ${typed.text(line)}\n`));
  const say = (line: Said) => ctx.stderr(saidOut(said`[gateway] ${line}\n`));
  const stop = ctx.stopped();
  const clients = new ClientWatch(stateDir, say);
  let startingSince: number | undefined;
  // Each turn: run the gateway here, or show and watch the one that runs (until it stops: then run it here).
  for (;;) {
    let gateway;
    try {
      gateway = await startLocalGateway({ stateDir, port, log, runBy: RUN_BY });
    } catch (err) {
      if (!(err instanceof StateDirLockedError)) {
        ctx.stderr(saidOut(said`paygate gateway: cannot start: ${typed.text((err as Error).message)}\n`));
        return 1;
      }
      const holder = readRunningGateway(stateDir);
      if (!holder) {
        // Held by a gateway still starting (or a stale lock being taken over): look again shortly.
        startingSince ??= Date.now();
        if (Date.now() - startingSince > STARTING_LIMIT_MS) {
          ctx.stderr(saidOut(said`paygate gateway: cannot start: ${typed.text(err.message)}\n`));
          return 1;
        }
        if ((await Promise.race([stop.then(() => 'stop'), new Promise((r) => setTimeout(() => r('again'), 100))])) === 'stop') return 0;
        continue;
      }
      startingSince = undefined;
      if (port !== 0 && holder.origin !== '' && !holder.origin.endsWith(`:${port}`))
        say(
          said`--port ${typed.count(port)} is not used: the local gateway already running on ${typed.text(stateDir)} listens on ${typed.text(holder.origin)}`,
        );
      const today = simulatedToday(stateDir);
      const card = cardSaid(stateDir, {
        title: said`PayGate local gateway: already running (${holderSaid(holder)}, since ${typed.date(holder.startedAt)}); shown, not started again`,
        ...holder,
        today: today ? formatGatewayDate(today) : undefined,
        clients: clients.list(),
      });
      ctx.stdout(saidOut(said`${card}Watching it; when it stops, this process runs the local gateway. Press Ctrl+C to stop watching.\n`));
      if ((await watch(stop, clients, stateDir, holder)) === 'stopped') return 0;
      say(said`the local gateway of ${holderSaid(holder)} stopped: running it here`);
      continue;
    }
    try {
      const card = cardSaid(stateDir, {
        title: ourWords('PayGate local gateway'),
        ...gateway,
        today: formatGatewayDate(gateway.today()),
        clients: clients.list(),
      });
      ctx.stdout(saidOut(said`${card}Press Ctrl+C to stop.\n`));
      await watch(stop, clients, stateDir);
      ctx.stderr(saidOut(said`[gateway] ${typed.text(await stop)}: stopping\n`));
    } finally {
      await gateway.close();
    }
    return 0;
  }
}
