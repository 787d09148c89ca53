import * as path from 'node:path';
import * as vscode from 'vscode';
import { Disposable } from '../disposable';
import { localGatewayPlace, recordedOutcomeText, whoSent, type Approval, type SubmissionRecord } from '../../core/ledger';
import { approvalsText } from '../../core/ledger/approvals';
import { errorMessage } from '../../core/errorMessage';
import { recordedFacts } from '../../core/gateway/outcomes';
import type { EditorLedger } from './editorLedger';
import { requestTimeoutMs } from '../environments/settings';
import type { ResultsPanelApi } from '../results/register';
import type { SubmissionView } from '../../shared/submissionView';
import { newestSubmissions, type SubmissionsPage } from './page';
import { recordView } from './recordView';
import { ourWords, said, typed, type Said } from '../../core/output';
import { showError, showInfo, showWarning, shown } from '../say';

// The "Submissions" tree: one item per submission (newest first) with its outcome as the icon, and the
// gateway's ids and serial numbers as children. Failures get a warning-coloured icon. It shows the newest
// SUBMISSIONS_PAGE and a "Show older" item for the next ones: the ledger is read backwards only as far as
// shown (Ledger.recent), so a refresh after each send costs the same with ten records or a million.
// Every label, description and tooltip passes the editor's floor (../say.ts `shown`), its dates, counts and
// hashes as typed values (issue 38): a hash's prefix beside a date is never read as one number.

export const SUBMISSIONS_VIEW = 'paygate.submissions';
export const SHOW_OLDER_COMMAND = 'paygate.history.showOlder';
export const SUBMISSIONS_PAGE = 200;

type Node =
  /** Which store the view shows (file or team), and why it cannot be read when it cannot. */
  | { kind: 'store'; place: string; problem?: string }
  | { kind: 'approvals'; list: [string, Approval[]][] }
  | { kind: 'approval'; key: string; approvals: Approval[] }
  | { kind: 'record'; record: SubmissionRecord }
  | { kind: 'detail'; label: string; description?: Said; icon: string; record: SubmissionRecord }
  | { kind: 'older'; shown: number };

/** A record still 'sending' long after any answer could come: the editor closed or crashed mid-request. */
function interrupted(r: SubmissionRecord): boolean {
  return r.state === 'sending' && Date.now() - Date.parse(r.time) > requestTimeoutMs() + 30_000;
}

/** The icon of a record: the tone of its outcome in the core's table (an unknown name may have created payments). */
function recordIcon(r: SubmissionRecord): vscode.ThemeIcon {
  if (interrupted(r)) return new vscode.ThemeIcon('question', new vscode.ThemeColor('list.warningForeground'));
  if (r.state === 'sending') return new vscode.ThemeIcon('loading~spin');
  if (r.outcome === 'withdrawn') return new vscode.ThemeIcon('circle-slash');
  switch (recordedFacts(r.outcome)?.tone ?? 'unknown') {
    case 'ok':
      return new vscode.ThemeIcon('pass', new vscode.ThemeColor('testing.iconPassed'));
    case 'unknown':
      return new vscode.ThemeIcon('question', new vscode.ThemeColor('list.warningForeground'));
    case 'failed':
      return new vscode.ThemeIcon('warning', new vscode.ThemeColor('list.warningForeground'));
  }
}

/** The outcome line of a submission: an interrupted or unknown send says the payments may exist. */
function stateText(r: SubmissionRecord): Said {
  if (interrupted(r)) return ourWords('no answer recorded: interrupted while sending; the gateway may have created the payments');
  if (r.state === 'sending') return ourWords('sending…');
  return recordedOutcomeText(r);
}

function details(r: SubmissionRecord): Node[] {
  const d = (label: string, description: Said | undefined, icon: string): Node => ({
    kind: 'detail',
    label,
    description,
    icon,
    record: r,
  });
  const out: Node[] = [d('outcome', stateText(r), 'info')];
  const text = (v: string) => said`${typed.text(v)}`;
  if (r.message && r.outcome !== 'accepted') out.push(d('message', text(r.message), 'comment'));
  r.recurringPaymentIds.forEach((id, i) =>
    out.push(d('recurring-payment-id', r.statuses[i] ? said`${typed.text(id)} · ${typed.text(r.statuses[i])}` : text(id), 'symbol-key')),
  );
  for (const s of r.serialNumbers) out.push(d('serial-number', text(s), 'symbol-number'));
  if (r.errorCode) out.push(d('error-code', text(r.errorCode), 'symbol-number'));
  if (r.errorId) out.push(d('error id', text(r.errorId), 'symbol-number'));
  out.push(d('endpoint', said`${typed.text(r.endpointId)} · ${typed.text(r.endpoint)}`, 'link'));
  if (r.localGateway) out.push(d('local gateway', localGatewayPlace(r.localGateway), 'server-environment'));
  const face = r.face === 'cli' ? 'paygate CLI' : 'the editor';
  // A team ledger's record says who sent it (the database role) and from which machine.
  out.push(d('sent from', whoSent(r) ?? ourWords(face), 'device-desktop'));
  out.push(d('rows', said`${typed.count(r.rowCount)}`, 'list-flat'));
  out.push(d('sha256', said`${typed.hash(r.contentHash)}`, 'lock'));
  return out;
}

