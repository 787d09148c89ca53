import { createConnection, ProposedFeatures, StreamMessageReader, StreamMessageWriter } from 'vscode-languageserver/node';
import { startServer } from '../../language-server/server';
import { commandArgs } from '../args';
import type { Command } from '../command';

const HELP = `Usage: paygate lsp --stdio

Runs the PayGate language server (the linter of recurring-payment CSV files, with quick fixes, hovers
and completion) for any editor that speaks the Language Server Protocol, over standard input and output.
Documents with language id paygate-recurring-csv (or named *.rpcsv, *.recurring.csv) are checked.
Settings, optional, as initializationOptions or workspace/didChangeConfiguration settings:
  { "paygate": { "lint": { "run": "onType" | "onSave", "debounceMs": 0 } } }

Options:
  --stdio      talk LSP over standard input and output (the only transport)
  -h, --help   this help

The server runs until the editor sends exit or closes standard input.`;

export const lsp: Command = {
  summary: 'language server for any LSP editor (--stdio)',
  async run(args) {
    const parsed = commandArgs('lsp', HELP, args, { stdio: { type: 'boolean' } });
    if (typeof parsed === 'number') return parsed;
    if (!parsed.values.stdio || parsed.positionals.length > 0) {
      process.stderr.write(`paygate lsp: ${parsed.values.stdio ? `unexpected argument "${parsed.positionals[0]}"` : '--stdio is required'}\n${HELP}\n`);
      return 2;
    }
    // The CLI is a launcher: the same server the VS Code extension starts, here over stdio. The
    // connection ends the process itself on `exit` or when standard input closes.
    startServer(createConnection(ProposedFeatures.all, new StreamMessageReader(process.stdin), new StreamMessageWriter(process.stdout)));
    return new Promise<number>(() => {});
  },
};
