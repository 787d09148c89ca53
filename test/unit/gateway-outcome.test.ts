import { test } from 'node:test';
import assert from 'node:assert/strict';
import { httpAnswer } from '../fixtures/gateway/httpAnswer';
import { interpretCreateAnswer, interpretReportAnswer, type GatewayOutcome } from '../../src/core/gateway';
import { parseFormFields } from '../../src/core/gateway/answerText';
import { classifyTransportError } from '../../src/core/gateway/transportErrors';

const answer = httpAnswer;

type Member<K> = GatewayOutcome extends infer T ? (T extends { outcome: infer O } ? (K extends O ? T : never) : never) : never;
function expectOutcome<K extends GatewayOutcome['outcome']>(o: GatewayOutcome, kind: K): Member<K> {
  assert.equal(o.outcome, kind, JSON.stringify(o));
  return o as Member<K>;
}

test('create: 200 with an empty body is accepted', () => {
  const o = expectOutcome(interpretCreateAnswer(answer('create-accepted-empty.http')), 'accepted');
  assert.deepEqual(o.fields, {});
  assert.equal(o.status, 200);
});

test('create: form-encoded success, one field per line, values trimmed', () => {
  const o = expectOutcome(interpretCreateAnswer(answer('create-accepted-form.http')), 'accepted');
  assert.equal(o.fields.type, 'create-recurring-payment-response');
  assert.equal(o.fields['recurring-payment-id'], '1873641');
  assert.equal(o.fields['serial-number'], '00000000-0000-0000-0000-000002c1e2a5');
  assert.equal(o.fields.status, 'active');
});

test('create: JSON success keeps the field names verbatim and numbers as text', () => {
  const o = expectOutcome(interpretCreateAnswer(answer('create-accepted-json.http')), 'accepted');
  assert.equal(o.fields['recurring-payment-id'], '1873642');
});

test('create: validation-error in form encoding, even labelled text/html', () => {
  const o = expectOutcome(interpretCreateAnswer(answer('create-validation-error-form.http')), 'validation-error');
  assert.equal(o.errorMessage, 'credit-card-number is not a valid card number (row 2)');
  assert.equal(o.errorCode, '2');
});

test('create: validation-error in JSON with underscore spellings', () => {
  const o = expectOutcome(interpretCreateAnswer(answer('create-validation-error-json.http')), 'validation-error');
  assert.equal(o.errorMessage, 'amount: must be a number');
  assert.equal(o.errorCode, '4');
  assert.equal(o.status, 400);
});

test('create: type=error on one line joined by &', () => {
  const o = expectOutcome(interpretCreateAnswer(answer('create-error-form.http')), 'error');
  assert.equal(o.errorMessage, 'Currency USD does not match the project currency EUR');
  assert.equal(o.errorCode, '17');
});

test('create: 403 with an empty body is an authentication failure', () => {
  const o = expectOutcome(interpretCreateAnswer(answer('create-auth-failed.http')), 'auth-failed');
  assert.equal(o.operation, 'create');
  assert.equal(o.status, 403);
});

test('create: 500 carries its error ID from form, JSON or plain text', () => {
  const form = expectOutcome(interpretCreateAnswer(answer('create-server-error-form.http')), 'server-error');
  assert.equal(form.errorId, '7f0c2a9e-5b1d-4d1e-9c53-2b1f0a7d9e11');
  assert.equal(form.fields['error-message'], 'Internal error');
  const json = expectOutcome(interpretCreateAnswer(answer('create-server-error-json.http')), 'server-error');
  assert.equal(json.errorId, 'E-20261122-000731');
  const text = expectOutcome(interpretCreateAnswer(answer('create-server-error-text.http')), 'server-error');
  assert.equal(text.errorId, '3b8d1f44c2');
});

test('create: an HTML page is shown raw as unrecognised', () => {
  const o = expectOutcome(interpretCreateAnswer(answer('create-unrecognised-html.http')), 'unrecognised');
  assert.match(o.raw, /404 Not Found/);
  assert.equal(o.contentType, 'text/html');
});

test('report: RFC 4180 CSV with quoted quotes, commas and line breaks', () => {
  const o = expectOutcome(interpretReportAnswer(answer('report-csv.http'), { delimiter: ',', encoding: 'UTF-8' }), 'report');
  assert.equal(o.format, 'csv');
  if (o.format !== 'csv') return;
  assert.equal(o.columns.length, 9);
  assert.equal(o.columns[0], 'Merchant_Name');
  assert.equal(o.rows.length, 2);
  assert.equal(o.rows[0][7], 'Monthly "Gold" plan');
  assert.equal(o.rows[1][7], 'two\r\nlines, and a comma');
  assert.equal(o.rows[1][4], '2.500');
});

