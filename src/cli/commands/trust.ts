import { FileRefused, readRegularFileSync } from '../../core/regularFile';
import { resolve } from 'node:path';
import { CONFIG_FILE } from '../config';
import type { CliContext } from '../context';
import { field, inputError, saidOut, usageError } from '../output';
import { exits, paygateCommand } from '../parser';
import { CliConfigSchema, formatZodIssues } from '../../core/gateway';
import { readJsonText } from '../../core/gateway/jsonPosition';
import { readTrustStore, revokeTrust, TRUST_FILE, trustFile, userConfigDir } from '../trust';
import { said, typed } from '../../core/output';

export interface TrustOptions {
  revoke?: true;
  list?: true;
}

export function trustCommand(ctx: CliContext) {
  return paygateCommand(
    {
      name: 'trust',
      summary: 'trust a paygate.config.json (path and SHA-256), as direnv allow does',
      description:
        `A ${CONFIG_FILE} found in the current folder decides where your batches (card data) are sent, so submit and report ` +
        `use it only once you trust it. Trusting records the file's real path and the SHA-256 of its content in ` +
        `$XDG_CONFIG_HOME/paygate/${TRUST_FILE} (else ~/.config/paygate/${TRUST_FILE}); if the file changes, it must be ` +
        `trusted again. A file given with --config, and ~/.config/paygate/${CONFIG_FILE}, are always used.`,
      exits: [
        [0, 'done'],
        [1, 'FILE is not a valid configuration (not trusted)'],
        [2, 'usage error or unreadable FILE'],
      ],
    },
    ctx,
  )
    .argument('[FILE]', `the configuration to trust (default ./${CONFIG_FILE})`)
    .option('--revoke', 'forget FILE')
    .option('--list', 'list the trusted files')
    .action(exits((file, o) => trust(file, o, ctx)));
}

/** What a person checks before trusting: every address the file would send to. */
function destinations(config: ReturnType<typeof CliConfigSchema.parse>): string {
  const lines = config.environments.map(
    (e) => `  ${field(e.name)}${e.production ? ' (production)' : ''}: ${field(e.baseUrl)} , reports ${field(e.reportBaseUrl)}\n`,
  );
  return lines.length > 0
    ? `It sends to:\n${lines.join('')}default environment: ${field(config.environment)}\n`
    : `It defines no environment (default: ${field(config.environment)}).\n`;
}

export async function trust(given: string | undefined, values: TrustOptions, ctx: CliContext): Promise<number> {
  if (values.list && (given !== undefined || values.revoke)) return usageError(ctx, 'paygate trust', '--list stands alone');
  if (values.list) {
    const entries = readTrustStore(ctx.env);
    ctx.stdout(
      entries.length === 0
        ? `No trusted files (${userConfigDir(ctx.env)}/${TRUST_FILE}).\n`
        : entries.map((e) => `${field(e.path)}  sha256 ${field(e.sha256.slice(0, 16))}…  trusted ${field(e.trustedAt)}\n`).join(''),
    );
    return 0;
  }
  const file = resolve(ctx.cwd, given ?? CONFIG_FILE);
  const shown = field(file);
  if (values.revoke) {
    ctx.stdout(revokeTrust(ctx.env, file) ? `No longer trusted: ${shown}\n` : `${shown} was not trusted.\n`);
    return 0;
  }
  let bytes: Buffer;
  try {
    bytes = readRegularFileSync(file, shown);
  } catch (err) {
    if (err instanceof FileRefused && err.code !== 'ENOENT') return inputError(ctx, 'paygate trust', err.message);
    return inputError(
      ctx,
      'paygate trust',
      `${shown}: cannot read: ${(err as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (err as Error).message}`,
    );
  }
  // Only a configuration the CLI can read is recorded: trusting a broken file would trust nothing useful.
  const read = readJsonText(bytes.toString('utf8'));
  if (!read.ok) {
    ctx.stderr(
      saidOut(
        said`paygate trust: ${typed.text(shown)}:${typed.count(read.line ?? 1)}:${typed.count(read.column ?? 1)}: invalid JSON: ${typed.text(read.message)}; not trusted\n`,
      ),
    );
    return 1;
  }
  const config = CliConfigSchema.safeParse(read.value);
  if (!config.success) {
    ctx.stderr(saidOut(said`paygate trust: ${typed.text(shown)}: ${typed.text(formatZodIssues(config.error))}; not trusted\n`));
    return 1;
  }
  const entry = trustFile(ctx.env, file, bytes);
  ctx.stdout(
    `Trusted ${field(entry.path)} (sha256 ${entry.sha256}).\n${destinations(config.data)}paygate uses it while its content stays exactly the same.\n`,
  );
  return 0;
}
