// What the page shows above its table, one at a time, and keeps for a reload: a report's facts, a
// submission's outcome or a reconciliation's summary; and the columns such a table pins.
import type { ReconciliationView } from '../src/shared/resultsProtocol';
import type { SubmissionView } from '../src/shared/submissionView';
import type { ReportInfo } from '../src/shared/reportInfo';
import { outcomePins, renderBanner } from './banner';
import { renderReconcileBanner, statusColumnOf } from './reconcileView';
import { renderReportBanner } from './reportBanner';
import { el } from './dom';

export class PageBanner {
  readonly element = el('div', { class: 'banner-host' });
  submission: SubmissionView | undefined;
  reconciliation: ReconciliationView | undefined;
  /** The report's facts (template, environment, time, size) when the table shows a report. */
  info: ReportInfo | undefined;

  /** A report's banner, the same as above a PDF report; nothing for a plain CSV file. */
  showReport(title: string, info: ReportInfo | undefined): void {
    this.info = info;
    if (info) this.element.replaceChildren(renderReportBanner(title, info));
    else this.element.replaceChildren();
  }

  /** A report's or a file's table replaces a submission or a reconciliation. */
  showTable(title: string, info: ReportInfo | undefined): void {
    this.submission = undefined;
    this.reconciliation = undefined;
    this.showReport(title, info);
  }

  /** Returns the columns to pin: the answer's. */
  showSubmission(view: SubmissionView): number[] | undefined {
    this.submission = view;
    this.reconciliation = undefined;
    this.info = undefined;
    this.element.replaceChildren(renderBanner(view));
    return outcomePins(view.columns);
  }

  /** `byStatus` filters the table by a status the summary names. Returns the columns to pin: the status. */
  showReconciliation(view: ReconciliationView, byStatus: (status: string | undefined) => void): number[] | undefined {
    this.submission = undefined;
    this.reconciliation = view;
    const status = statusColumnOf(view);
    this.element.replaceChildren(renderReconcileBanner(view, byStatus));
    return status === -1 ? undefined : [status];
  }

  /** A report or a CSV file can be reconciled; a submission, a reconciliation or one record's details cannot. */
  canReconcile(details: boolean): boolean {
    return this.submission === undefined && this.reconciliation === undefined && !details;
  }

  statusColumn(): number | undefined {
    return this.reconciliation ? statusColumnOf(this.reconciliation) : undefined;
  }
}
