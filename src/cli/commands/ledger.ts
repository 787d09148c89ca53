import { existsSync, readFileSync, rmSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { prepareSubmission } from '../../core/gateway/prepare';
import { batchRowKeys, mayHaveCreated, type BatchRowKeys, type SubmissionRecord } from '../../core/ledger';
import type { LedgerSecret } from '../../core/ledger/secret';
import { LEDGER_URL_ENV } from '../../core/ledger/team/url';
import { KEY_FILE_ENV, readTeamKey, writeNewTeamKey, type TeamKey } from '../../core/ledger/team/key';
import { SCHEMA_VERSION } from '../../core/ledger/team/schema';
import type { LedgerStatus, TeamLedger } from '../../core/ledger/team/teamLedger';
import type { CliContext } from '../context';
import { openFileLedger, teamLedgerFor, teamLedgerUrl } from '../ledger';
import { inputError, jsonOut, saidOut } from '../output';
import { choiceOption, exits, paygateCommand } from '../parser';
import { userConfigDir } from '../trust';
import { joinSaid, ourWords, said, typed, type Said } from '../../core/output';

// `paygate ledger init|status`: the team ledger on PostgreSQL (docs/submissions.md, "One ledger for a
// team"). init creates (or brings forward) the schema and, the first time, the team key: written to a file
// of mode 0600 that each member points PAYGATE_LEDGER_KEY_FILE at, its key check value recorded in the
// database (never the key). status says which store, its schema version, its records and whether the key
// matches.

export interface LedgerOptions {
  ledger?: string;
  keyOut?: string;
  grant?: string;
  state?: string;
  format: 'text' | 'json';
}

export function ledgerCommand(ctx: CliContext) {
  return paygateCommand(
    {
      name: 'ledger',
      summary: 'the team ledger on PostgreSQL: init, status, or push a file ledger into it',
      description:
        "init: creates the team ledger's tables in the database (idempotent; an older schema is brought forward) and, the " +
        'first time, a new 32-byte team key written to --key-out FILE with mode 0600 (only its key check value goes into ' +
        `the database): give the file to each member, who sets $${KEY_FILE_ENV} to it. status: which store the commands ` +
        'use, the schema version, how many records (and how many still "sending"), and whether your team key matches. ' +
        "push: copies the file ledger of --state DIR (default: this machine's) into the team ledger; run again, nothing " +
        'doubles. A send that may have created payments claims its content, and its rows when its file is still on disk as ' +
        'sent (its row keys are made again with the team key); the others are pushed file-level and listed.',
      exits: [
        [0, 'done (init), or the team ledger is usable with your key (status)'],
        [1, "status: the schema is missing or old, or your team key is missing or does not match; init: your key is not the team's"],
        [2, 'usage error, or the team ledger could not be reached or refused'],
      ],
    },
    ctx,
  )
    .argument('<ACTION>', 'init, status or push')
    .option('--ledger <URL>', `the team ledger (postgres://ROLE@HOST:PORT/DATABASE; default $${LEDGER_URL_ENV})`)
    .option('--key-out <FILE>', `init: where to write a new team key (default $${KEY_FILE_ENV}, else ~/.config/paygate/team-ledger.key)`)
    .option(
      '--grant <ROLES>',
      "init: database roles (comma-separated, e.g. a group role of the team's members) given read and write on the tables",
    )
    .option(
      '--state <DIR>',
      'push: the file ledger directory (default $PAYGATE_DATA_DIR, else $XDG_DATA_HOME/paygate, else ~/.local/share/paygate)',
    )
    .addOption(choiceOption('--format <FORMAT>', 'status as text or JSON', ['text', 'json']).default('text'))
    .action(exits((action, o) => ledger(action, o, ctx)));
}

export async function ledger(action: string, o: LedgerOptions, ctx: CliContext): Promise<number> {
  const command = `paygate ledger ${action}`;
  if (action !== 'init' && action !== 'status' && action !== 'push')
    return inputError(ctx, 'paygate ledger', said`unknown action "${typed.text(action)}" (init, status or push)`);
  const url = teamLedgerUrl(ctx, o.ledger);
  if (url === undefined)
    return inputError(
      ctx,
      command,
      `no team ledger: pass --ledger postgres://ROLE@HOST:PORT/DATABASE or set $${LEDGER_URL_ENV} (without either, the commands use the file ledger, which needs no setup)`,
    );
  const store = teamLedgerFor(ctx, command, url);
  if (typeof store === 'number') return store;
  try {
    if (action === 'push') return await push(store, o, ctx);
    return action === 'init' ? await init(store, o, ctx, command) : await status(store, o, ctx);
  } catch (err) {
    return inputError(ctx, command, said`${typed.text((err as Error).message)}`);
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
      return inputError(ctx, command, said`cannot write the team key ${typed.text(file)}: ${typed.text((err as Error).message)}`);
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
  // The store's place is our words and its URL (one value, free text); versions and counts are counts.
  const place = typed.text(store.place);
  const version = typed.count(SCHEMA_VERSION);
  const schema = done.from === 0 ? ourWords('created') : said`brought from version ${typed.count(done.from)}`;
  ctx.stdout(
    saidOut(
      done.from === SCHEMA_VERSION
        ? said`${place}: the schema is at version ${version} already.\n`
        : said`${place}: schema ${schema} at version ${version}.\n`,
    ),
  );
  const roles = joinSaid(
    grant.map((r) => typed.text(r)),
    ', ',
  );
  if (grant.length > 0) ctx.stdout(saidOut(said`Read and write on its tables granted to ${roles}.\n`));
  if (done.keyRecorded) {
    ctx.stdout(
      saidOut(
        said`Team key ${ourWords(made ? 'written to' : 'taken from')} ${typed.text(file)} (mode 0600); its key check value is in the database, the key is not.
Give the file to each member through a safe channel; each sets ${ourWords(KEY_FILE_ENV)} to it.\n`,
      ),
    );
    return 0;
  }
  if (made) rmSync(file, { force: true });
  if (done.keyCheck === key.check) {
    ctx.stdout(saidOut(said`The team key was made before; ${typed.text(file)} is it.\n`));
    return 0;
  }
  const notIt = made ? ourWords('') : said`, and ${typed.text(file)} is not it`;
  const kept = ourWords(made ? ' (no new key was kept)' : '');
  ctx.stderr(
    saidOut(
      said`${ourWords(command)}: the team key was made before${notIt}: get the file from whoever ran 'paygate ledger init' first and set ${ourWords(KEY_FILE_ENV)} to it${kept}\n`,
    ),
  );
  return 1;
}

/** Whether the member's key is the team's, in words (the key file a value of its own). */
function keyText(s: LedgerStatus, keyFile: string | undefined): Said {
  if (s.keyMatches === true) return said`matches (${typed.text(keyFile)})`;
  if (s.keyMatches === false) return said`does NOT match (${typed.text(keyFile)}): get the team key from whoever ran 'paygate ledger init'`;
  if (keyFile === undefined) return said`not set (${ourWords(KEY_FILE_ENV)}): sends are refused until it is`;
  return ourWords(`not recorded in the database yet: run 'paygate ledger init'`);
}

/** `paygate ledger status` as text: the place and role as free text, the versions and counts as counts. */
function statusText(s: LedgerStatus, keyFile: string | undefined): Said {
  const version = (v: number | undefined): Said => {
    if (v === undefined) return ourWords(`none (run 'paygate ledger init')`);
    return v === SCHEMA_VERSION ? said`${typed.count(v)}` : said`${typed.count(v)} (this PayGate's is ${typed.count(SCHEMA_VERSION)})`;
  };
  const sending = s.sending > 0 ? said` (${typed.count(s.sending)} still "sending": no answer recorded)` : ourWords('');
  return said`store: ${typed.text(s.place)}
role: ${typed.text(s.role)}
schema version: ${version(s.schemaVersion)}
records: ${typed.count(s.records)}${sending}
team key: ${keyText(s, keyFile)}\n`;
}

async function status(store: TeamLedger, o: LedgerOptions, ctx: CliContext): Promise<number> {
  const keyFile = ctx.env[KEY_FILE_ENV] ? resolve(ctx.cwd, ctx.env[KEY_FILE_ENV]) : undefined;
  if (keyFile) {
    const read = readTeamKey(keyFile);
    if (!read.ok) return inputError(ctx, 'paygate ledger status', read.message);
  }
  const s = await store.status();
  if (o.format === 'json') ctx.stdout(jsonOut({ store: 'team', ...s, keyFile: keyFile ?? null }));
  else ctx.stdout(saidOut(statusText(s, keyFile)));
  return s.schemaVersion === SCHEMA_VERSION && s.keyMatches === true ? 0 : 1;
}

/** A sent batch's row keys under the team key, when its file is still on disk as it was sent; else undefined. */
function rowsStillOnDisk(r: SubmissionRecord, secret: LedgerSecret): BatchRowKeys | undefined {
  let text: string;
  try {
    text = readFileSync(r.file, 'utf8');
  } catch {
    return undefined;
  }
  const prepared = prepareSubmission(text, basename(r.file));
  if (prepared.contentHash !== r.contentHash && !prepared.legacyHashes.includes(r.contentHash)) return undefined;
  return batchRowKeys(prepared.lint.batch, secret);
}

/**
 * Copies the file ledger's records into the team ledger, oldest first, each once (by its id). Row keys in
 * the file ledger are made with that ledger's own key, which the team ledger cannot use: they are made again
 * with the team key from the sent file when it is still on disk as sent, else the send is pushed file-level
 * (its content claimed, its rows not) and listed.
 */
async function push(store: TeamLedger, o: LedgerOptions, ctx: CliContext): Promise<number> {
  const file = openFileLedger(ctx, o.state);
  const records = (await file.read()).records.slice().reverse();
  const secret = await store.secret(true);
  let added = 0;
  let present = 0;
  let withRows = 0;
  const fileLevel: SubmissionRecord[] = [];
  for (const r of records) {
    const rows = mayHaveCreated(r) ? rowsStillOnDisk(r, secret!) : undefined;
    const pushed = await store.pushRecord(r, rows);
    if (pushed === 'present') {
      present++;
      continue;
    }
    added++;
    if (rows) withRows++;
    else if (mayHaveCreated(r)) fileLevel.push(r);
  }
  const there = present > 0 ? said`, ${typed.count(present)} were there already` : ourWords('');
  ctx.stdout(
    saidOut(
      said`${typed.count(added)} record(s) of ${typed.text(file.filePath)} pushed into ${typed.text(store.place)}${there}; ${typed.count(withRows)} send(s) with their rows under the team key.\n`,
    ),
  );
  if (fileLevel.length > 0) {
    ctx.stdout(
      saidOut(
        said`${typed.count(fileLevel.length)} send(s) pushed file-level only (their file is gone or changed since it was sent, so their rows are not guarded across the team):\n`,
      ),
    );
    for (const r of fileLevel)
      ctx.stdout(
        saidOut(
          said`  ${typed.date(r.time)}  ${typed.text(r.file)} → ${typed.text(r.environment)}, endpoint ${typed.text(r.endpointId)}\n`,
        ),
      );
  }
  return 0;
}
