// The panel's HTML shell. Pure so the CSP can be unit-tested and reused verbatim by the Chromium harness.
import { randomBytes } from 'node:crypto';

export function makeNonce(): string {
  // 128 bits from the OS CSPRNG; base64 is a valid nonce alphabet for CSP.
  return randomBytes(16).toString('base64');
}

export interface ShellInput {
  /** webview.cspSource (or the harness origin). */
  cspSource: string;
  nonce: string;
  scriptUri: string;
  styleUri: string;
  title: string;
  /** Directives a page needs beyond the table's (the PDF page: its worker); never script-src. */
  extraDirectives?: string[];
  /** data-* attributes of the page's root element, e.g. where the PDF page finds its worker. */
  data?: Record<string, string>;
}

/**
 * No 'unsafe-inline' anywhere: the page only sets styles through the CSSOM (element.style /
 * setProperty), which CSP does not restrict, and has no inline handlers. connect-src is absent, so the
 * page cannot fetch anything; img-src/font-src allow only the extension's own resources. A page that runs
 * a worker adds worker-src blob: (tableDirectives, pdfDirectives).
 */
export function contentSecurityPolicy(cspSource: string, nonce: string, extra: string[] = []): string {
  return [
    "default-src 'none'",
    `script-src 'nonce-${nonce}'`,
    `style-src ${cspSource}`,
    `img-src ${cspSource}`,
    `font-src ${cspSource}`,
    "base-uri 'none'",
    "form-action 'none'",
    ...extra,
  ].join('; ');
}

/** The table page's parse worker, whose code is in the page's bundle and runs from a blob (webview-ui/parseWorker.ts). */
export function tableDirectives(): string[] {
  return ['worker-src blob:'];
}

/** The PDF page's worker, fetched from the extension's files and run from a blob. */
export function pdfDirectives(cspSource: string): string[] {
  return [`connect-src ${cspSource}`, 'worker-src blob:'];
}

const escapeAttr = (s: string) => s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

export function renderShell(input: ShellInput): string {
  const csp = contentSecurityPolicy(input.cspSource, input.nonce, input.extraDirectives);
  const data = Object.entries(input.data ?? {})
    .map(([k, v]) => ` data-${k.replace(/[^a-z0-9-]/g, '')}="${escapeAttr(v)}"`)
    .join('');
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${escapeAttr(csp)}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="stylesheet" href="${escapeAttr(input.styleUri)}">
<title>${escapeAttr(input.title)}</title>
</head>
<body>
<div id="app"${data}></div>
<script nonce="${escapeAttr(input.nonce)}" src="${escapeAttr(input.scriptUri)}"></script>
</body>
</html>
`;
}
