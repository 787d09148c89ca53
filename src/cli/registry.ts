import type { CommandUnknownOpts } from '@commander-js/extra-typings';
import type { CliContext } from './context';

// The one list of `paygate`'s commands. Everything that names the commands is made from it: the
// launcher (launch.ts loads only the module of the command it runs), `paygate --help` and docs/cli.md
// (program.ts builds the whole program in this order), the options test (test/process/cli-program.test.ts)
// and the README's command-line table (`npm run readme`; both rendered by test/tools/cli-docs.ts). A new command is one entry here and its module
// in commands/ (CONTRIBUTING.md, "Add a CLI subcommand").

/** Builds a command on the given context (each module in commands/ exports one). */
export type CommandBuilder = (ctx: CliContext) => CommandUnknownOpts;

export interface CommandEntry {
  /** What a user types after `paygate`; the module's command must have this name. */
  readonly name: string;
  /** Loads the command's module: a dynamic import, so a process evaluates only the command it runs. */
  readonly load: () => Promise<CommandBuilder>;
  /** The options scripts depend on, in the order the command defines them: the options test fails when
   *  the command's options differ, so dropping or renaming one is a visible, deliberate change. */
  readonly options: readonly string[];
  /** The README's command-line table: what a user types, what it does, and the docs/ page that tells more. */
  readonly readme: { readonly usage: string; readonly what: string; readonly doc: string };
}

