import { CodeActionKind, type CodeAction, type CodeActionParams, type Command, type Diagnostic } from 'vscode-languageserver';
import { ourWords, said, saidText, typed, type Said } from '../core/output';
import { Codes, type Code } from '../core/rules/codes';
import { safeFixEdits } from '../core/rules/fixAll';
import type { LintResult } from '../core/rules/lint';
import type { Fix, LintDiagnostic } from '../core/rules/types';
import type { Position, Range, TextEdit } from '../core/text';
import { DIAGNOSTIC_SOURCE, FIX_ALL_KIND } from '../shared/lintProtocol';
import { findLintDiagnostic, toDiagnostic, toWorkspaceEdit, wants } from './convert';

/**
 * What a code action without an edit carries, so codeAction/resolve can build the edit later: the
 * document version it was computed for and which fix it is. A missing column means one edit per row, so
 * those edits (and the file-wide ones) are only built when the user picks the action.
 */
export type ActionData = { uri: string; version: number } & (
  { what: 'fix'; diagnostic: number; fix: number } | { what: 'kind'; code: Code } | { what: 'safe' }
);

/**
 * A code action as we make it: its title our words and typed values (a `Said`, core/output/said.ts), never a
 * composed string; `offered` lays it out once, where it leaves for the editor (issue 38). A command's title is
 * its action's.
 */
export type OurAction = Omit<CodeAction, 'title' | 'command'> & { title: Said; command?: Omit<Command, 'title'> };

/** Our actions as the editor gets them: each title laid out here, each of its parts checked alone. */
export function offered(actions: readonly OurAction[]): CodeAction[] {
  return actions.map(({ title, command, ...rest }) => {
    const text = saidText(title);
    return command ? { ...rest, title: text, command: { ...command, title: text } } : { ...rest, title: text };
  });
}

/** Codes whose fixes are expensive to build (an edit per row): deferred to resolve when the client can. */
const LAZY_CODES: ReadonlySet<Code> = new Set([Codes.missingColumn]);

interface Request {
  uri: string;
  version: number;
  result: LintResult;
  /** The client resolves actions' edits (codeAction/resolve with `edit`). */
  resolves: boolean;
}

/**
 * Quick fixes from the core's fixes of the diagnostics in the request, found again in the cached lint by
 * code, message and range (clients hand back copies of our diagnostics, not the objects); a "fix all of
 * this kind" per code with more than one fixable diagnostic; the file's safe fixes next to a safe fix; and
 * `source.fixAll.paygate` when asked for.
 */
export function codeActions(request: Request, params: CodeActionParams, ours: Diagnostic[]): OurAction[] {
  const { result } = request;
  const only = params.context.only;
  // The lightbulb asks on every cursor move: without one of our diagnostics there is nothing to fix.
  const quickFixes = wants(only, CodeActionKind.QuickFix) && ours.length > 0;
  // Source actions are only ever shown on request (Source Action…, codeActionsOnSave, the API).
  const fixAll = only !== undefined && wants(only, FIX_ALL_KIND);
  const actions: OurAction[] = [];
  if (quickFixes) {
    const swept = new Set<Code>();
    let mendsSafely = false;
    for (const diagnostic of ours) {
      const mended = findLintDiagnostic(result.diagnostics, diagnostic);
      if (!mended) continue;
      const index = result.diagnostics.indexOf(mended);
      mendsSafely ||= mended.fixes.some((f) => f.safe);
      mended.fixes.forEach((fix, f) => {
        const action: OurAction = {
          // The fix's own title: our words and the value it would write (`Change to 01.01.2027`), by its type.
          title: fix.title,
          kind: CodeActionKind.QuickFix,
          diagnostics: [diagnostic],
          isPreferred: fix.preferred === true,
        };
        actions.push(withEdit(request, action, LAZY_CODES.has(mended.code), { what: 'fix', diagnostic: index, fix: f }, () => fix.edits));
      });
      if (!swept.has(mended.code)) {
        swept.add(mended.code);
        const sweep = kindSweep(request, mended, ours);
        if (sweep) actions.push(sweep);
      }
    }
    // Next to a safe fix, the same fix-all the save action runs, when it would do more than this one.
    if (mendsSafely && result.diagnostics.filter((d) => d.fixes.some((f) => f.safe)).length > 1) {
      const action: OurAction = { title: ourWords('Fix all safe PayGate problems in the file'), kind: CodeActionKind.QuickFix };
      actions.push(withEdit(request, action, true, { what: 'safe' }, () => safeFixEdits(result)));
    }
  }
  if (fixAll) {
    // Eager: codeActionsOnSave and the API apply it as it comes.
    const edits = safeFixEdits(result);
    if (edits.length > 0)
      actions.push({ title: ourWords('Fix all safe PayGate problems'), kind: FIX_ALL_KIND, edit: toWorkspaceEdit(request.uri, edits) });
  }
  return actions;
}

