// The banner above a report, the same for a CSV report in the table and a PDF in the PDF pane: its title,
// then the template (or file), the environment, when it arrived and its size.
import { formatBytes, type ReportInfo } from '../src/shared/reportInfo';
import { localTime } from './banner';
import { el } from './dom';
import { joinSaid, saidText, typed, type Part } from '../src/shared/said';

/**
 * The facts on one line, each a value checked alone where it is shown (issue 38): the template's file name and
 * the environment are free text (a card number in either is masked; before, the page showed them as the host
 * sent them), and two values meeting across the ` · ` between them (a middle dot joins digit groups for the
 * floor) are never read as one number.
 */
export function reportFacts(info: ReportInfo): string {
  const parts: Part[] = [];
  if (info.template) parts.push(typed.text(info.template));
  if (info.environment) parts.push(typed.text(info.environment));
  if (info.receivedAt) parts.push(typed.text(localTime(info.receivedAt)));
  parts.push(typed.text(formatBytes(info.bytes)));
  return saidText(joinSaid(parts, ' · '));
}

export function renderReportBanner(title: string, info?: ReportInfo): HTMLElement {
  const box = el('section', { class: 'report-banner', 'aria-label': 'Report' });
  box.append(el('h1', { class: 'report-title' }, title));
  if (info) box.append(el('div', { class: 'report-facts' }, reportFacts(info)));
  return box;
}