export class SubmissionsTree extends Disposable implements vscode.TreeDataProvider<Node> {
  private readonly changed = this.register(new vscode.EventEmitter<Node | undefined>());
  readonly onDidChangeTreeData = this.changed.event;

  /** How many of the newest records the tree shows; "Show older" adds a page. */
  private shown = SUBMISSIONS_PAGE;
  /** The records last shown, by id: a click opens the record the tree already read. */
  private readonly listed = new Map<string, SubmissionRecord>();

  constructor(private readonly ledger: EditorLedger) {
    super();
    this.register(ledger.onDidChange(() => this.changed.fire(undefined)));
  }

  /** Shows the next page of older submissions. */
  showOlder(): void {
    this.shown += SUBMISSIONS_PAGE;
    this.changed.fire(undefined);
  }

  /** A record the tree shows (undefined when it is not among them). */
  shownRecord(id: string): SubmissionRecord | undefined {
    return this.listed.get(id);
  }

  async getChildren(node?: Node): Promise<Node[]> {
    if (node?.kind === 'record') return details(node.record);
    if (node?.kind === 'approvals') return node.list.map(([key, approvals]) => ({ kind: 'approval', key, approvals }));
    if (node) return [];
    const place = this.ledger.place;
    this.listed.clear();
    let page: SubmissionsPage;
    const nodes: Node[] = [];
    try {
      const store = await this.ledger.store();
      page = await newestSubmissions(store, this.shown);
      if (store.kind === 'team') {
        const all = [...(await store.allApprovals())];
        if (all.length > 0) nodes.push({ kind: 'approvals', list: all });
      }
    } catch (err) {
      // Never an empty list that looks like "nothing sent": the store and why it could not be read.
      return [{ kind: 'store', place, problem: errorMessage(err) }];
    }
    for (const r of page.records) this.listed.set(r.id, r);
    nodes.unshift({ kind: 'store', place });
    for (const record of page.records) nodes.push({ kind: 'record', record });
    if (page.older) nodes.push({ kind: 'older', shown: this.shown });
    return nodes;
  }

  getTreeItem(node: Node): vscode.TreeItem {
    if (node.kind === 'store') return storeItem(node);
    if (node.kind === 'approvals') {
      const item = new vscode.TreeItem('Approvals', vscode.TreeItemCollapsibleState.Collapsed);
      item.description = shown(said`${typed.count(node.list.length)} content(s) approved (maker-checker)`);
      item.iconPath = new vscode.ThemeIcon('verified');
      return item;
    }
    if (node.kind === 'approval') {
      const [environment, contentHash] = node.key.split('\0');
      const env = typed.text(environment);
      const item = new vscode.TreeItem(shown(said`${env} · sha256 ${typed.hash(contentHash, 12)}…`), vscode.TreeItemCollapsibleState.None);
      item.description = shown(approvalsText(node.approvals));
      item.tooltip = shown(said`${env}, sha256 ${typed.hash(contentHash)}: approved by ${approvalsText(node.approvals)}`);
      item.iconPath = new vscode.ThemeIcon('check');
      return item;
    }
    if (node.kind === 'older') {
      const item = new vscode.TreeItem('Show older submissions…', vscode.TreeItemCollapsibleState.None);
      item.description = shown(said`the newest ${typed.count(node.shown.toLocaleString('en-US'))} are shown`);
      item.iconPath = new vscode.ThemeIcon('history');
      item.command = { command: SHOW_OLDER_COMMAND, title: 'Show Older Submissions' };
      return item;
    }
    if (node.kind === 'detail') {
      const item = new vscode.TreeItem(node.label, vscode.TreeItemCollapsibleState.None);
      item.description = node.description === undefined ? undefined : shown(node.description);
      item.tooltip = node.description === undefined ? node.label : shown(said`${typed.text(node.label)}: ${node.description}`);
      item.iconPath = new vscode.ThemeIcon(node.icon);
      return item;
    }
    const r = node.record;
    const item = new vscode.TreeItem(shown(said`${typed.text(path.basename(r.file))}`), vscode.TreeItemCollapsibleState.Collapsed);
    item.id = r.id;
    const when = typed.date(new Date(r.time).toLocaleString());
    item.description = shown(said`${typed.text(r.environment)}${r.production ? said` (production)` : said``} · ${when}`);
    item.iconPath = recordIcon(r);
    item.contextValue = 'paygate.submission';
    const tip = new vscode.MarkdownString(undefined, true);
    const t = typed.text;
    const state = t(r.state === 'sending' ? 'sending' : r.outcome);
    tip.appendText(
      shown(said`${t(r.file)}\n${t(r.environment)}: ${t(r.endpoint)}\n${typed.count(r.rowCount)} row(s) · ${state}\n${t(r.message ?? '')}`),
    );
    item.tooltip = tip;
    item.command = { command: 'paygate.history.open', title: 'Show Submission', arguments: [r.id] };
    return item;
  }
}

