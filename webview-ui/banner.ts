// The submission outcome, readable at a glance: one headline, one explanation, and the one thing to do.
import { OUTCOME_COLUMNS, type CredentialToCheck, type SubmissionOutcomeView, type SubmissionView } from '../src/shared/submissionView';
import { outcomeFacts, pageHeadline, TRANSPORT_REASON, UNKNOWN_REASON, type Tone } from '../src/shared/outcomes';
import { el } from './dom';
import { joinSaid, said, saidText, typed } from '../src/shared/said';

const CREDENTIAL_LABEL: Record<CredentialToCheck, string> = {
  'consumer-key': 'the consumer key of the environment',
  'consumer-secret': 'the consumer secret (PayGate: Set Consumer Secret)',
  'rsa-private-key': 'the RSA private key and its passphrase',
  'endpoint-id': 'the endpoint ID of the environment',
  environment: 'the selected environment (paygate.environment)',
};

/** An ISO instant in the reader's own time zone and locale, e.g. "22/11/2026, 23:05:09"; as given when unreadable. */
export function localTime(iso: string): string {
  const t = Date.parse(iso);
  return Number.isNaN(t) ? iso : new Date(t).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'medium' });
}

/** A tick for an outcome that went through, a question mark where payments may exist unseen, a cross otherwise. */
const GLYPH: Record<Tone, string> = { ok: '✔', unknown: '?', failed: '✖' };

/** The answer's columns lead a submission's table (the host puts them first): pinned, so they stay in view. */
export function outcomePins(columns: string[]): number[] | undefined {
  const outcome = new Set<string>(OUTCOME_COLUMNS);
  const lead = columns.findIndex((c) => !outcome.has(c));
  const count = lead === -1 ? columns.length : lead;
  return count > 0 ? Array.from({ length: count }, (_, i) => i) : undefined;
}

/** The lines under the headline: why (for an unknown or undelivered send), the answer's words, what to check. */
function outcomeLines(o: SubmissionOutcomeView): string[] {
  const facts = outcomeFacts(o.outcome);
  const lines: string[] = [];
  if (o.kind !== undefined) {
    const reasons: Record<string, string> = facts.unknown ? UNKNOWN_REASON : TRANSPORT_REASON;
    lines.push(reasons[o.kind] ?? '');
  }
  // The answer's words, its code and its error ID are values, each checked alone where it is shown (issue 38).
  if (o.message) lines.push(saidText(said`${typed.text(o.message)}`));
  if (o.code) lines.push(saidText(said`Error code: ${typed.text(o.code)}`));
  if (o.errorId) lines.push(saidText(said`Error ID: ${typed.id(o.errorId)}. Quote it when contacting the gateway's support.`));
  if (o.check && o.check.length > 0) lines.push(`Check ${o.check.map((c) => CREDENTIAL_LABEL[c] ?? c).join('; ')}.`);
  if (facts.unknown) lines.push('Check with the gateway whether the payments were created before sending this file again.');
  return lines.filter((l) => l !== '');
}

/**
 * The file, the environment and the time sent, under the outcome. The file's name and the environment are free
 * text, each checked alone where it is shown (issue 38); before, the page showed them as the host sent them.
 */
function metaLine(view: SubmissionView): HTMLElement | undefined {
  const facts = [
    view.file ? said`File: ${typed.text(view.file)}` : undefined,
    view.environment ? said`Environment: ${typed.text(view.environment)}` : undefined,
  ];
  const meta = saidText(
    joinSaid(
      facts.filter((f) => f !== undefined),
      ' · ',
    ),
  );
  const at = view.submittedAt ? localTime(view.submittedAt) : undefined;
  if (!meta && !at) return undefined;
  const p = el('p', { class: 'banner-meta' }, meta);
  if (at) {
    // Local time for reading; the exact ISO instant stays in the element (and the JSON, and the ledger).
    const time = el('time', { datetime: view.submittedAt!, title: view.submittedAt! }, at);
    p.append(meta ? ' · Sent ' : 'Sent ', time);
  }
  return p;
}

/** The headline, its lines, the meta line and the answer's own fields: every word from the core's outcome table. */
export function renderBanner(view: SubmissionView): HTMLElement {
  const o = view.outcome;
  const { tone } = outcomeFacts(o.outcome);
  const box = el('section', {
    class: `banner banner-${tone} banner-outcome-${o.outcome}`,
    role: tone === 'ok' ? 'status' : 'alert',
    'aria-label': 'Submission outcome',
  });
  const icon = el('span', { class: 'banner-icon', 'aria-hidden': 'true' }, GLYPH[tone]);
  const text = el('div', { class: 'banner-text' });
  text.append(el('h2', { class: 'banner-headline' }, pageHeadline(o)));
  for (const line of outcomeLines(o)) text.append(el('p', {}, line));
  const meta = metaLine(view);
  if (meta) text.append(meta);
  const fields = Object.entries(view.fields ?? {});
  if (fields.length > 0) {
    const dl = el('dl', { class: 'banner-fields' });
    for (const [k, v] of fields) dl.append(el('dt', {}, k), el('dd', {}, v));
    text.append(dl);
  }
  box.append(icon, text);
  return box;
}
