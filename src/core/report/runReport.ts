import { environmentProblems, type Environment, type PathTemplates } from '../gateway/environments';
import type { SigningCredentials } from '../oauth';
import { runCustomReportToFile, type SavedReport } from '../gateway/reportFile';
import { parseReportTemplate, type ReportTemplate, type TemplateProblem } from '../gateway/reportTemplate';

// The report use case, the same steps for the terminal and the editor: the template checked (every problem
// at once) → the face's own checks (the terminal's query) → where it goes (the face resolves it) → the
// environment's own checks → the one POST, its answer streamed into a file as it arrives, recognised and
// parsed once on its way there (a CSV's header and row count, or a PDF), so a report costs disk, not
// memory, in every face, and no face reads the file back to learn what it is. The
// face owns the file (its --out, or a temporary one it removes) and shows what came; nothing here prints
// or asks.

/** Where a report is run and how it is signed, as a face resolved it. */
export interface ReportTarget {
  environment: Environment;
  paths?: PathTemplates;
  credentials: SigningCredentials;
  timeoutMs?: number;
  /** Lets go of what resolving took (a local gateway the command started); called once the run ended. */
  release?: () => Promise<void>;
}

/** A face's part. `T` is its own target; `R` its own words for a refusal. */
export interface ReportFace<T extends ReportTarget, R> {
  /** Checks of the face's own on a valid template before anything is sent; a refusal when one fails. */
  check?: (template: ReportTemplate) => R | undefined;
  /** Resolves the target once the template passed; a refusal (the face's own) when it cannot. */
  target: (template: ReportTemplate) => Promise<{ ok: true; value: T } | { ok: false; refusal: R }>;
  /** Where the answer is streamed (the face removes a temporary file once it is done with it). */
  file: string;
  maxAnswerBytes?: number;
  signal?: AbortSignal;
  /** Sees each chunk of the answer as it arrives (a query run over the report as it comes). */
  tap?: (chunk: Uint8Array) => void;
  /** Sees each record of the answer's one parse as it arrives, the header first (the terminal's table widths). */
  onRecord?: (record: string[], header: boolean) => void;
}

/** How a report run ended; `warnings` are the template's (told in every case). */
export type ReportRun<T, R> = { warnings: TemplateProblem[] } & (
  | { status: 'invalid-template'; problems: TemplateProblem[] }
  | { status: 'refused'; refusal: R }
  | { status: 'invalid-environment'; problems: string[]; target: T }
  | { status: 'ran'; saved: SavedReport; template: ReportTemplate; target: T }
);

/** Runs the report template `text` for a face. Errors writing the file are thrown (the face names its file). */
export async function runCustomReportTemplate<T extends ReportTarget, R>(text: string, face: ReportFace<T, R>): Promise<ReportRun<T, R>> {
  const parsed = parseReportTemplate(text);
  const warnings = parsed.warnings;
  if (!parsed.ok) return { status: 'invalid-template', problems: parsed.problems, warnings };
  const template = parsed.template;
  const refusal = face.check?.(template);
  if (refusal !== undefined) return { status: 'refused', refusal, warnings };
  const resolved = await face.target(template);
  if (!resolved.ok) return { status: 'refused', refusal: resolved.refusal, warnings };
  const target = resolved.value;
  try {
    const problems = environmentProblems(target.environment, target.paths, 'report');
    if (problems.length > 0) return { status: 'invalid-environment', problems, target, warnings };
    const saved = await runCustomReportToFile({
      environment: target.environment,
      paths: target.paths,
      credentials: target.credentials,
      timeoutMs: target.timeoutMs,
      template,
      file: face.file,
      maxAnswerBytes: face.maxAnswerBytes,
      signal: face.signal,
      tap: face.tap,
      onRecord: face.onRecord,
    });
    return { status: 'ran', saved, template, target, warnings };
  } finally {
    await target.release?.();
  }
}
