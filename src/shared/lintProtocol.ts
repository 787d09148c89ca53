// The contract between the PayGate language server (src/language-server) and its clients: the VS Code
// extension, `paygate lsp --stdio` users' editors and the tests. Free of `vscode` and of Node APIs.

/** The language id documents are opened with; the server lints documents of this language. */
export const LANGUAGE_ID = 'paygate-recurring-csv';

/** `source` of every diagnostic the server publishes (the Problems panel's filter). */
export const DIAGNOSTIC_SOURCE = 'paygate';

/** `editor.codeActionsOnSave: { "source.fixAll.paygate": "explicit" }` asks for this kind. */
export const FIX_ALL_KIND = 'source.fixAll.paygate';

/** The configuration section the server asks for (workspace/configuration) or reads from the settings. */
export const LINT_SECTION = 'paygate.lint';

export type LintRun = 'onType' | 'onSave';

/**
 * `paygate.lint` as the server reads it. `run`: lint after every change (onType) or only on open and save.
 * `debounceMs`: with onType, how long to wait after the last change. With no configuration at all the
 * server lints on every change and publishes at once: waiting is the client's business.
 */
export interface LintSettings {
  run: LintRun;
  debounceMs: number;
}

export const DEFAULT_LINT_SETTINGS: LintSettings = { run: 'onType', debounceMs: 0 };

/** Reads untrusted settings (from a client's JSON) into LintSettings; anything odd falls back to the defaults. */
export function readLintSettings(raw: unknown, fallback: LintSettings = DEFAULT_LINT_SETTINGS): LintSettings {
  const o = raw !== null && typeof raw === 'object' ? (raw as Record<string, unknown>) : {};
  const run = o.run === 'onSave' || o.run === 'onType' ? o.run : fallback.run;
  const d = o.debounceMs;
  const debounceMs = typeof d === 'number' && Number.isFinite(d) ? Math.min(Math.max(0, Math.round(d)), 10_000) : fallback.debounceMs;
  return { run, debounceMs };
}

/**
 * Client → server: the day previews count "today" from. A client whose active target is a local gateway
 * sends that gateway's simulated day (it charges a row without start-date on it, not on this machine's
 * day); no `today`: this machine's date. The hover says which.
 */
export const PREVIEW_TODAY_NOTIFICATION = 'paygate/previewToday';

export interface PreviewToday {
  /** DD.MM.YYYY */
  today?: string;
  /** Where the day comes from, as the hover says it ("the local gateway's simulated date"). */
  source?: string;
}

/**
 * Client → server: the submission ledger and the active target, for `already-sent` (rows whose
 * client-orderid the ledger records in a send to this environment and endpoint that may have created
 * payments) and `cvv-after-send`. Sent again whenever the target or the ledger changes (the server then
 * checks every open document again); null turns both checks off. Without it the server does neither
 * (unless `paygate lsp` was started beside a ledger: it then passes its own, as initializationOptions
 * `{ "paygate": { "ledger": LedgerTarget } }` may too).
 */
export const LEDGER_TARGET_NOTIFICATION = 'paygate/ledgerTarget';

export interface LedgerTarget {
  /** The ledger's directory (the CLI's --state, the editor's paygate.ledger.directory). */
  directory: string;
  environment: string;
  endpointId: string;
  /** For `local`: the local gateway's state directory (another local gateway holds other payments). */
  localStateDir?: string;
  /** For another environment: its create URL as the guard compares it (the same URL under another name is the same target). */
  url?: string;
  /** The team ledger instead of the directory's file ledger (the editor's paygate.ledger.url, $PAYGATE_LEDGER_URL). */
  team?: TeamLedgerTarget;
}

/**
 * The team ledger the server reads: its URL (no password in it), and what the client keeps in its secret
 * storage (the password, the team key as hex), passed over the client's own pipe to the server it started.
 */
export interface TeamLedgerTarget {
  url: string;
  password?: string;
  key?: string;
  /** Why the client's setting names no usable team ledger (the server then says the guard could not be checked). */
  problem?: string;
}

