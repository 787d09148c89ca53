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
  /**
   * Loads the command's module: a dynamic import, so a process evaluates only the command it runs. Written
   * `import('./commands/x.js').then((m) => m.xCommand)`, so knip sees which export is used and reports the
   * module's others (test/unit/knip-entries.test.ts holds every entry to this form).
   */
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
    load: () => import('./commands/lint.js').then((m) => m.lintCommand),
    options: ['--format', '--max-bytes', '--no-git', '--no-ledger', '--env', '--state', '--config'],
    readme: {
      usage: 'paygate lint FILE...',
      what: 'checks batches: text (`file:line:column: severity code message`), `--format json`, `sarif` or `github`',
      doc: 'ci.md',
    },
  },
  {
    name: 'fix',
    load: () => import('./commands/fix.js').then((m) => m.fixCommand),
    options: ['--dry-run', '--strip-cvv', '--max-bytes'],
    readme: {
      usage: 'paygate fix FILE...',
      what: "applies the safe fixes (`--dry-run` to preview); never weakens a file's permissions or follows a planted link",
      doc: 'limits.md',
    },
  },
  {
    name: 'schedule',
    load: () => import('./commands/schedule.js').then((m) => m.scheduleCommand),
    options: ['--row', '--format', '--limit', '--today'],
    readme: {
      usage: 'paygate schedule FILE',
      what: "each row's charges (a DST row's payouts): index, date, amount",
      doc: 'schedule.md#paygate-schedule',
    },
  },
  {
    name: 'forecast',
    load: () => import('./commands/forecast.js').then((m) => m.forecastCommand),
    options: ['--by', '--from', '--to', '--today', '--format', '--raw'],
    readme: {
      usage: 'paygate forecast FILE',
      what: 'every charge of the batch bucketed by day, week or month per currency, DST payouts apart: bars in the terminal, JSON or CSV',
      doc: 'forecast.md',
    },
  },
  {
    name: 'sign',
    load: () => import('./commands/sign.js').then((m) => m.signCommand),
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
    load: () => import('./commands/submit.js').then((m) => m.submitCommand),
    options: [
      '--env',
      '--base-url',
      '--endpoint-id',
      '--consumer-key',
      '--rsa-key',
      '--format',
      '--yes',
      '--allow-resend',
      '--allow-same-payer',
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
    load: () => import('./commands/history.js').then((m) => m.historyCommand),
    options: ['--format', '--limit', '--state', '--ledger'],
    readme: {
      usage: 'paygate history',
      what: 'the submission ledger shared with the editor: what was sent, where, and what came of it',
      doc: 'submissions.md',
    },
  },
  {
    name: 'ledger',
    load: () => import('./commands/ledger.js').then((m) => m.ledgerCommand),
    options: ['--ledger', '--key-out', '--grant', '--state', '--format'],
    readme: {
      usage: 'paygate ledger init|status|push',
      what: "the team ledger on PostgreSQL: creates its schema and the team key, says which store, its schema version, records and whether the key matches, or copies this machine's file ledger into it",
      doc: 'submissions.md#one-ledger-for-a-team',
    },
  },
  {
    name: 'approve',
    load: () => import('./commands/approve.js').then((m) => m.approveCommand),
    options: ['--env', '--ledger', '--config'],
    readme: {
      usage: 'paygate approve FILE',
      what: 'approves a batch for an environment with `"approvals": N` (maker-checker, in the team ledger)',
      doc: 'submissions.md#approvals-maker-checker',
    },
  },
  {
    name: 'diff',
    load: () => import('./commands/diff.js').then((m) => m.diffCommand),
    options: ['--against', '--format', '--state'],
    readme: {
      usage: 'paygate diff FILE',
      what: 'rows added, removed and changed since the last send (`--against last|FILE|SERIAL`), read back from the ledger; values never shown',
      doc: 'submissions.md',
    },
  },
  {
    name: 'split',
    load: () => import('./commands/split.js').then((m) => m.splitCommand),
    options: ['--max-rows', '--max-bytes', '--out-dir', '--format', '--read-max-bytes'],
    readme: {
      usage: 'paygate split FILE',
      what: 'cuts a batch into parts within `--max-rows` or a payload size (`--max-bytes`); `paygate submit NAME.part-*.rpcsv` sends them, skipping parts already accepted',
      doc: 'submissions.md#splitting-a-big-batch',
    },
  },
  {
    name: 'report',
    load: () => import('./commands/report.js').then((m) => m.reportCommand),
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
      '--max-groups',
    ],
    readme: {
      usage: 'paygate report TEMPLATE',
      what: 'runs a custom report: a table, CSV, JSON or a PDF file',
      doc: 'gateway.md#paygate-report-run-a-custom-report',
    },
  },
  {
    name: 'query',
    load: () => import('./commands/query.js').then((m) => m.queryCommand),
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
      '--max-groups',
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
    load: () => import('./commands/reconcile.js').then((m) => m.reconcileCommand),
    options: ['--report', '--template', '--as-of', '--from', '--column', '--format', '--raw', '--env', '--state', '--config'],
    readme: {
      usage: 'paygate reconcile [BATCH...] --report FILE',
      what: 'did every payment charge as scheduled? one status per batch row (ok, missing, declined, extra, amount-mismatch…) and the report rows of no batch; exit 1 when something needs a look',
      doc: 'reconcile.md',
    },
  },
  {
    name: 'trust',
    load: () => import('./commands/trust.js').then((m) => m.trustCommand),
    options: ['--revoke', '--list'],
    readme: {
      usage: 'paygate trust [FILE]',
      what: "trusts a folder's `paygate.config.json` (its path and SHA-256), since it decides where card data goes",
      doc: 'local-gateway.md#paygate-trust-which-paygateconfigjson-the-cli-uses',
    },
  },
  {
    name: 'gateway',
    load: () => import('./commands/gateway.js').then((m) => m.gatewayCommand),
    options: ['--port', '--state', '--quiet', '--advance'],
    readme: {
      usage: 'paygate gateway',
      what: "runs the local gateway on 127.0.0.1, or shows the one already running (the editor's) and who uses it",
      doc: 'local-gateway.md',
    },
  },
  {
    name: 'listen',
    load: () => import('./commands/listen.js').then((m) => m.listenCommand),
    options: ['--port', '--forward-to', '--control-key', '--format', '--state'],
    readme: {
      usage: 'paygate listen',
      what: "receives the gateway's callbacks on 127.0.0.1: shows each one masked with its `control` checked, keeps them, forwards them with `--forward-to`",
      doc: 'callbacks.md',
    },
  },
  {
    name: 'callbacks',
    load: () => import('./commands/callbacks.js').then((m) => m.callbacksCommand),
    options: [],
    readme: {
      usage: 'paygate callbacks list | replay ID | send',
      what: 'the callbacks `paygate listen` kept; replays one byte for byte, or makes one as the gateway would, to a loopback handler',
      doc: 'callbacks.md',
    },
  },
  {
    name: 'demo',
    load: () => import('./commands/demo.js').then((m) => m.demoCommand),
    options: ['--examples', '--state', '--days', '--port'],
    readme: {
      usage: 'paygate demo',
      what: 'the tour: local gateway, lint, submit, a simulated month, a report, a reconciliation',
      doc: 'gateway.md#try-it-paygate-demo',
    },
  },
  {
    name: 'lsp',
    load: () => import('./commands/lsp.js').then((m) => m.lspCommand),
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
