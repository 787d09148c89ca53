import * as os from 'node:os';
import * as vscode from 'vscode';
import { Disposable } from '../disposable';
import { Ledger, type LedgerStore } from '../../core/ledger';
import { TeamLedger } from '../../core/ledger/team/teamLedger';
import { redactedUrl } from '../../core/ledger/team/url';
import { affectsLedger, configuredLedgerDirectory, LEDGER_URL_SETTING, teamLedgerSetting } from './ledgerDirectory';
import { IMPORT_KEY_COMMAND, teamAccess } from './teamSecrets';

// The editor's handle on the submission ledger (core/ledger): one store at a time. The team ledger when
// the machine setting `paygate.ledger.url` names one, with its password and team key from the editor's
// secret storage (teamSecrets.ts); else the file ledger the CLI writes too, in the CLI's default folder
// unless `paygate.ledger.directory` moves it, whose changes by other processes (the CLI, other windows) a
// file watcher picks up. A team ledger that cannot be used is an error for every caller, never the file
// ledger instead: nothing is sent, and the message names the ledger and what to do.

/** What to do when the team ledger cannot be used from the editor (after the core's reason). */
export const TEAM_REMEDY = `check the server, the setting "paygate.${LEDGER_URL_SETTING}" and the password ("PayGate: Set Team Ledger Password…"), or clear the setting to use this machine's file ledger`;

export class EditorLedger extends Disposable {
  private opened!: Promise<LedgerStore>;
  private file?: Ledger;
  /** Every team ledger opened: ended when the window closes, not on a reopen (a send in flight may still record its answer). */
  private readonly teams: TeamLedger[] = [];
  private generation = 0;
  private where = '';
  private readonly changed = this.register(new vscode.EventEmitter<void>());
  readonly onDidChange = this.changed.event;
  /** The watchers of the file ledger's directory, replaced when a setting moves it. */
  private watching: vscode.Disposable[] = [];

  constructor(private readonly secrets: vscode.SecretStorage) {
    super();
    this.register({
      dispose: () => {
        this.close();
        for (const t of this.teams.splice(0)) void t.close().catch(() => undefined);
      },
    });
    this.open();
    this.register(
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (affectsLedger(e)) this.open();
      }),
    );
    // A password or key stored (this window, another one): the team ledger opens again with it.
    this.register(secrets.onDidChange((e) => e.key.startsWith('paygate.ledger.') && teamLedgerSetting() !== undefined && this.open()));
  }

  /** The store now; rejects with the reason when the team ledger the settings name cannot be opened. */
  store(): Promise<LedgerStore> {
    return this.opened;
  }

  /** Which store, for people: "file ledger /…/ledger.jsonl" or "team ledger postgres://ROLE@HOST:PORT/DB". */
  get place(): string {
    return this.where;
  }

  /** The file ledger when it is the store (archive, the former history's import), else undefined. */
  get fileLedger(): Ledger | undefined {
    return this.file;
  }

  /** Opens the store again now (a password or key just stored from this window). */
  reopen(): void {
    if (teamLedgerSetting() !== undefined) this.open();
  }

  /** Something was written to the team ledger from here (a send, an approval): the views read it again. */
  touched(): void {
    this.changed.fire();
  }

  private close(): void {
    for (const d of this.watching) d.dispose();
    this.watching = [];
    this.file = undefined;
  }

  private open(): void {
    this.close();
    this.generation++;
    const setting = teamLedgerSetting();
    if (setting === undefined) {
      const ledger = new Ledger(configuredLedgerDirectory());
      this.file = ledger;
      this.where = `file ledger ${ledger.filePath}`;
      this.opened = Promise.resolve(ledger);
      const watcher = vscode.workspace.createFileSystemWatcher(
        new vscode.RelativePattern(vscode.Uri.file(ledger.directory), 'ledger*.jsonl'),
      );
      const fire = () => this.changed.fire();
      this.watching = [ledger.onDidChange(fire), watcher, watcher.onDidChange(fire), watcher.onDidCreate(fire), watcher.onDidDelete(fire)];
    } else if (!setting.ok) {
      this.where = `team ledger (${setting.message})`;
      this.opened = Promise.reject(new Error(`the team ledger could not be used: ${setting.message}`));
    } else {
      this.where = `team ledger ${redactedUrl(setting.url)}`;
      this.opened = this.openTeam(setting.url);
    }
    // Callers handle a rejection when they ask; this one is only the view's "changed".
    this.opened.catch(() => undefined);
    this.changed.fire();
  }

  private async openTeam(url: URL): Promise<LedgerStore> {
    const generation = this.generation;
    const access = await teamAccess(this.secrets, url);
    if (this.isDisposed) throw new Error('the editor window is closing');
    // Opened again meanwhile (a setting or a secret changed): that store is the one to use.
    if (generation !== this.generation) return this.opened;
    const team = new TeamLedger({
      url,
      env: { ...process.env, ...(access.password !== undefined ? { PGPASSWORD: access.password } : {}) },
      home: os.homedir(),
      ...(access.key ? { key: access.key } : {}),
      ...(access.keyProblem ? { keyProblem: access.keyProblem } : {}),
      keyRemedy: `run "PayGate: Import Team Ledger Key…" (${IMPORT_KEY_COMMAND}) with it`,
    });
    this.teams.push(team);
    return team;
  }
}