function readTeam(raw: unknown): TeamLedgerTarget | undefined {
  const o = raw !== null && typeof raw === 'object' ? (raw as Record<string, unknown>) : {};
  if (typeof o.problem === 'string' && o.problem !== '') return { url: typeof o.url === 'string' ? o.url : '', problem: o.problem };
  if (typeof o.url !== 'string' || o.url === '') return undefined;
  return {
    url: o.url,
    ...(typeof o.password === 'string' ? { password: o.password } : {}),
    ...(typeof o.key === 'string' ? { key: o.key } : {}),
  };
}

/** Reads an untrusted ledger target (a notification, initializationOptions); undefined when it is not one. */
export function readLedgerTarget(raw: unknown): LedgerTarget | undefined {
  const o = raw !== null && typeof raw === 'object' ? (raw as Record<string, unknown>) : {};
  const { directory, environment, endpointId, localStateDir, url } = o;
  if (typeof directory !== 'string' || typeof environment !== 'string' || typeof endpointId !== 'string') return undefined;
  if (directory === '') return undefined;
  const team = readTeam(o.team);
  const where: Pick<LedgerTarget, 'localStateDir' | 'url'> = {};
  if (typeof localStateDir === 'string' && localStateDir !== '') where.localStateDir = localStateDir;
  else if (typeof url === 'string' && url !== '') where.url = url;
  return { directory, environment, endpointId, ...where, ...(team ? { team } : {}) };
}

/**
 * Client → server: a batch the editor shows but does not pass to the server, because it is too large (VS
 * Code passes no file over 50 MB to extensions). The server reads `uri` (a file: URI) from disk and
 * publishes its problems: on `opened`, again on `changed` (the file changed on disk: a save), and clears
 * them on `closed`. A document of the same URI synced with didOpen takes over.
 */
export const BATCH_ON_DISK_NOTIFICATION = 'paygate/batchOnDisk';

export interface BatchOnDisk {
  uri: string;
  event: 'opened' | 'changed' | 'closed';
}

/** Server → client: a check of a batch on disk has ended (its problems are published). */
export const BATCH_ON_DISK_CHECKED_NOTIFICATION = 'paygate/batchOnDiskChecked';

export interface BatchOnDiskChecked {
  uri: string;
  /** Data rows read, problems found (all of them, not only those published), how long it took. */
  rows: number;
  problems: number;
  ms: number;
  /** Set when the file could not be read, or the check stopped before its end: why, in a sentence. */
  problem?: string;
}

/**
 * Client → server: the active environment's largest create payload (Base64 characters, as sent), for
 * `batch-too-large`. Sent when the client starts and whenever the environment or its settings change;
 * null or no maximum: the local gateway's (8 MiB). initializationOptions `{ "paygate": { "maxPayloadBytes": N } }`
 * may give it too.
 */
export const PAYLOAD_LIMIT_NOTIFICATION = 'paygate/payloadLimit';

export interface PayloadLimit {
  maxPayloadBytes?: number;
}

/** Reads an untrusted maximum (a notification's, initializationOptions'); undefined when it is not a positive whole number. */
export function readPayloadLimit(raw: unknown): number | undefined {
  const n = raw !== null && typeof raw === 'object' ? (raw as Record<string, unknown>).maxPayloadBytes : undefined;
  return typeof n === 'number' && Number.isSafeInteger(n) && n > 0 ? n : undefined;
}

/**
 * Server → client: a line for the client's log, as a `Said` (src/core/output/said.ts: our words and typed
 * values, plain data), sent only to a client whose initializationOptions hold `{ "paygate": { "saidLog":
 * true } }`; any other gets window/logMessage, laid out by the server.
 */
export const LOG_NOTIFICATION = 'paygate/log';

export interface LogLine {
  level: 'error' | 'warn';
  /** A `Said`: checked for its shape by the client before its log shows it. */
  line: unknown;
}