/**
 * Our diagnostics a code-action request is about (for every source of actions): those the client hands
 * back, else those of `current` (the findings we publish now, asked only then) that meet the request's
 * range. The client's markers move only when the next diagnostics arrive: just after an edit that moved a
 * problem (a quick fix that shortened the header), the cursor on the problem's new place meets no marker,
 * the request carries none of ours, and the light bulb was empty while the Problems panel listed the
 * problem (issue 42).
 */
export function requestDiagnostics(params: CodeActionParams, current: () => readonly LintDiagnostic[]): Diagnostic[] {
  const handed = params.context.diagnostics.filter((d) => d.source === DIAGNOSTIC_SOURCE || d.source === undefined);
  if (handed.length > 0) return handed;
  return current()
    .filter((d) => meets(d.range, params.range))
    .map(toDiagnostic);
}

/** Two ranges meet when they share a position (an empty range at a cell's edge meets the cell). */
function meets(a: Range, b: Range): boolean {
  return !before(a.end, b.start) && !before(b.end, a.start);
}

function before(p: Position, q: Position): boolean {
  return p.line < q.line || (p.line === q.line && p.character < q.character);
}

/** The fix a "fix all of this kind" applies to one diagnostic: the preferred one, else a safe one, else the first. */
function sweepFix(d: LintDiagnostic): Fix | undefined {
  return d.fixes.find((f) => f.preferred) ?? d.fixes.find((f) => f.safe) ?? d.fixes[0];
}

function sweepEdits(result: LintResult, code: Code): TextEdit[] {
  return result.diagnostics.filter((d) => d.code === code).flatMap((d) => sweepFix(d)?.edits ?? []);
}

/** The rule book's own words for some sweeps; the others are "Fix all N code problems in the file". */
const SWEEP_TITLES: Partial<Record<Code, (n: number) => Said>> = {
  [Codes.dstUnsupported]: (n) => said`Clear every DST-unsupported value in the file (${typed.count(n)} cells)`,
  [Codes.fieldCount]: (n) => said`Add the missing empty fields to every short row (${typed.count(n)} rows)`,
};

/**
 * "Fix all of this kind": one fix of every diagnostic with this code, in one edit. Offered only when
 * there is more than the one problem the single fix already mends.
 */
function kindSweep(request: Request, mended: LintDiagnostic, context: Diagnostic[]): OurAction | undefined {
  const { result } = request;
  const code = mended.code;
  const all = result.diagnostics.filter((d) => d.code === code && sweepFix(d) !== undefined);
  if (all.length < 2) return undefined;
  const lazy = LAZY_CODES.has(code);
  // When the core already offers a file-wide fix for this problem, that one is shown and this would duplicate it.
  if (!lazy && mended.fixes.some((f) => f.edits.length > 1)) return undefined;
  const title = SWEEP_TITLES[code]?.(all.length) ?? said`Fix all ${typed.count(all.length)} ${ourWords(code)} problems in the file`;
  const action: OurAction = {
    title,
    kind: CodeActionKind.QuickFix,
    diagnostics: context.filter((d) => findLintDiagnostic(result.diagnostics, d)?.code === code),
  };
  return withEdit(request, action, lazy, { what: 'kind', code }, () => sweepEdits(result, code));
}

/** Sets the action's edit now, or leaves it to codeAction/resolve when it is costly and the client resolves. */
function withEdit(
  request: Request,
  action: OurAction,
  costly: boolean,
  what: DistributiveOmit<ActionData, 'uri' | 'version'>,
  edits: () => TextEdit[],
): OurAction {
  if (costly && request.resolves) {
    action.data = { uri: request.uri, version: request.version, ...what } satisfies ActionData;
  } else {
    action.edit = toWorkspaceEdit(request.uri, edits());
  }
  return action;
}

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

/** Reads the `data` a client hands back; anything else is not ours. */
export function actionData(raw: unknown): ActionData | undefined {
  if (raw === null || typeof raw !== 'object') return undefined;
  const d = raw as Record<string, unknown>;
  if (typeof d.uri !== 'string' || typeof d.version !== 'number') return undefined;
  if (d.what === 'fix' && typeof d.diagnostic === 'number' && typeof d.fix === 'number') return d as ActionData;
  if (d.what === 'kind' && typeof d.code === 'string') return d as ActionData;
  if (d.what === 'safe') return d as ActionData;
  return undefined;
}

/**
 * Builds the edit of a deferred action from the lint of the version it was offered for. When the
 * document changed since, the action is handed back without an edit (it would edit the wrong text).
 */
export function resolveCodeAction(action: CodeAction, data: ActionData, result: LintResult): CodeAction {
  let edits: TextEdit[] | undefined;
  if (data.what === 'fix') edits = result.diagnostics[data.diagnostic]?.fixes[data.fix]?.edits;
  else if (data.what === 'kind') edits = sweepEdits(result, data.code);
  else edits = safeFixEdits(result);
  return edits ? { ...action, edit: toWorkspaceEdit(data.uri, edits) } : action;
}
