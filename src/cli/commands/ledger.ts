import { existsSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { LEDGER_URL_ENV } from '../../core/ledger/team/connect';
import { KEY_FILE_ENV, readTeamKey, writeNewTeamKey, type TeamKey } from '../../core/ledger/team/key';
import { SCHEMA_VERSION } from '../../core/ledger/team/schema';
import type { LedgerStatus, TeamLedger } from '../../core/ledger/team/teamLedger';
import type { CliContext } from '../context';
import { LedgerUrlError, openTeamLedger, teamLedgerUrl } from '../ledger';
import { field, inputError, jsonLine } from '../output';
import { choiceOption, exits, paygateCommand } from '../parser';
import { userConfigDir } from '../trust';

// `paygate ledger init|status`: the team ledger on PostgreSQL (docs/submissions.md, "One ledger for a
// team"). init creates (or brings forward) the schema and, the first time, the team key: written to a file
// of mode 0600 that each member points PAYGATE_LEDGER_KEY_FILE at, its key check value recorded in the
// database (never the key). status says which store, its schema version, its records and whether the key
// matches.

export interface LedgerOptions {
  ledger?: string;
  keyOut?: string;
  grant?: string;
  format: 'text' | 'json';
}

export function ledgerCommand(ctx: CliContext) {
  return paygateCommand(
    {
      name: 'ledger',
      summary: 'the team ledger on PostgreSQL: init (schema and team key) or status',
      description:
        "init: creates the team ledger's tables in the database (idempotent; an older schema is brought forward) and, the " +
        'first time, a new 32-byte team key written to --key-out FILE with mode 0600 (only its key check value goes into ' +
        `the database): give the file to each member, who sets $${KEY_FILE_ENV} to it. status: which store the commands ` +
        'use, the schema version, how many records (and how many still "sending"), and whether your team key matches.',
      exits: [
        [0, 'done (init), or the team ledger is usable with your key (status)'],
        [1, "status: the schema is missing or old, or your team key is missing or does not match; init: your key is not the team's"],
        [2, 'usage error, or the team ledger could not be reached or refused'],
      ],
    },
    ctx,
  )
    .argument('<ACTION>', 'init or status')
    .option('--ledger <URL>', `the team ledger (postgres://ROLE@HOST:PORT/DATABASE; default $${LEDGER_URL_ENV})`)
    .option('--key-out <FILE>', `init: where to write a new team key (default $${KEY_FILE_ENV}, else ~/.config/paygate/team-ledger.key)`)
    .option(
      '--grant <ROLES>',
      "init: database roles (comma-separated, e.g. a group role of the team's members) given read and write on the tables",
    )
    .addOption(choiceOption('--format <FORMAT>', 'status as text or JSON', ['text', 'json']).default('text'))
    .action(exits((action, o) => ledger(action, o, ctx)));
}

export async function ledger(action: string, o: LedgerOptions, ctx: CliContext): Promise<number> {
  const command = `paygate ledger ${action}`;
  if (action !== 'init' && action !== 'status') return inputError(ctx, 'paygate ledger', `unknown action "${action}" (init or status)`);
  const url = teamLedgerUrl(ctx, o.ledger);
  if (url === undefined)
    return inputError(
      ctx,
      command,
      `no team ledger: pass --ledger postgres://ROLE@HOST:PORT/DATABASE or set $${LEDGER_URL_ENV} (without either, the commands use the file ledger, which needs no setup)`,
    );
  let store: TeamLedger;
  try {
    store = openTeamLedger(ctx, url);
  } catch (err) {
    if (err instanceof LedgerUrlError) return inputError(ctx, command, err.message);
    throw err;
  }
  try {
    return action === 'init' ? await init(store, o, ctx, command) : await status(store, o, ctx);
  } catch (err) {
    return inputError(ctx, command, (err as Error).message);
  } finally {
    await store.close();
  }
}

/** The key file init uses: --key-out, else $PAYGATE_LEDGER_KEY_FILE, else ~/.config/paygate/team-ledger.key. */
function keyFileFor(o: LedgerOptions, ctx: CliContext): string {
  if (o.keyOut) return resolve(ctx.cwd, o.keyOut);
  const env = ctx.env[KEY_FILE_ENV];
  if (env) return resolve(ctx.cwd, env);
  return join(userConfigDir(ctx.env), 'team-ledger.key');
}

async function init(store: TeamLedger, o: LedgerOptions, ctx: CliContext, command: string): Promise<number> {
  const file = keyFileFor(o, ctx);
  // A key file already there is used as it is (init run again); else a new key, written before the database
  // records its check value, and removed again when another member's init recorded one first.
  let key: TeamKey;
  let made = false;
  if (existsSync(file)) {
    const read = readTeamKey(file);
    if (!read.ok) return inputError(ctx, command, read.message);
    key = read.key;
  } else {
    try {
      key = writeNewTeamKey(file);
      made = true;
    } catch (err) {
      return inputError(ctx, command, `cannot write the team key ${file}: ${(err as Error).message}`);
    }
  }
  const grant = (o.grant ?? '')
    .split(',')
    .map((r) => r.trim())
    .filter((r) => r !== '');
  let done;
  try {
    done = await store.init(key, grant);
  } catch (err) {
    if (made) rmSync(file, { force: true });
    throw err;
  }
  ctx.stdout(
    done.from === SCHEMA_VERSION
      ? `${store.place}: the schema is at version ${SCHEMA_VERSION} already.\n`
      : `${store.place}: schema ${done.from === 0 ? 'created' : `brought from version ${done.from}`} at version ${SCHEMA_VERSION}.\n`,
  );
  if (grant.length > 0) ctx.stdout(`Read and write on its tables granted to ${grant.map(field).join(', ')}.\n`);
  if (done.keyRecorded) {
    ctx.stdout(
      `Team key ${made ? 'written to' : 'taken from'} ${field(file)} (mode 0600); its key check value is in the database, the key is not.\n` +
        `Give the file to each member through a safe channel; each sets ${KEY_FILE_ENV} to it.\n`,
    );
    return 0;
  }
  if (made) rmSync(file, { force: true });
  if (done.keyCheck === key.check) {
    ctx.stdout(`The team key was made before; ${field(file)} is it.\n`);
    return 0;
  }
  ctx.stderr(
    `${command}: the team key was made before${made ? '' : `, and ${field(file)} is not it`}: get the file from whoever ran 'paygate ledger init' first and set ${KEY_FILE_ENV} to it` +
      `${made ? ' (no new key was kept)' : ''}\n`,
  );
  return 1;
}

/** Whether the member's key is the team's, in words. */
function keyText(s: LedgerStatus, keyFile: string | undefined): string {
  if (s.keyMatches === true) return `matches (${keyFile})`;
  if (s.keyMatches === false) return `does NOT match (${keyFile}): get the team key from whoever ran 'paygate ledger init'`;
  if (keyFile === undefined) return `not set (${KEY_FILE_ENV}): sends are refused until it is`;
  return `not recorded in the database yet: run 'paygate ledger init'`;
}

function statusText(s: LedgerStatus, keyFile: string | undefined): string {
  const key = keyText(s, keyFile);
  return (
    `store: ${s.place}\n` +
    `role: ${field(s.role)}\n` +
    `schema version: ${s.schemaVersion ?? `none (run 'paygate ledger init')`}${s.schemaVersion !== undefined && s.schemaVersion !== SCHEMA_VERSION ? ` (this PayGate's is ${SCHEMA_VERSION})` : ''}\n` +
    `records: ${s.records}${s.sending > 0 ? ` (${s.sending} still "sending": no answer recorded)` : ''}\n` +
    `team key: ${key}\n`
  );
}

async function status(store: TeamLedger, o: LedgerOptions, ctx: CliContext): Promise<number> {
  const keyFile = ctx.env[KEY_FILE_ENV] ? resolve(ctx.cwd, ctx.env[KEY_FILE_ENV]) : undefined;
  if (keyFile) {
    const read = readTeamKey(keyFile);
    if (!read.ok) return inputError(ctx, 'paygate ledger status', read.message);
  }
  const s = await store.status();
  if (o.format === 'json') ctx.stdout(jsonLine({ store: 'team', ...s, keyFile: keyFile ?? null }));
  else ctx.stdout(statusText(s, keyFile));
  return s.schemaVersion === SCHEMA_VERSION && s.keyMatches === true ? 0 : 1;
}
