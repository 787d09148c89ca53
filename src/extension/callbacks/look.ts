import type { CallbackEntry } from '../../callback-listener';

// How a received callback looks in the Callbacks view. The icon is the charge's status, what a person
// scans the list for (a declined charge must not wear a green tick); whether the call's control checksum
// holds is the description, beside it. Kept apart from the view (no editor import) so it can be checked alone.

/** A codicon id and the theme colour to draw it in. */
export interface Look {
  icon: string;
  color?: string;
}

const BY_STATUS: Record<string, Look> = {
  approved: { icon: 'pass', color: 'testing.iconPassed' },
  declined: { icon: 'circle-slash', color: 'testing.iconFailed' },
  filtered: { icon: 'filter', color: 'list.warningForeground' },
  error: { icon: 'error', color: 'list.errorForeground' },
};

/** No status field (not a gateway callback, or a status the gateway does not send): a plain call. */
const NO_STATUS: Look = { icon: 'mail' };

export function statusLook(e: Pick<CallbackEntry, 'fields'>): Look {
  return BY_STATUS[e.fields['status'] ?? ''] ?? NO_STATUS;
}

export function controlText(e: Pick<CallbackEntry, 'control'>): string {
  if (e.control === 'invalid') return 'control invalid: not signed with the known control key';
  return e.control === null ? 'control not checked (no key)' : `control ${e.control}`;
}

/** A repeat's words: which call it repeats (the gateway may send a callback twice; a handler must not act twice). */
export function repeatText(e: Pick<CallbackEntry, 'repeatOf'>): string {
  return e.repeatOf === undefined ? '' : `repeat of ${e.repeatOf}`;
}

/** The view's description of a call: its control, and the repeat mark first when it repeats an earlier call. */
export function describeEntry(e: Pick<CallbackEntry, 'control' | 'repeatOf'>): string {
  return e.repeatOf === undefined ? controlText(e) : `↻ ${repeatText(e)} · ${controlText(e)}`;
}
