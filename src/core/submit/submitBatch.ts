import { environmentProblems, type Environment, type PathTemplates } from '../gateway/environments';
import type { GatewayOutcome } from '../gateway/outcome';
import { prepareSubmission, type PreparedSubmission, type SubmissionRefusal } from '../gateway/prepare';
import { answerIds, completionFor, type AnswerIds } from '../ledger/fromOutcome';
import { submissionEntry } from '../ledger/entry';
import type { AlreadySentRow } from '../ledger/alreadySent';
import type { RowKey } from '../ledger/rowKeys';
import type { SamePayerRow } from '../ledger/samePayer';
import { guardedSend, type GuardedSendResult, type ResendBlocker } from '../ledger/guard';
import type { LedgerStore } from '../ledger/store';
import { checkApprovals } from '../ledger/approvals';
import type { Approval } from '../ledger/store';
import type { LedgerFace, LocalGatewayRef } from '../ledger/records';
import { DEFAULT_MAX_PAYLOAD_BYTES } from '../payload';
import { payloadLengthProblem } from '../rules/payloadCheck';
import { joinSaid, said, typed, type Said } from '../output/said';
import { errorMessage } from '../errorMessage';

// The submit use case, the same steps for the terminal and the editor: submission preparation (lint gate,
// CRLF, payload, hash) → where it goes (the face resolves it) → the environment's own checks → which local
// gateway → the guarded send (in flight? sent before? rows already sent? confirmed? row keys and ledger
// "sending", one POST, ledger completed) → the ids and statuses the answer gave. Each face brings its prompts, its send (the editor's
// is cancellable) and its words; nothing here prints or asks.

/** Where a batch goes and how it is signed, as a face resolved it. */
export interface SubmitTarget {
  environment: Environment;
  paths?: PathTemplates;
  signatureMethod: string;
  /** The environment's name as the person chose it, when it differs from the environment's own. */
  environmentName?: string;
  /** Lets go of what resolving took (a local gateway the command started); called once the send ended. */
  release?: () => Promise<void>;
}

/** A face's part: who sends, its prompts and its send. `T` is its own target (with its credentials). */
export interface SubmitFace<T extends SubmitTarget, R> {
  face: LedgerFace;
  pid: number;
  host: string;
  ledger: LedgerStore;
  /** The file as the ledger names it (a path, or a URI for a document that is not a file). */
  file: string;
  /**
   * The file's text as read from disk when `text` is not that (an editor's buffer shown unchanged), for the
   * hashes versions up to 0.1 recorded of those bytes (prepareSubmission).
   */
  onDisk?: string | undefined;
  /** Resolves the target after the lint gate passed; a refusal (the face's own) when it cannot. */
  target: () => Promise<{ ok: true; value: T } | { ok: false; refusal: R }>;
  /** The local gateway the target is, when it is one (throws when it cannot say which). */
  localGateway?: (target: T) => Promise<LocalGatewayRef | undefined>;
  /** Send whatever the ledger says (the CLI's --allow-resend). */
  allowResend?: boolean;
  /** A run of parts: a content accepted at the target before is never sent again (guard.ts). */
  keepAccepted?: boolean;
  confirmResend?: (blocker: ResendBlocker, target: T) => Promise<boolean>;
  /** Asked when rows of the batch were already sent to the target (every one, in file order); absent: refuse. */
  confirmRowResend?: (rows: readonly AlreadySentRow[], target: T) => Promise<boolean>;
  /** Send rows of the same card and schedule sent to the target under another id (the CLI's --allow-same-payer). */
  allowSamePayer?: boolean;
  /** Asked when rows of the batch are the same payer as rows sent under another id; absent: refuse. */
  confirmSamePayer?: (rows: readonly SamePayerRow<RowKey>[], target: T) => Promise<boolean>;
  /** The last question before the send; `approvals`: who approved it, when its environment needs approvals. */
  confirmSend?: (target: T, prepared: PreparedSubmission, approvals: readonly Approval[] | undefined) => Promise<boolean>;
  /** The one POST. */
  send: (target: T, prepared: PreparedSubmission) => PromiseLike<GatewayOutcome>;
  /** The message the ledger records with the answer (default: the answer's own words). */
  ledgerMessage?: (outcome: GatewayOutcome, target: T, prepared: PreparedSubmission) => string;
  /** The batch's card numbers and CVVs, scrubbed from every text recorded. */
  sensitive?: (prepared: PreparedSubmission) => readonly string[];
}

type Guarded = Exclude<GuardedSendResult<GatewayOutcome>, { status: 'sent' }>;

/**
 * How a submit ended: refused before sending (and why), held back by the guard, or sent with its answer. A
 * refusal's `problem` is a `Said` (values by their type), without "nothing was sent": each face lays it out.
 */
