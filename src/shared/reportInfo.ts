// What the banner above a report says, for a CSV report in the table and a PDF in the PDF pane alike:
// which template (or saved file) it came from, the environment, when it arrived, and its size.
import { isRec, optStr } from './guards';

export interface ReportInfo {
  /** The template's file name, or the saved report's file name. */
  template?: string;
  environment?: string;
  /** ISO instant the answer was received (or the saved file's modification time). */
  receivedAt?: string;
  bytes: number;
}

export function isReportInfo(v: unknown): v is ReportInfo {
  return isRec(v) && optStr(v.template) && optStr(v.environment) && optStr(v.receivedAt) && typeof v.bytes === 'number' && v.bytes >= 0;
}

/** "1.2 MB", "830 KB", "512 bytes": a size for people. */
export function formatBytes(n: number): string {
  if (n < 1024) return `${n} ${n === 1 ? 'byte' : 'bytes'}`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(n < 10 * 1024 ? 1 : 0)} KB`;
  return `${(n / (1024 * 1024)).toFixed(1)} MB`;
}
