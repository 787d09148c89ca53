// A reconciliation's banner: the window, where charge statuses came from, and one button per status with
// its count that filters the table to that status (docs/reconcile.md).
import { RECONCILE_KEY_COLUMN, RECONCILE_STATUS_COLUMN, type ReconciliationView } from '../src/shared/resultsProtocol';
import { el } from './dom';
import { said, saidText, typed } from '../src/shared/said';

const SETTLED = new Set(['ok', 'not-due']);

export function renderReconcileBanner(view: ReconciliationView, filter: (status: string | undefined) => void): HTMLElement {
  const attention = view.summary.filter(([s, n]) => n > 0 && !SETTLED.has(s)).reduce((a, [, n]) => a + n, 0);
  const banner = el('div', {
    class: `banner reconcile-banner${attention === 0 ? ' banner-accepted' : ''}`,
    role: 'region',
    'aria-label': 'Reconciliation summary',
  });
  const headline = attention === 0 ? 'Every payment charged as scheduled' : `${attention} row(s) need a look`;
  banner.append(
    el('div', { class: 'banner-headline' }, `${attention === 0 ? '✔' : '✖'} ${headline}`),
    el(
      'p',
      { class: 'banner-meta' },
      // The window's ends are dates, the note's column free text: each checked alone (issue 38).
      saidText(
        said`Window ${typed.date(view.window.from)} to ${typed.date(view.window.to)}; ${view.note}. Double-click a row to show its batch line and report lines.`,
      ),
    ),
  );
  const bar = el('div', { class: 'status-filter', role: 'group', 'aria-label': 'Filter by status' });
  const all = el('button', { type: 'button', class: 'status-chip', 'data-filter': '' }, 'All');
  all.addEventListener('click', () => filter(undefined));
  bar.append(all);
  for (const [status, n] of view.summary) {
    if (n === 0) continue;
    const chip = el('button', { type: 'button', class: 'status-chip', 'data-status': status, 'data-filter': status }, `${status} ${n}`);
    chip.addEventListener('click', () => filter(status));
    bar.append(chip);
  }
  banner.append(bar);
  return banner;
}

/** The status column (pinned first and coloured), or -1. */
export const statusColumnOf = (view: ReconciliationView) => view.columns.indexOf(RECONCILE_STATUS_COLUMN);

/** The key by which the host finds a row's batch line and report lines, if the row has one. */
export function revealKey(view: ReconciliationView, row: readonly string[] | undefined): string | undefined {
  const key = view.columns.indexOf(RECONCILE_KEY_COLUMN);
  return key === -1 ? undefined : row?.[key] || undefined;
}
