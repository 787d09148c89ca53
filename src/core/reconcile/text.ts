import { ReportRecordReader } from '../csv/reportRecords';
import { Reconciler, type ReconcileOptions } from './reconcile';
import type { BatchRowInput, Reconciliation } from './types';

/** A reconciliation fed by the one report reader, piece by piece; errors (bad report) as values. */
export class ReportReconciliation {
  private readonly reconciler: Reconciler;
  private readonly reader: ReportRecordReader;
  error: string | undefined;

  constructor(rows: readonly BatchRowInput[], options: ReconcileOptions & { delimiter?: string }) {
    this.reconciler = new Reconciler(rows, options);
    this.reader = new ReportRecordReader({
      delimiter: options.delimiter,
      onHeader: (columns) => {
        this.error ??= this.reconciler.header(columns)?.error;
      },
      onRecord: (values, line) => {
        if (this.error === undefined) this.reconciler.record(values, line);
      },
    });
  }

  push(text: string): void {
    if (this.error === undefined) this.reader.push(text);
  }

  /** The reconciliation, or the report's problem. */
  end(): Reconciliation | { error: string } {
    if (this.error === undefined) this.reader.end();
    if (this.error === undefined && this.reader.errors > 0)
      this.error = 'the report has malformed quoting (an unclosed quote, or text after a closing quote)';
    if (this.error === undefined && !this.reader.columns?.length) this.error = 'the report is empty: no header line';
    return this.error !== undefined ? { error: this.error } : this.reconciler.finish();
  }
}

/** A whole report text at once (tests, the editor's in-memory report). */
export function reconcileText(
  rows: readonly BatchRowInput[],
  text: string,
  options: ReconcileOptions & { delimiter?: string },
): Reconciliation | { error: string } {
  const r = new ReportReconciliation(rows, options);
  r.push(text);
  return r.end();
}
