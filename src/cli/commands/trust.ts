import { FileRefused, readRegularFileSync } from '../../core/regularFile';
import { resolve } from 'node:path';
import { CONFIG_FILE } from '../config';
import type { CliContext } from '../context';
import { field, inputError, saidOut, usageError } from '../output';
import { exits, paygateCommand } from '../parser';
import { CliConfigSchema, formatZodIssues } from '../../core/gateway';
import { readJsonText } from '../../core/gateway/jsonPosition';
import { readTrustStore, revokeTrust, TRUST_FILE, trustFile, userConfigDir } from '../trust';
import { joinSaid, ourWords, said, typed, type Said } from '../../core/output';

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
function destinations(config: ReturnType<typeof CliConfigSchema.parse>): Said {
  const lines = config.environments.map(
    (e) =>
      said`  ${typed.text(e.name)}${ourWords(e.production ? ' (production)' : '')}: ${typed.text(e.baseUrl)} , reports ${typed.text(e.reportBaseUrl)}\n`,
  );
  return lines.length > 0
    ? said`It sends to:\n${joinSaid(lines, '')}default environment: ${typed.text(config.environment)}\n`
    : said`It defines no environment (default: ${typed.text(config.environment)}).\n`;
}

export async function trust(given: string | undefined, values: TrustOptions, ctx: CliContext): Promise<number> {
  if (values.list && (given !== undefined || values.revoke)) return usageError(ctx, 'paygate trust', '--list stands alone');
  if (values.list) {
    const entries = readTrustStore(ctx.env);
    ctx.stdout(
      saidOut(
        entries.length === 0
          ? said`No trusted files (${typed.text(userConfigDir(ctx.env))}/${typed.text(TRUST_FILE)}).\n`
          : joinSaid(
              entries.map((e) => said`${typed.text(e.path)}  sha256 ${typed.hash(e.sha256, 16)}…  trusted ${typed.date(e.trustedAt)}\n`),
              '',
            ),
      ),
    );
    return 0;
  }
  const file = resolve(ctx.cwd, given ?? CONFIG_FILE);
  // The file's name: one value (a refusal's message names it as text), and as a part of what is said.
  const shown = field(file);
  const named = typed.text(file);
  if (values.revoke) {
    ctx.stdout(saidOut(revokeTrust(ctx.env, file) ? said`No longer trusted: ${named}\n` : said`${named} was not trusted.\n`));
    return 0;
  }
  let bytes: Buffer;
  try {
    bytes = readRegularFileSync(file, shown);
  } catch (err) {
    if (err instanceof FileRefused && err.code !== 'ENOENT') return inputError(ctx, 'paygate trust', err.message);
    const why = (err as NodeJS.ErrnoException).code === 'ENOENT' ? ourWords('no such file') : said`${typed.text((err as Error).message)}`;
    return inputError(ctx, 'paygate trust', said`${named}: cannot read: ${why}`);
  }
  // Only a configuration the CLI can read is recorded: trusting a broken file would trust nothing useful.
  const read = readJsonText(bytes.toString('utf8'));
  if (!read.ok) {
    ctx.stderr(
      saidOut(
        said`paygate trust: ${named}:${typed.count(read.line ?? 1)}:${typed.count(read.column ?? 1)}: invalid JSON: ${typed.text(read.message)}; not trusted\n`,
      ),
    );
    return 1;
  }
  const config = CliConfigSchema.safeParse(read.value);
  if (!config.success) {
    ctx.stderr(saidOut(said`paygate trust: ${named}: ${typed.text(formatZodIssues(config.error))}; not trusted\n`));
    return 1;
  }
  const entry = trustFile(ctx.env, file, bytes);
  ctx.stdout(
    saidOut(
      said`Trusted ${typed.text(entry.path)} (sha256 ${typed.hash(entry.sha256)}).\n${destinations(config.data)}paygate uses it while its content stays exactly the same.\n`,
    ),
  );
  return 0;
}
