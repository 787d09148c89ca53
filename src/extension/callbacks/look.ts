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
