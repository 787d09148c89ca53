import * as path from 'node:path';
import { parseArgs } from 'node:util';
import type { Command } from '../command';
import { formatGatewayDate } from '../../core/dates';
import {
  defaultStateDir,
  DEMO_PROJECT_CURRENCY,
  PRIVATE_KEY_FILE,
  RUNNING_FILE,
  SIMULATE_500_ORDER_ID,
  startLocalGateway,
} from '../../local-gateway';

const HELP = `Usage: paygate gateway [--port N] [--state DIR] [--quiet]

Runs the local gateway (both operations, signatures verified, simulated clock) on 127.0.0.1 until
Ctrl+C or SIGTERM. Prints its base URLs and admin token; DIR/${RUNNING_FILE} (mode 0600) holds them while
it runs and locks DIR: a second gateway on the same DIR is refused and told who holds it.

Options:
  --port N     port to listen on (default 0: any free port)
  --state DIR  state directory: demo merchant keys, payments, clock
               (default $PAYGATE_STATE_DIR, else $XDG_STATE_HOME/paygate/gateway, else ~/.local/state/paygate/gateway)
  --quiet      do not log requests to standard error
  -h, --help   this help

Admin (loopback only, header "Authorization: Bearer TOKEN" with the printed admin token):
POST {origin}/_sim/advance?days=N moves the clock; GET {origin}/_sim/payments lists payments.
Exit status: 0 stopped cleanly, 1 could not start, 2 usage error.`;

export interface GatewayIo {
  stdout(text: string): void;
  stderr(text: string): void;
  /** Resolves when the gateway should stop (the CLI: SIGINT or SIGTERM). */
  stopped(): Promise<string>;
}

function processIo(): GatewayIo {
  return {
    stdout: (t) => process.stdout.write(t),
    stderr: (t) => process.stderr.write(t),
    stopped: () =>
      new Promise((resolve) => {
        const on = (signal: NodeJS.Signals) => {
          process.off('SIGINT', on);
          process.off('SIGTERM', on);
          resolve(signal);
        };
        process.on('SIGINT', on);
        process.on('SIGTERM', on);
      }),
  };
}

export async function runGateway(args: string[], io: GatewayIo): Promise<number> {
  let values: { port?: string; state?: string; quiet?: boolean; help?: boolean };
  try {
    ({ values } = parseArgs({
      args,
      options: { port: { type: 'string' }, state: { type: 'string' }, quiet: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } },
      strict: true,
      allowPositionals: false,
    }));
  } catch (err) {
    io.stderr(`paygate gateway: ${(err as Error).message}\n\n${HELP}\n`);
    return 2;
  }
  if (values.help) {
    io.stdout(`${HELP}\n`);
    return 0;
  }
  const port = values.port === undefined ? 0 : Number(values.port);
  if (!/^\d+$/.test(values.port ?? '0') || port > 65535) {
    io.stderr(`paygate gateway: --port must be a number from 0 to 65535\n`);
    return 2;
  }
  const stateDir = path.resolve(values.state ?? defaultStateDir());
  const log = values.quiet ? undefined : (line: string) => io.stderr(`[gateway] ${line}\n`);

  let gateway;
  try {
    gateway = await startLocalGateway({ stateDir, port, log });
  } catch (err) {
    io.stderr(`paygate gateway: cannot start: ${(err as Error).message}\n`);
    return 1;
  }
  const stop = io.stopped();
  try {
    const m = gateway.merchant;
    io.stdout(
      [
        'PayGate local gateway',
        `  base URL:         ${gateway.baseUrl}`,
        `  report base URL:  ${gateway.reportBaseUrl}`,
        `  endpoint id:      ${m.endpointId}`,
        `  consumer key:     ${m.consumerKey}`,
        `  project currency: ${DEMO_PROJECT_CURRENCY}`,
        `  RSA private key:  ${path.join(stateDir, PRIVATE_KEY_FILE)}`,
        `  state directory:  ${stateDir}`,
        `  simulated date:   ${formatGatewayDate(gateway.today())}`,
        `  admin token:      ${gateway.adminToken} (new on every start; also in ${path.join(stateDir, RUNNING_FILE)})`,
        `  admin:            curl -X POST -H 'Authorization: Bearer ${gateway.adminToken}' '${gateway.origin}/_sim/advance?days=N'`,
        `  500 trigger:      client-orderid ${SIMULATE_500_ORDER_ID}`,
        'Press Ctrl+C to stop.',
        '',
      ].join('\n'),
    );
    const signal = await stop;
    io.stderr(`[gateway] ${signal}: stopping\n`);
  } finally {
    await gateway.close();
  }
  return 0;
}

export const gateway: Command = {
  summary: 'run the local gateway on 127.0.0.1 and print its base URLs',
  run: (args) => runGateway(args, processIo()),
};
