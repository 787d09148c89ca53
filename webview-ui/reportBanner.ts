// The banner above a report, the same for a CSV report in the table and a PDF in the PDF pane: its title,
// then the template (or file), the environment, when it arrived and its size.
import { formatBytes, type ReportInfo } from '../src/shared/reportInfo';
import { localTime } from './banner';
import { el } from './dom';

export function reportFacts(info: ReportInfo): string {
  const parts: string[] = [];
  if (info.template) parts.push(info.template);
  if (info.environment) parts.push(info.environment);
  if (info.receivedAt) parts.push(localTime(info.receivedAt));
  parts.push(formatBytes(info.bytes));
  return parts.join(' · ');
}

export function renderReportBanner(title: string, info?: ReportInfo): HTMLElement {
  const box = el('section', { class: 'report-banner', 'aria-label': 'Report' });
  box.append(el('h1', { class: 'report-title' }, title));
  if (info) box.append(el('div', { class: 'report-facts' }, reportFacts(info)));
  return box;
}