/** The view's first line: which store (file or team: host and database), or why it cannot be read. */
function storeItem(node: Extract<Node, { kind: 'store' }>): vscode.TreeItem {
  const item = new vscode.TreeItem(node.problem ? 'Ledger cannot be read' : 'Ledger', vscode.TreeItemCollapsibleState.None);
  item.description = shown(said`${typed.text(node.problem ?? node.place)}`);
  item.tooltip = shown(
    node.problem
      ? said`${typed.text(node.place)}: ${typed.text(node.problem)}`
      : said`Sends and the resend guard use the ${typed.text(node.place)}`,
  );
  item.iconPath = node.problem
    ? new vscode.ThemeIcon('error', new vscode.ThemeColor('list.errorForeground'))
    : new vscode.ThemeIcon(node.place.startsWith('team') ? 'organization' : 'database');
  item.contextValue = 'paygate.ledgerStore';
  return item;
}

function recordIdOf(arg: unknown): string | undefined {
  if (typeof arg === 'string') return arg;
  if (arg && typeof arg === 'object') {
    const n = arg as { kind?: unknown; record?: SubmissionRecord; id?: unknown };
    if (n.kind && n.record) return n.record.id;
    if (typeof n.id === 'string') return n.id;
  }
  return undefined;
}

/** The record in the results panel, as Submit showed it: outcome banner, answer columns first and pinned. */
export async function openSubmissionCommand(
  ledger: EditorLedger,
  results: ResultsPanelApi,
  arg?: unknown,
  shown?: (id: string) => SubmissionRecord | undefined,
): Promise<SubmissionView | undefined> {
  const id = recordIdOf(arg);
  // The tree's own copy first: the ledger's whole read (get) only for an id the tree does not show.
  let record: SubmissionRecord | undefined;
  try {
    const store = await ledger.store();
    record = id ? (shown?.(id) ?? (await store.get(id))) : (await store.recent(1))[0];
  } catch (err) {
    void showError(said`PayGate: the submission cannot be shown: ${typed.text(errorMessage(err))}`);
    return undefined;
  }
  if (!record) {
    void showInfo(said`PayGate: no submission to show.`);
    return undefined;
  }
  const view = await recordView(record, interrupted(record));
  await results.showSubmission(view);
  return view;
}

export async function clearLedgerCommand(editorLedger: EditorLedger, arg?: unknown): Promise<boolean> {
  const ledger = editorLedger.fileLedger;
  if (!ledger) {
    // The team's history is the team's: it is not archived from one member's editor.
    void showInfo(said`PayGate: the ${typed.text(editorLedger.place)} is shared by the team and is not cleared from the editor.`);
    return false;
  }
  const confirmed =
    arg && typeof arg === 'object' && typeof (arg as { confirm?: unknown }).confirm === 'boolean'
      ? (arg as { confirm: boolean }).confirm
      : (await showWarning(
          said`Clear the PayGate submission history?`,
          {
            modal: true,
            detail: said`The ledger (shared with the paygate CLI) is archived in ${typed.text(ledger.directory)}, not deleted. The resend guard in the editor and the CLI relies on it and forgets the archived sends. The gateway keeps its payments either way.`,
          },
          'Clear',
        )) === 'Clear';
  if (!confirmed) return false;
  await ledger.archive();
  return true;
}