export const COMMANDS: readonly CommandEntry[] = [
  {
    name: 'lint',
    load: async () => (await import('./commands/lint.js')).lintCommand,
    options: ['--format', '--max-bytes', '--no-git', '--no-ledger', '--env', '--state', '--config'],
    readme: {
      usage: 'paygate lint FILE...',
      what: 'checks batches: text (`file:line:column: severity code message`), `--format json`, `sarif` or `github`',
      doc: 'ci.md',
    },
  },
  {
    name: 'fix',
    load: async () => (await import('./commands/fix.js')).fixCommand,
    options: ['--dry-run', '--strip-cvv', '--max-bytes'],
    readme: {
      usage: 'paygate fix FILE...',
      what: "applies the safe fixes (`--dry-run` to preview); never weakens a file's permissions or follows a planted link",
      doc: 'limits.md',
    },
  },
  {
    name: 'schedule',
    load: async () => (await import('./commands/schedule.js')).scheduleCommand,
    options: ['--row', '--format', '--limit', '--today'],
    readme: {
      usage: 'paygate schedule FILE',
      what: "each row's charges (a DST row's payouts): index, date, amount",
      doc: 'schedule.md#paygate-schedule',
    },
  },
  {
    name: 'forecast',
    load: async () => (await import('./commands/forecast.js')).forecastCommand,
    options: ['--by', '--from', '--to', '--today', '--format', '--raw'],
    readme: {
      usage: 'paygate forecast FILE',
      what: 'every charge of the batch bucketed by day, week or month per currency, DST payouts apart: bars in the terminal, JSON or CSV',
      doc: 'forecast.md',
    },
  },
  {
    name: 'sign',
    load: async () => (await import('./commands/sign.js')).signCommand,
    options: [
      '--method',
      '--url',
      '--consumer-key',
      '--consumer-secret',
      '--rsa-key',
      '--signature-method',
      '--token',
      '--token-secret',
      '--param',
      '--timestamp',
      '--nonce',
      '--realm',
      '--format',
    ],
    readme: {
      usage: 'paygate sign …',
      what: 'an OAuth 1.0a signature, its base string and header; sends nothing',
      doc: 'gateway.md#paygate-sign-debug-a-signature',
    },
  },
  {
    name: 'submit',
    load: async () => (await import('./commands/submit.js')).submitCommand,
    options: [
      '--env',
      '--base-url',
      '--endpoint-id',
      '--consumer-key',
      '--rsa-key',
      '--format',
      '--yes',
      '--allow-resend',
      '--state',
      '--ledger',
      '--config',
    ],
    readme: {
      usage: 'paygate submit FILE...',
      what: 'checks, signs and sends a batch (or the parts of a split one, in order) once; refuses content or rows already (or possibly) sent unless `--allow-resend`',
      doc: 'submissions.md',
    },
  },
  {
    // The user-facing name of the ledger's listing stays `history` (scripts call it); in the code it is the ledger.
    name: 'history',
    load: async () => (await import('./commands/history.js')).historyCommand,
    options: ['--format', '--limit', '--state', '--ledger'],
    readme: {
      usage: 'paygate history',
      what: 'the submission ledger shared with the editor: what was sent, where, and what came of it',
      doc: 'submissions.md',
    },
  },
  {
    name: 'ledger',
    load: async () => (await import('./commands/ledger.js')).ledgerCommand,
    options: ['--ledger', '--key-out', '--grant', '--format'],
    readme: {
      usage: 'paygate ledger init|status',
      what: 'the team ledger on PostgreSQL: creates its schema and the team key, or says which store, its schema version, records and whether the key matches',
      doc: 'submissions.md#one-ledger-for-a-team',
    },
  },
  {
    name: 'diff',
    load: async () => (await import('./commands/diff.js')).diffCommand,
    options: ['--against', '--format', '--state'],
    readme: {
      usage: 'paygate diff FILE',
      what: 'rows added, removed and changed since the last send (`--against last|FILE|SERIAL`), read back from the ledger; values never shown',
      doc: 'submissions.md',
    },
  },
  {
    name: 'split',
    load: async () => (await import('./commands/split.js')).splitCommand,
    options: ['--max-rows', '--max-bytes', '--out-dir', '--format', '--read-max-bytes'],
    readme: {
      usage: 'paygate split FILE',
      what: 'cuts a batch into parts within `--max-rows` or a payload size (`--max-bytes`); `paygate submit NAME.part-*.rpcsv` sends them, skipping parts already accepted',
      doc: 'submissions.md#splitting-a-big-batch',
    },
  },
  {
    name: 'report',
    load: async () => (await import('./commands/report.js')).reportCommand,
    options: [
      '--env',
      '--report-base-url',
      '--consumer-key',
      '--consumer-secret',
      '--out',
      '--format',
      '--raw',
      '--max-answer-bytes',
      '--config',
      '--where',
      '--group-by',
      '--by',
      '--count',
      '--sum',
      '--min',
      '--max',
      '--avg',
      '--currency',
      '--view',
    ],
    readme: {
      usage: 'paygate report TEMPLATE',
      what: 'runs a custom report: a table, CSV, JSON or a PDF file',
      doc: 'gateway.md#paygate-report-run-a-custom-report',
    },
  },
  {
    name: 'query',
    load: async () => (await import('./commands/query.js')).queryCommand,
    options: [
      '--where',
      '--group-by',
      '--by',
      '--count',
      '--sum',
      '--min',
      '--max',
      '--avg',
      '--currency',
      '--view',
      '--template',
      '--delimiter',
      '--format',
      '--raw',
    ],
    readme: {
      usage: 'paygate query FILE',
      what: 'filters, groups and totals a saved report (or standard input): `--where EXPR`, `--group-by COL`, `--by day|week|month`, `--sum`/`--min`/`--max`/`--avg COL`, `--count`, `--view NAME`; the same options on `paygate report`',
      doc: 'cli.md#paygate-query',
    },
  },
  {
    name: 'reconcile',
    load: async () => (await import('./commands/reconcile.js')).reconcileCommand,
    options: ['--report', '--template', '--as-of', '--from', '--column', '--format', '--raw', '--env', '--state', '--config'],
    readme: {
      usage: 'paygate reconcile [BATCH...] --report FILE',
      what: 'did every payment charge as scheduled? one status per batch row (ok, missing, declined, extra, amount-mismatch…) and the report rows of no batch; exit 1 when something needs a look',
      doc: 'reconcile.md',
    },
  },
  {
    name: 'trust',
    load: async () => (await import('./commands/trust.js')).trustCommand,
    options: ['--revoke', '--list'],
    readme: {
      usage: 'paygate trust [FILE]',
      what: "trusts a folder's `paygate.config.json` (its path and SHA-256), since it decides where card data goes",
      doc: 'local-gateway.md#paygate-trust-which-paygateconfigjson-the-cli-uses',
    },
  },
  {
    name: 'gateway',
    load: async () => (await import('./commands/gateway.js')).gatewayCommand,
    options: ['--port', '--state', '--quiet', '--advance'],
    readme: {
      usage: 'paygate gateway',
      what: "runs the local gateway on 127.0.0.1, or shows the one already running (the editor's) and who uses it",
      doc: 'local-gateway.md',
    },
  },
  {
    name: 'listen',
    load: async () => (await import('./commands/listen.js')).listenCommand,
    options: ['--port', '--forward-to', '--control-key', '--format', '--state'],
    readme: {
      usage: 'paygate listen',
      what: "receives the gateway's callbacks on 127.0.0.1: shows each one masked with its `control` checked, keeps them, forwards them with `--forward-to`",
      doc: 'callbacks.md',
    },
  },
  {
    name: 'callbacks',
    load: async () => (await import('./commands/callbacks.js')).callbacksCommand,
    options: [],
    readme: {
      usage: 'paygate callbacks list | replay ID | send',
      what: 'the callbacks `paygate listen` kept; replays one byte for byte, or makes one as the gateway would, to a loopback handler',
      doc: 'callbacks.md',
    },
  },
  {
    name: 'demo',
    load: async () => (await import('./commands/demo.js')).demoCommand,
    options: ['--examples', '--state', '--days', '--port'],
    readme: {
      usage: 'paygate demo',
      what: 'the tour: local gateway, lint, submit, a simulated month, a report, a reconciliation',
      doc: 'gateway.md#try-it-paygate-demo',
    },
  },
  {
    name: 'lsp',
    load: async () => (await import('./commands/lsp.js')).lspCommand,
    options: ['--stdio'],
    readme: {
      usage: 'paygate lsp --stdio',
      what: 'the language server, for Neovim, Helix and any LSP editor',
      doc: 'editors.md',
    },
  },
];

/** The entry of a command's name, if `paygate` has such a command. */
export function commandEntry(name: string | undefined): CommandEntry | undefined {
  return COMMANDS.find((c) => c.name === name);
}
