// The last guard before submitted rows reach the page: whoever built the SubmissionView, card numbers
// leave the host masked (first 6 / last 4) and the card verification value never leaves at all.
import { maskFields, maskTable } from '../../core/output';
import type { SubmissionView } from '../../shared/submissionView';

export function sanitiseSubmissionView(view: SubmissionView): SubmissionView {
  const { columns, rows } = maskTable(view.columns, view.rows);
  return { ...view, columns, rows, ...(view.fields ? { fields: maskFields(view.fields) } : {}) };
}
