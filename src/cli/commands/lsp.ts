import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { KEY_FILE_ENV } from '../../core/ledger/team/key';
import { LEDGER_URL_ENV } from '../../core/ledger/team/url';
import { LANGUAGE_ID, type LedgerTarget } from '../../shared/lintProtocol';
import type { CliContext } from '../context';
import { ledgerDirectoryFor } from '../ledgerPlace';
import { activeMaxPayload, activeTarget } from '../ledgerTarget';
import { saidOut, usageError } from '../output';
import { exits, paygateCommand } from '../parser';
import { said, typed } from '../../core/output';

export interface LspOptions {
  stdio?: true;
}

export function lspCommand(ctx: CliContext) {
  return paygateCommand(
    {
      name: 'lsp',
      usage: '--stdio',
      summary: 'language server for any LSP editor (--stdio)',
      description:
        'Runs the PayGate language server (the linter of recurring-payment CSV files, with quick fixes, hovers and completion) ' +
        'for any editor that speaks the Language Server Protocol, over standard input and output. Documents with language id ' +
        `${LANGUAGE_ID} (or named *.rpcsv, *.recurring.csv) are checked. Settings, optional, as initializationOptions or ` +
        'workspace/didChangeConfiguration settings: { "paygate": { "lint": { "run": "onType" | "onSave", "debounceMs": 0 } } }. ' +
        'already-sent and cvv-after-send read the submission ledger paygate submit uses, for the environment it would send to ' +
        '(on open and save; initializationOptions { "paygate": { "ledger": { "directory", "environment", "endpointId" } } } name another). ' +
        'The server runs until the editor sends exit or closes standard input.',
      exits: [
        [0, 'the editor ended the session'],
        [2, 'usage error'],
      ],
    },
    ctx,
  )
    .option('--stdio', 'talk LSP over standard input and output (the only transport)')
    .action(exits((o) => serveLsp(o, ctx)));
}

export async function serveLsp(values: LspOptions, ctx: CliContext): Promise<number> {
  if (!values.stdio) return usageError(ctx, 'paygate lsp', '--stdio is required');
  // Loaded here, not at the top: the language server and its protocol libraries took a quarter of every
  // other command's start (the bundle keeps them, unrun, until this line).
  const [{ createConnection, ProposedFeatures, StreamMessageReader, StreamMessageWriter }, { startServer }] = await Promise.all([
    import('vscode-languageserver/node'),
    import('../../language-server/server.js'),
  ]);
  // The CLI is a launcher: the same server the VS Code extension starts, here over stdio. The connection
  // ends the process itself on `exit` or when standard input closes.
  const connection = createConnection(
    ProposedFeatures.all,
    new StreamMessageReader(process.stdin),
    new StreamMessageWriter(process.stdout),
  );
  const { max } = activeMaxPayload(ctx, {});
  startServer(connection, { ledger: ledgerTarget(ctx), maxPayloadBytes: max });
  return new Promise<number>(() => {});
}

/**
 * The ledger and the environment `paygate submit` would use here; none when the configuration cannot be
 * read. With $PAYGATE_LEDGER_URL the team ledger (its password as the server finds it, as submit's: the URL,
 * $PGPASSWORD or ~/.pgpass; the team key of $PAYGATE_LEDGER_KEY_FILE).
 */
function ledgerTarget(ctx: CliContext): LedgerTarget | undefined {
  const target = activeTarget(ctx, {});
  if (!target.ok) return undefined;
  const url = ctx.env[LEDGER_URL_ENV];
  const keyFile = ctx.env[KEY_FILE_ENV];
  let key: string | undefined;
  if (url && keyFile)
    try {
      key = readFileSync(resolve(ctx.cwd, keyFile), 'utf8');
    } catch (err) {
      // The server says the key is missing when it needs it; this says why.
      ctx.stderr(
        saidOut(
          said`paygate lsp: cannot read the team key ${typed.text(keyFile)} (${typed.text((err as NodeJS.ErrnoException).code ?? String(err))})\n`,
        ),
      );
    }
  const team = url ? { team: { url, ...(key !== undefined ? { key } : {}) } } : {};
  return { directory: ledgerDirectoryFor(ctx, undefined), ...target.value, ...team };
}
