import * as path from 'node:path';
import type * as vscode from 'vscode';
import {
  environmentProblems,
  prepareSubmission,
  parseReportTemplate,
  prepareCreateRequest,
  prepareReportRequest,
  newReportTemplate,
  type PreparedRequest,
} from '../../core/gateway';
import { contentHash } from '../../core/contentHash';
import { percentEncode } from '../../core/oauth';
import { activeEnvironmentName } from '../environments/settings';
import type { ReadOnlyDocuments } from '../readOnlyDocs';
import { resolveTarget, showTargetProblem, type TargetDeps } from '../environments/target';
import { optionsArg, type CommandArgs } from '../commandArgs';
import { documentFor } from '../diskDocument';
import { isReportTemplateUri } from '../report/templates';
import { showError } from '../say';
import { said, typed } from '../../core/output';

// Show Signature Details: the debug form of the request the active file would be sent as. It shows the
// base string, the signature (hex and Base64) and the Authorization header; never a secret. The create
// payload is the Base64 of the card data, so it is replaced in the base string by its length and hash.

export interface SignatureDetailsOptions {
  environment?: string;
}

export type SignatureDetailsResult = { ok: true; uri: vscode.Uri } | { ok: false; message: string };

function fence(text: string): string {
  const ticks = text.includes('```') ? '````' : '```';
  return `${ticks}text\n${text}\n${ticks}`;
}

/** The base string with the payload's (doubly percent-encoded) value replaced by a description of it. */
export function elidePayload(baseString: string, payload: string): string {
  const encoded = percentEncode(percentEncode(payload));
  const note = `<payload: ${payload.length} Base64 characters, sha256 ${contentHash(payload)}; left out because it encodes the card data>`;
  return baseString.split(encoded).join(note);
}

export function renderDetails(o: {
  file: string;
  environment: string;
  production: boolean;
  operation: 'create' | 'report';
  request: PreparedRequest;
  signatureMethod: string;
  consumerKey: string;
  payload?: string;
  note?: string;
}): string {
  const s = o.request.signature;
  const base = o.payload !== undefined ? elidePayload(s.baseString, o.payload) : s.baseString;
  const lines = [
    `# PayGate signature details: ${o.file} (a fresh signature, computed now)`,
    '',
    `A signature computed now, to check a signing setup: what a request for this file would carry if it were sent at ${new Date(Number(s.oauthParams.oauth_timestamp) * 1000).toLocaleString()} (local time). It is not the signature of any request that was sent: every request gets its own timestamp and nonce, so its signature differs.`,
    '',
    `- Operation: ${o.operation === 'create' ? 'create recurring payments' : 'custom report'}`,
    `- Environment: ${o.environment}${o.production ? ' (production)' : ''}`,
    `- Request: ${o.request.method} ${o.request.url}`,
    `- Content-Type: ${o.request.headers['Content-Type']}`,
    `- oauth_signature_method: ${o.signatureMethod}`,
    `- oauth_consumer_key: ${o.consumerKey}`,
    `- oauth_timestamp: ${s.oauthParams.oauth_timestamp}`,
    `- oauth_nonce: ${s.oauthParams.oauth_nonce}`,
    '',
    o.operation === 'create'
      ? 'The form field `payload` (the file with CRLF record separators, UTF-8 without BOM, Base64) is part of the base string; its value is left out here because it encodes the card data.'
      : 'The JSON body is not part of the signature; the header carries `realm=""` as in the report sample.',
    ...(o.note ? ['', o.note] : []),
    '',
    '## Signature base string',
    '',
    fence(base),
    '',
    '## Signature (Base64, as it goes into the header)',
    '',
    fence(s.signature),
    '',
    '## Signature (hex)',
    '',
    fence(s.signatureHex),
    '',
    '## Authorization header',
    '',
    fence(s.authorization),
    '',
    'No secret is shown: the consumer secret, the RSA private key and its passphrase stay in the secret storage.',
    '',
  ];
  return lines.join('\n');
}

export async function showSignatureDetailsCommand(
  deps: TargetDeps & { docs: ReadOnlyDocuments },
  ...args: CommandArgs
): Promise<SignatureDetailsResult> {
  const options = optionsArg<SignatureDetailsOptions>(args);
  const doc = await documentFor(args);
  if (!doc) {
    const message = 'Open a recurring-payments CSV file or a report template to see its signature details.';
    void showError(said`PayGate: ${typed.text(message)}`);
    return { ok: false, message };
  }
  const operation = isReportTemplateUri(doc.uri) ? 'report' : 'create';
  const envName = options.environment ?? activeEnvironmentName();
  const resolved = await resolveTarget(deps, envName, operation);
  if (!resolved.ok) {
    showTargetProblem(resolved);
    return { ok: false, message: resolved.message };
  }
  const { environment, paths, credentials } = resolved.target;
  const file = path.basename(doc.uri.path);
  const problems = environmentProblems(environment, paths, operation);
  if (problems.length > 0) {
    void showError(said`PayGate: ${typed.text(problems.join('; '))}`);
    return { ok: false, message: problems.join('; ') };
  }
  let request: PreparedRequest;
  let payload: string | undefined;
  let note: string | undefined;
  if (operation === 'create') {
    const prepared = prepareSubmission(doc.getText());
    payload = prepared.payload;
    request = prepareCreateRequest({ environment, paths, credentials, payload });
    if (prepared.errors.length > 0) note = `The file has ${prepared.errors.length} lint error(s): Submit would refuse to send it.`;
  } else {
    const parsed = parseReportTemplate(doc.getText());
    if (!parsed.ok) note = `The template is not valid yet (${parsed.problems[0].message}); the signature does not depend on the body.`;
    request = prepareReportRequest({ environment, paths, credentials, template: parsed.ok ? parsed.template : newReportTemplate() });
  }
  const content = renderDetails({
    file,
    environment: envName,
    production: environment.production,
    operation,
    request,
    signatureMethod: credentials.signatureMethod,
    consumerKey: credentials.consumerKey,
    payload,
    note,
  });
  const uri = await deps.docs.show(`Signature details - ${file}.md`, content);
  return { ok: true, uri };
}