export type SubmitResult<T, R> =
  | { status: 'refused'; reason: SubmissionRefusal['reason']; problem: Said; prepared: PreparedSubmission }
  | { status: 'no-target'; refusal: R; prepared: PreparedSubmission }
  | {
      status: 'refused';
      reason: 'invalid-environment' | 'local-gateway-failed' | 'batch-too-large' | 'needs-approval';
      /** local-gateway-failed: the local gateway's error as free text (the face words it). */
      problem: Said;
      prepared: PreparedSubmission;
      target: T;
    }
  /** The ledger could not be read or written, or a prompt failed: before anything was sent. */
  | { status: 'failed'; error: unknown; prepared: PreparedSubmission; target: T }
  | (Guarded & { prepared: PreparedSubmission; target: T })
  | {
      status: 'sent';
      outcome: GatewayOutcome;
      answer: AnswerIds;
      record: Extract<GuardedSendResult<GatewayOutcome>, { status: 'sent' }>['record'];
      completed?: Extract<GuardedSendResult<GatewayOutcome>, { status: 'sent' }>['completed'];
      recordError?: string;
      /** When the request went out (ISO), for the panel; the ledger keeps its own time. */
      submittedAt: string;
      /** Who approved it, when its environment needs approvals. */
      approvals?: Approval[];
      prepared: PreparedSubmission;
      target: T;
    };

/** Submits one batch: `text` as read, `name` as the person knows the file. */
export async function submitBatch<T extends SubmitTarget, R>(
  text: string,
  name: string,
  face: SubmitFace<T, R>,
): Promise<SubmitResult<T, R>> {
  const prepared = prepareSubmission(text, name, face.onDisk);
  if (prepared.refusal) return { status: 'refused', ...prepared.refusal, prepared };
  const resolved = await face.target();
  if (!resolved.ok) return { status: 'no-target', refusal: resolved.refusal, prepared };
  const target = resolved.value;
  try {
    return await sendToTarget(prepared, target, face);
  } finally {
    await target.release?.();
  }
}

async function sendToTarget<T extends SubmitTarget, R>(
  prepared: PreparedSubmission,
  target: T,
  face: SubmitFace<T, R>,
): Promise<SubmitResult<T, R>> {
  const problems = environmentProblems(target.environment, target.paths, 'create');
  if (problems.length > 0)
    // Each problem is an error's words (the settings' values in them): free text, each checked alone.
    return { status: 'refused', reason: 'invalid-environment', problem: joinSaid(problems.map(typed.text), '; '), prepared, target };
  // batch-too-large is an error for submit whatever its severity in lint: the gateway would refuse the
  // request (a 413 or its validation error) and nothing may leave that it must refuse.
  const tooLarge = payloadLengthProblem(prepared.payload.length, target.environment.maxPayloadBytes ?? DEFAULT_MAX_PAYLOAD_BYTES);
  if (tooLarge !== undefined) return { status: 'refused', reason: 'batch-too-large', problem: tooLarge, prepared, target };
  let localGateway: LocalGatewayRef | undefined;
  try {
    localGateway = await face.localGateway?.(target);
  } catch (err) {
    // The face words it: its own sentence around the local gateway's.
    return { status: 'refused', reason: 'local-gateway-failed', problem: said`${typed.text(errorMessage(err))}`, prepared, target };
  }
  // Maker-checker: the approvals this environment needs, from the team ledger, before anything is recorded.
  let approvals: Approval[] | undefined;
  const needed = target.environment.approvals ?? 0;
  if (needed > 0) {
    let checked;
    try {
      checked = await checkApprovals(
        face.ledger,
        target.environmentName ?? target.environment.name,
        prepared.contentHash,
        needed,
        face.file,
      );
    } catch (error) {
      return { status: 'failed', error, prepared, target };
    }
    if (!checked.ok) return { status: 'refused', reason: 'needs-approval', problem: checked.problem, prepared, target };
    approvals = checked.approvals;
  }
  let submittedAt = new Date().toISOString();
  let result: GuardedSendResult<GatewayOutcome>;
  try {
    result = await guardedSend({
      ledger: face.ledger,
      entry: submissionEntry({
        face: face.face,
        pid: face.pid,
        host: face.host,
        file: face.file,
        environment: target.environment,
        ...(target.environmentName !== undefined ? { environmentName: target.environmentName } : {}),
        ...(target.paths ? { paths: target.paths } : {}),
        signatureMethod: target.signatureMethod,
        prepared,
        ...(localGateway ? { localGateway } : {}),
      }),
      // The row-level guard for every face: the older versions' hashes of the same content, and the rows.
      legacyHashes: prepared.legacyHashes,
      batch: prepared.lint.batch,
      allowResend: face.allowResend === true,
      ...(face.keepAccepted ? { keepAccepted: true } : {}),
      ...(face.confirmResend ? { confirmResend: (b: ResendBlocker) => face.confirmResend!(b, target) } : {}),
      ...(face.confirmRowResend ? { confirmRowResend: (rows: readonly AlreadySentRow[]) => face.confirmRowResend!(rows, target) } : {}),
      ...(face.allowSamePayer ? { allowSamePayer: true } : {}),
      ...(face.confirmSamePayer
        ? { confirmSamePayer: (rows: readonly SamePayerRow<RowKey>[]) => face.confirmSamePayer!(rows, target) }
        : {}),
      ...(face.confirmSend ? { confirmSend: () => face.confirmSend!(target, prepared, approvals) } : {}),
      send: () => {
        submittedAt = new Date().toISOString();
        return Promise.resolve(face.send(target, prepared));
      },
      completion: (o) => completionFor(o, face.ledgerMessage?.(o, target, prepared)),
      ...(face.sensitive ? { sensitive: face.sensitive(prepared) } : {}),
    });
  } catch (error) {
    return { status: 'failed', error, prepared, target };
  }
  if (result.status !== 'sent') return { ...result, prepared, target };
  return { ...result, answer: answerIds(result.outcome), submittedAt, prepared, target, ...(approvals ? { approvals } : {}) };
}
