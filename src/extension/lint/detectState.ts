// The bookkeeping behind language detection (detect.ts), without `vscode` so it is unit-tested under Node.
//
// VS Code changes a document's language by closing it and opening it again under the same URI with the
// same text. A close followed by such an open is therefore a language change; if detection did not ask
// for it, the user did, and the document is never switched again. Any other open of a URI (a new
// untitled document reusing "Untitled-1", a file opened again later) starts afresh. An empty text tells
// nothing apart (every new untitled document is empty), so an empty reopen is taken for a new document.

import { HEADER } from '../bigBatch';

const FROM = new Set(['plaintext', 'csv']);
/**
 * How soon after a close an open of the same URI and text counts as a language change. VS Code sends the
 * two together; a new document under the same name takes a person (or a test) longer.
 */
export const CHANGE_WINDOW_MS = 500;

interface Doc {
  language: string;
  /** Set at close: when, and the text then (to tell a reopen with a new language from a new document). */
  closedAt?: number;
  closedText?: string;
  /** Switched once by detection, or the user chose the language: leave it alone. */
  settled: boolean;
}

/** Enough of a text to tell "the same document reopened" from "another document": length and start. */
const fingerprint = (text: string) => `${text.length}:${text.slice(0, 4096)}`;

export class DetectionState {
  private readonly docs = new Map<string, Doc>();

  constructor(private readonly now: () => number = Date.now) {}

  opened(key: string, language: string, text: string): void {
    const before = this.docs.get(key);
    const reopened =
      text !== '' &&
      before?.closedAt !== undefined &&
      this.now() - before.closedAt < CHANGE_WINDOW_MS &&
      before.closedText === fingerprint(text);
    if (before && reopened && before.language !== language) {
      // A language change: the one detection asked for (already settled) or the user's choice.
      this.docs.set(key, { language, settled: true });
      return;
    }
    if (before && before.closedAt === undefined) {
      before.language = language; // opened again while still open: keep what is known
      return;
    }
    this.docs.set(key, { language, settled: false });
  }

  closed(key: string, text: string): void {
    const d = this.docs.get(key);
    if (!d) return;
    d.closedAt = this.now();
    d.closedText = fingerprint(text);
  }

  /** Whether to switch this document now, given its language and first line; records the switch if so. */
  shouldSwitch(key: string, language: string, firstLine: string): boolean {
    let d = this.docs.get(key);
    if (!d) {
      d = { language, settled: false };
      this.docs.set(key, d);
    }
    if (d.settled || !FROM.has(language) || !HEADER.test(firstLine)) return false;
    d.settled = true;
    return true;
  }

  /** The switch failed (the document closed meanwhile): nothing changed, it may be tried again. */
  switchFailed(key: string): void {
    const d = this.docs.get(key);
    if (d) d.settled = false;
  }

  /** Closed documents not reopened within the window are forgotten, so the map does not grow forever. */
  prune(): void {
    const t = this.now();
    for (const [k, d] of this.docs) if (d.closedAt !== undefined && t - d.closedAt >= CHANGE_WINDOW_MS) this.docs.delete(k);
  }
}
