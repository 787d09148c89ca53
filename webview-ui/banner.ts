// The submission outcome, readable at a glance: one headline, one explanation, and the one thing to do.
import { OUTCOME_COLUMNS, type CredentialToCheck, type SubmissionView } from '../src/shared/resultsProtocol';
import { el } from './dom';

const CREDENTIAL_LABEL: Record<CredentialToCheck, string> = {
  'consumer-key': 'the consumer key of the environment',
  'consumer-secret': 'the consumer secret (PayGate: Set Consumer Secret)',
  'rsa-private-key': 'the RSA private key and its passphrase',
  'endpoint-id': 'the endpoint ID of the environment',
  environment: 'the selected environment (paygate.environment)',
};

const TRANSPORT_REASON: Record<string, string> = {
  refused: 'The connection was refused: is the gateway (or the local gateway) running at that address?',
  timeout: 'The gateway did not answer in time (paygate.requestTimeoutSeconds).',
  tls: 'The TLS handshake failed: check the base URL and the certificate.',
  other: 'The request did not reach the gateway.',
};

const UNKNOWN_REASON: Record<string, string> = {
  timeout: 'The request was sent, but no complete answer came back in time.',
  'connection-lost': 'The request was sent, but the connection was lost before an answer came back.',
  truncated: 'The request was sent, but the answer was cut off.',
  cancelled: 'The request was sent, and you stopped waiting for the answer.',
  interrupted: 'The request was sent, and the editor stopped before an answer was recorded.',
  'gateway-unavailable':
    'The request was sent, and something in front of the gateway (a proxy or load balancer) answered with an HTTP 5xx instead of the gateway.',
};

/** An ISO instant in the reader's own time zone and locale, e.g. "22/11/2026, 23:05:09"; as given when unreadable. */
export function localTime(iso: string): string {
  const t = Date.parse(iso);
  return Number.isNaN(t) ? iso : new Date(t).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'medium' });
}

/** A tick for accepted, a question mark for unknown, a cross for every other outcome. */
function outcomeGlyph(kind: SubmissionView['outcome']['outcome']): string {
  if (kind === 'accepted') return '✔';
  return kind === 'unknown' ? '?' : '✖';
}

/** The answer's columns lead a submission's table (the host puts them first): pinned, so they stay in view. */
export function outcomePins(columns: string[]): number[] | undefined {
  const outcome = new Set<string>(OUTCOME_COLUMNS);
  const lead = columns.findIndex((c) => !outcome.has(c));
  const count = lead === -1 ? columns.length : lead;
  return count > 0 ? Array.from({ length: count }, (_, i) => i) : undefined;
}

export function renderBanner(view: SubmissionView): HTMLElement {
  const o = view.outcome;
  const isOk = o.outcome === 'accepted';
  const box = el('section', { class: `banner banner-${o.outcome}`, role: isOk ? 'status' : 'alert', 'aria-label': 'Submission outcome' });
  const icon = el('span', { class: 'banner-icon', 'aria-hidden': 'true' }, outcomeGlyph(o.outcome));
  const text = el('div', { class: 'banner-text' });
  const lines: string[] = [];
  let headline: string;
  switch (o.outcome) {
    case 'accepted':
      headline = 'Accepted';
      lines.push(`The gateway accepted ${view.rows.length === 1 ? 'the recurring payment' : `${view.rows.length} recurring payments`}.`);
      break;
    case 'validation-error':
    case 'error':
      headline = o.outcome === 'validation-error' ? 'Validation error' : 'Error';
      lines.push(o.message);
      if (o.code) lines.push(`Error code: ${o.code}`);
      break;
    case 'auth-failed':
      headline = 'Authentication failed';
      lines.push(o.message);
      if (o.check.length > 0) lines.push(`Check ${o.check.map((c) => CREDENTIAL_LABEL[c] ?? c).join('; ')}.`);
      break;
    case 'server-error':
      headline = `Server error (HTTP ${o.status})`;
      lines.push(o.errorId ? `Error ID: ${o.errorId}. Quote it when contacting the gateway's support.` : 'The gateway gave no error ID.');
      break;
    case 'declined':
      headline = `Declined (${o.paymentStatus})`;
      lines.push(o.message);
      if (o.code) lines.push(`Error code: ${o.code}`);
      break;
    case 'unknown':
      // Never "not delivered": the gateway may have created the payments.
      headline = 'Outcome unknown: the payments may exist';
      lines.push(
        UNKNOWN_REASON[o.kind] ?? UNKNOWN_REASON.timeout,
        o.message,
        'Check with the gateway whether the payments were created before sending this file again.',
      );
      break;
    case 'transport-error':
      headline = 'Not sent: could not reach the gateway';
      lines.push(TRANSPORT_REASON[o.kind] ?? TRANSPORT_REASON.other, o.message);
      break;
  }
  text.append(el('h2', { class: 'banner-headline' }, headline));
  for (const line of lines) text.append(el('p', {}, line));
  const meta = [view.file && `File: ${view.file}`, view.environment && `Environment: ${view.environment}`].filter(Boolean).join(' · ');
  const at = view.submittedAt ? localTime(view.submittedAt) : undefined;
  if (meta || at) {
    const p = el('p', { class: 'banner-meta' }, meta);
    if (at) {
      // Local time for reading; the exact ISO instant stays in the element (and the JSON, and the ledger).
      const time = el('time', { datetime: view.submittedAt!, title: view.submittedAt! }, at);
      p.append(meta ? ' · Sent ' : 'Sent ', time);
    }
    text.append(p);
  }
  const fields = Object.entries(view.fields ?? {});
  if (fields.length > 0) {
    const dl = el('dl', { class: 'banner-fields' });
    for (const [k, v] of fields) dl.append(el('dt', {}, k), el('dd', {}, v));
    text.append(dl);
  }
  box.append(icon, text);
  return box;
}
