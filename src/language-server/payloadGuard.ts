import { DEFAULT_MAX_PAYLOAD_BYTES } from '../core/payload';
import { firstLineRange, payloadDiagnostic } from '../core/rules/payloadCheck';
import type { LintDiagnostic } from '../core/rules/types';

// batch-too-large in the editor: the document's payload weighed against the active environment's maximum
// (the client names it; the local gateway's by default). Weighing reads the whole text, so a document is
// weighed with each lint while it is small, and a large one when it is opened, saved or the maximum
// changes: its size moves little between saves.

/** Documents up to this many lines are weighed with every lint; longer ones on open, save and a new maximum. */
export const PAYLOAD_EVERY_LINT_MAX_LINES = 50_000;

export class PayloadGuard {
  private max = DEFAULT_MAX_PAYLOAD_BYTES;
  private readonly found = new Map<string, LintDiagnostic>();
  /** Documents to weigh at their next lint whatever their size. */
  private readonly due = new Set<string>();

  /** The maximum now (the active environment's). */
  get maximum(): number {
    return this.max;
  }

  /** A new maximum (undefined: the default); true when it changed (every document is then due). */
  setMax(max: number | undefined, open: Iterable<string>): boolean {
    const next = max ?? DEFAULT_MAX_PAYLOAD_BYTES;
    if (next === this.max) return false;
    this.max = next;
    for (const uri of open) this.due.add(uri);
    return true;
  }

  /** Weigh the document at its next lint (opened, saved). */
  markDue(uri: string): void {
    this.due.add(uri);
  }

  /** At a lint: weighs the document when it is due or small. */
  weigh(uri: string, document: { lineCount: number; getText(): string }): void {
    if (!this.due.delete(uri) && document.lineCount > PAYLOAD_EVERY_LINT_MAX_LINES) return;
    const text = document.getText();
    const d = payloadDiagnostic(text, this.max, firstLineRange(text));
    if (d) this.found.set(uri, d);
    else this.found.delete(uri);
  }

  diagnostic(uri: string): LintDiagnostic | undefined {
    return this.found.get(uri);
  }

  forget(uri: string): void {
    this.found.delete(uri);
    this.due.delete(uri);
  }
}
