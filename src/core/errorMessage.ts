/** What to show of a thrown value: an Error's message, anything else as text (the one wording of it everywhere). */
export function errorMessage(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
