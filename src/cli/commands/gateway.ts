import * as path from 'node:path';
import type { CliContext } from '../context';
import { field, usageError } from '../output';
import { exits, paygateCommand, runCommand } from '../parser';
import { formatGatewayDate } from '../../core/dates';
import {
  defaultStateDir,
  DEMO_PROJECT_CURRENCY,
  PRIVATE_KEY_FILE,
  RUNNING_FILE,
  SIMULATE_500_ORDER_ID,
  startLocalGateway,
} from '../../local-gateway';

export interface GatewayOptions {
  port?: string;
  state?: string;
  quiet?: true;
}

export function gatewayCommand(ctx: CliContext) {
  return paygateCommand(
    {
      name: 'gateway',
      summary: 'run the local gateway on 127.0.0.1 and print its base URLs',
      description:
        'Runs the local gateway (both operations, signatures verified, simulated clock) on 127.0.0.1 until Ctrl+C or ' +
        `SIGTERM. Prints its base URLs and admin token; DIR/${RUNNING_FILE} (mode 0600) holds them while it runs and locks DIR: ` +
        'a second gateway on the same DIR is refused and told who holds it; other paygate commands use the running one.',
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
      'state directory: demo merchant keys, payments, clock (default $PAYGATE_STATE_DIR, else $XDG_STATE_HOME/paygate/gateway, else ~/.local/state/paygate/gateway)',
    )
    .option('--quiet', 'do not log requests to standard error')
    .action(exits((o) => serveGateway(o, ctx)));
}

export const runGateway = (args: string[], ctx: CliContext) => runCommand(gatewayCommand, args, ctx);

export async function serveGateway(values: GatewayOptions, ctx: CliContext): Promise<number> {
  const port = values.port === undefined ? 0 : Number(values.port);
  if (!/^\d+$/.test(values.port ?? '0') || port > 65535) {
    return usageError(ctx, 'paygate gateway', '--port must be a number from 0 to 65535');
  }
  const stateDir = path.resolve(ctx.cwd, values.state ?? defaultStateDir());
  // A log line quotes what clients sent (paths, order ids): one value, one line.
  const log = values.quiet ? undefined : (line: string) => ctx.stderr(`[gateway] ${field(line)}\n`);

  let gateway;
  try {
    gateway = await startLocalGateway({ stateDir, port, log });
  } catch (err) {
    ctx.stderr(`paygate gateway: cannot start: ${field((err as Error).message)}\n`);
    return 1;
  }
  const stop = ctx.stopped();
  try {
    const m = gateway.merchant;
    ctx.stdout(
      [
        'PayGate local gateway',
        `  base URL:         ${gateway.baseUrl}`,
        `  report base URL:  ${gateway.reportBaseUrl}`,
        `  endpoint id:      ${m.endpointId}`,
        `  consumer key:     ${m.consumerKey}`,
        `  control key:      ${m.controlKey} (signs callbacks' control field)`,
        `  project currency: ${DEMO_PROJECT_CURRENCY}`,
        `  RSA private key:  ${path.join(stateDir, PRIVATE_KEY_FILE)}`,
        `  state directory:  ${stateDir}`,
        `  simulated date:   ${formatGatewayDate(gateway.today())}`,
        `  admin token:      ${gateway.adminToken} (new on every start; also in ${path.join(stateDir, RUNNING_FILE)})`,
        `  admin:            curl -X POST -H 'Authorization: Bearer ${gateway.adminToken}' '${gateway.origin}/_local/advance?days=N'`,
        `  500 trigger:      client-orderid ${SIMULATE_500_ORDER_ID}`,
        'Press Ctrl+C to stop.',
        '',
      ].join('\n'),
    );
    const signal = await stop;
    ctx.stderr(`[gateway] ${signal}: stopping\n`);
  } finally {
    await gateway.close();
  }
  return 0;
}