test("report: the template's delimiter and encoding decide how the CSV is read", () => {
  const o = expectOutcome(
    interpretReportAnswer(answer('report-csv-latin1-semicolon.http'), { delimiter: ';', encoding: 'ISO-8859-1' }),
    'report',
  );
  assert.ok(o.format === 'csv');
  if (o.format !== 'csv') return;
  assert.deepEqual(o.columns, ['Merchant_Name', 'Order_description']);
  assert.deepEqual(o.rows, [['Café Zürich', 'Crème brûlée; weekly']]);
});

test('report: PDF by content type, and by %PDF magic under another type', () => {
  const a = expectOutcome(interpretReportAnswer(answer('report-pdf.http')), 'report');
  assert.equal(a.format, 'pdf');
  const b = expectOutcome(interpretReportAnswer(answer('report-pdf-octet.http')), 'report');
  assert.equal(b.format, 'pdf');
  if (b.format === 'pdf') assert.equal(Buffer.from(b.bytes).subarray(0, 5).toString('latin1'), '%PDF-');
});

test('report: 200 text/plain sentence is an authentication failure, not a one-column report', () => {
  const o = expectOutcome(interpretReportAnswer(answer('report-auth-failed.http')), 'auth-failed');
  assert.equal(o.operation, 'report');
  assert.equal(o.status, 200);
  assert.equal(o.message, 'You are not authorised to perform this request.');
  // A one-line text/plain CSV header is still a (empty) report.
  const header = expectOutcome(
    interpretReportAnswer({
      status: 200,
      contentType: 'text/plain',
      headers: {},
      body: new TextEncoder().encode('"Merchant_Name","Amount"\r\n'),
    }),
    'report',
  );
  assert.ok(header.format === 'csv' && header.rows.length === 0);
});

test('report: 500 with error_id, and HTML shown raw', () => {
  const e = expectOutcome(interpretReportAnswer(answer('report-server-error.http')), 'server-error');
  assert.equal(e.errorId, 'RPT-99812');
  const u = expectOutcome(interpretReportAnswer(answer('report-unrecognised-html.http')), 'unrecognised');
  assert.match(u.raw, /Maintenance/);
});

test('form fields: both error-message spellings, lines and & joins mixed', () => {
  assert.deepEqual(parseFormFields('type=error\r\n&error_message=a+b\n&error-code= 7 '), {
    type: 'error',
    error_message: 'a b',
    'error-code': '7',
  });
  assert.equal(parseFormFields('just a sentence'), undefined);
});

test('transport errors as undici reports them: refused, timeout, TLS, other', () => {
  const url = 'https://gw.example:8443/x';
  const refused = new TypeError('fetch failed', {
    cause: Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:8443'), { code: 'ECONNREFUSED' }),
  });
  assert.equal(classifyTransportError(refused, url, 1000, false).kind, 'refused');
  const timeout = new DOMException('The operation was aborted due to timeout', 'TimeoutError');
  assert.equal(classifyTransportError(timeout, url, 1000, false).kind, 'timeout');
  const tls = new TypeError('fetch failed', {
    cause: Object.assign(new Error('self-signed certificate'), { code: 'DEPTH_ZERO_SELF_SIGNED_CERT' }),
  });
  assert.equal(classifyTransportError(tls, url, 1000, false).kind, 'tls');
  const dns = new TypeError('fetch failed', { cause: Object.assign(new Error('getaddrinfo ENOTFOUND gw.example'), { code: 'ENOTFOUND' }) });
  const other = classifyTransportError(dns, url, 1000, false);
  assert.equal(other.kind, 'other');
  assert.match(other.message, /gw\.example:8443.*ENOTFOUND/);
  assert.match(classifyTransportError(new DOMException('aborted', 'AbortError'), url, 1000, true).message, /cancelled/);
});

test('create: a plain-text denial sentence is an authentication failure; a 403 page is shown raw', () => {
  const text = (s: string) => new TextEncoder().encode(s);
  const denial = expectOutcome(
    interpretCreateAnswer({
      status: 200,
      contentType: 'text/plain',
      headers: {},
      body: text('Access denied: you are not authorized to perform this request.'),
    }),
    'auth-failed',
  );
  assert.equal(denial.operation, 'create');
  const page = interpretCreateAnswer({
    status: 403,
    contentType: 'text/html',
    headers: {},
    body: text('<html><body>Request blocked by firewall</body></html>'),
  });
  assert.equal(page.outcome, 'unrecognised');
  const reportPage = interpretReportAnswer({
    status: 403,
    contentType: 'text/html',
    headers: {},
    body: text('<html><body>Request blocked</body></html>'),
  });
  assert.equal(reportPage.outcome, 'unrecognised');
});
