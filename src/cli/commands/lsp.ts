import { LANGUAGE_ID, type LedgerTarget } from '../../shared/lintProtocol';
import type { CliContext } from '../context';
import { ledgerDirectoryFor } from '../ledgerPlace';
import { activeMaxPayload, activeTarget } from '../ledgerTarget';
import { usageError } from '../output';
import { exits, paygateCommand } from '../parser';

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

/** The ledger and the environment `paygate submit` would use here; none when the configuration cannot be read. */
function ledgerTarget(ctx: CliContext): LedgerTarget | undefined {
  // The language server reads the file ledger only: with a team ledger set it checks no already-sent rather
  // than the wrong store's.
  if (ctx.env.PAYGATE_LEDGER_URL) {
    ctx.stderr('paygate lsp: the team ledger ($PAYGATE_LEDGER_URL) is not read by the language server yet: already-sent is not checked\n');
    return undefined;
  }
  const target = activeTarget(ctx, {});
  return target.ok ? { directory: ledgerDirectoryFor(ctx, undefined), ...target.value } : undefined;
}
