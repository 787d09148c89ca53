// What the banner above a report says, for a CSV report in the table and a PDF in the PDF pane alike:
// which template (or saved file) it came from, the environment, when it arrived, and its size.

export interface ReportInfo {
  /** The template's file name, or the saved report's file name. */
  template?: string;
  environment?: string;
  /** ISO instant the answer was received (or the saved file's modification time). */
  receivedAt?: string;
  bytes: number;
}

const optStr = (v: unknown): boolean => v === undefined || typeof v === 'string';

export function isReportInfo(v: unknown): v is ReportInfo {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return false;
  const r = v as Record<string, unknown>;
  return optStr(r.template) && optStr(r.environment) && optStr(r.receivedAt) && typeof r.bytes === 'number' && r.bytes >= 0;
}

/** "1.2 MB", "830 KB", "512 bytes": a size for people. */
export function formatBytes(n: number): string {
  if (n < 1024) return `${n} ${n === 1 ? 'byte' : 'bytes'}`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(n < 10 * 1024 ? 1 : 0)} KB`;
  return `${(n / (1024 * 1024)).toFixed(1)} MB`;
}
