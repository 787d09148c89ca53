// The local gateway's two operations over real HTTP on loopback, signed with the product's signing module.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { createRecurringPayments } from '../../src/core/gateway/client';
import { prepareSubmission } from '../../src/core/gateway/prepare';
import { signRequest } from '../../src/core/oauth';
import { DEFAULT_MAX_PAYLOAD_BYTES } from '../../src/core/payload';
import { startLocalGateway } from '../../src/local-gateway';
import {
  admin,
  APPROVED_CARD,
  batch,
  createUrl,
  formFields,
  hmacCredentials,
  postCreate,
  postReport,
  reportTemplate,
  rsaCredentials,
  START,
  withGateway,
} from '../fixtures/local-gateway/helpers';

test('an RSA-SHA256 signed batch is accepted with one recurring-payment-id per row and one serial-number', async () => {
  await withGateway(async (gw, stateDir) => {
    const a = await postCreate(gw, batch([{ 'client-orderid': 'A-1' }, { 'client-orderid': 'A-2', 'start-date': '15.02.2027' }]));
    assert.equal(a.status, 200);
    assert.match(a.contentType, /^application\/x-www-form-urlencoded/);
    assert.match(a.text, /^type=create-recurring-payment-response\n&/, 'one field per line, lines after the first start with &');
    const f = formFields(a.text);
    assert.equal(f.type, 'create-recurring-payment-response');
    assert.ok(f['serial-number']);
    const ids = f['recurring-payment-id'].split(',');
    assert.equal(ids.length, 2);
    assert.notEqual(ids[0], ids[1]);
    assert.deepEqual(f.status.split(','), ['active', 'active']);

    const listed = await admin(gw, 'GET', '/_local/payments');
    assert.equal(listed.status, 200);
    assert.deepEqual(
      listed.json.payments.map((p: Record<string, unknown>) => p['recurring-payment-id']),
      ids,
    );
    assert.deepEqual(
      listed.json.payments.map((p: Record<string, unknown>) => p['client-orderid']),
      ['A-1', 'A-2'],
    );
    assert.equal(listed.json.payments[0].maskedCard, '411111******1111');
    // The card number is kept masked only, and the CVV not at all.
    const stored = ['state.json', 'journal.ndjson'].map((f) => fs.readFileSync(path.join(stateDir, f), 'utf8')).join('\n');
    assert.ok(stored.includes('A-2'), 'the payments are on disk');
    assert.ok(!stored.includes(APPROVED_CARD));
    assert.ok(!/cvv/i.test(stored));
  });
});

test('HMAC-SHA1 is accepted for create, the path without its trailing slash too, and Accept: application/json gets JSON', async () => {
  await withGateway(async (gw) => {
    const noSlash = createUrl(gw).replace(/\/$/, '');
    const a = await postCreate(gw, batch([{}]), { credentials: hmacCredentials(gw), url: noSlash, accept: 'application/json' });
    assert.equal(a.status, 200);
    assert.match(a.contentType, /^application\/json/);
    const json = JSON.parse(a.text);
    assert.equal(json.type, 'create-recurring-payment-response');
    assert.match(json['recurring-payment-id'], /^\d+$/);
  });
});

test('create authentication failures are HTTP 403 with an empty body', async () => {
  await withGateway(async (gw) => {
    const text = batch([{}]);
    const cases: [string, () => Promise<{ status: number; text: string }>][] = [
      ['wrong HMAC secret', () => postCreate(gw, text, { credentials: hmacCredentials(gw, 'not-the-secret') })],
      ['unknown consumer key', () => postCreate(gw, text, { credentials: { ...hmacCredentials(gw), consumerKey: 'someone-else' } })],
      ['stale timestamp', () => postCreate(gw, text, { timestamp: String(Math.floor(Date.now() / 1000) - 3600) })],
      ['other endpoint id, bad signature', () => postCreate(gw, text, { credentials: hmacCredentials(gw, 'x'), url: otherEndpoint(gw) })],
      [
        'payload changed after signing',
        async () => {
          const url = createUrl(gw);
          const signed = signRequest(
            { method: 'POST', url, form: [['payload', Buffer.from(text).toString('base64')]] },
            rsaCredentials(gw),
          );
          const res = await fetch(url, {
            method: 'POST',
            headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: signed.authorization },
            body: new URLSearchParams([['payload', Buffer.from(batch([{ amount: '99.00' }])).toString('base64')]]).toString(),
          });
          return { status: res.status, text: await res.text() };
        },
      ],
      [
        'no Authorization header',
        async () => {
          const res = await fetch(createUrl(gw), {
            method: 'POST',
            headers: { 'content-type': 'application/x-www-form-urlencoded' },
            body: 'payload=',
          });
          return { status: res.status, text: await res.text() };
        },
      ],
    ];
    for (const [name, run] of cases) {
      const a = await run();
      assert.equal(a.status, 403, name);
      assert.equal(a.text, '', name);
    }
    assert.equal(gw.payments().length, 0);
  });
});

function otherEndpoint(gw: Parameters<typeof createUrl>[0]): string {
  return createUrl(gw).replace(`/${gw.merchant.endpointId}/`, '/9999/');
}

test('a well-signed request for an endpoint id the merchant does not have is refused with its own error', async () => {
  await withGateway(async (gw) => {
    const a = await postCreate(gw, batch([{}]), { url: otherEndpoint(gw) });
    assert.equal(a.status, 403);
    const fields = Object.fromEntries([...new URLSearchParams(a.text)].map(([k, v]) => [k.trim(), v.trim()]));
    assert.equal(fields.type, 'error');
    assert.equal(fields['error-code'], '301');
    assert.match(fields['error-message'], new RegExp(`unknown endpoint id 9999: .*endpoint of .* is ${gw.merchant.endpointId}`));
    assert.equal(gw.payments().length, 0);
  });
});

test('a replayed nonce is refused although its signature is valid', async () => {
  await withGateway(async (gw) => {
    const ts = String(Math.floor(Date.now() / 1000));
    const first = await postCreate(gw, batch([{}]), { timestamp: ts, nonce: 'same-nonce-twice' });
    assert.equal(first.status, 200);
    const replay = await postCreate(gw, batch([{}]), { timestamp: ts, nonce: 'same-nonce-twice' });
    assert.equal(replay.status, 403);
    assert.equal(replay.text, '');
    assert.equal(gw.payments().length, 1);
  });
});

test('validation-error names the first error of the file by line, column and code', async () => {
  await withGateway(async (gw) => {
    // Row 1 (line 2): rp_card_type is the second field, after "ORD-1;" → column 7. Row 2 has another error later.
    const a = await postCreate(gw, batch([{ rp_card_type: 'XXX' }, { 'client-orderid': 'ORD-2', currency: 'eur' }]));
    assert.equal(a.status, 200);
    const f = formFields(a.text);
    assert.equal(f.type, 'validation-error');
    assert.equal(f['error-code'], '118');
    assert.match(f['error-message'], /^line 2, column 7: .*\[invalid-value\]$/);
    assert.equal(gw.payments().length, 0, 'nothing is created from a file with errors');

    const bad64 = await postCreate(gw, '', { payload: 'not base64!' });
    assert.equal(formFields(bad64.text)['error-code'], '101');
    const empty = await postCreate(gw, '', { payload: '' });
    assert.equal(formFields(empty.text)['error-code'], '100');
  });
});

test('a currency other than the project currency is type=error', async () => {
  await withGateway(async (gw) => {
    const a = await postCreate(gw, batch([{}, { 'client-orderid': 'ORD-2', currency: 'USD' }]));
    assert.equal(a.status, 200);
    const f = formFields(a.text);
    assert.equal(f.type, 'error');
    assert.equal(f['error-code'], '300');
    assert.match(f['error-message'], /row 2: currency USD .* EUR/);
    assert.equal(gw.payments().length, 0, 'the batch is all or nothing');
  });
});

test('client-orderid SIMULATE-500 gives HTTP 500 with an error id, seen by the gateway client as server-error', async () => {
  await withGateway(async (gw) => {
    const a = await postCreate(gw, batch([{ 'client-orderid': 'SIMULATE-500' }]));
    assert.equal(a.status, 500);
    const f = formFields(a.text);
    assert.match(f['error-id'], /^[0-9a-f-]{36}$/);

    const outcome = await createRecurringPayments({
      environment: gw.environment,
      payload: prepareSubmission(batch([{ 'client-orderid': 'SIMULATE-500' }])).payload,
      credentials: rsaCredentials(gw),
    });
    assert.equal(outcome.outcome, 'server-error');
    assert.match(outcome.outcome === 'server-error' ? (outcome.errorId ?? '') : '', /^[0-9a-f-]{36}$/);
    const ok = await createRecurringPayments({
      environment: gw.environment,
      payload: prepareSubmission(batch([{}])).payload,
      credentials: rsaCredentials(gw),
    });
    assert.equal(ok.outcome, 'accepted');
  });
});

test('report authentication failure is HTTP 200 text/plain with a sentence', async () => {
  await withGateway(async (gw) => {
    for (const credentials of [hmacCredentials(gw, 'wrong'), rsaCredentials(gw)]) {
      const a = await postReport(gw, reportTemplate(), { credentials });
      assert.equal(a.status, 200);
      assert.match(a.contentType, /^text\/plain/);
      assert.match(a.text, /not authorised/);
      assert.ok(!a.text.includes('"'), 'a sentence, not a CSV');
    }
  });
});

test('the CSV report has the sample columns and value shapes, honouring delimiter and encoding', async () => {
  await withGateway(async (gw) => {
    await postCreate(gw, batch([{ 'client-orderid': 'R-1', order_desc: 'Café "Gold", monthly', amount: '12.5' }]));
    await gw.advanceDays(28);
    const a = await postReport(gw, reportTemplate({ reportCsvDelimiter: ';' }));
    assert.equal(a.status, 200);
    assert.match(a.contentType, /^text\/csv/);
    const lines = a.text.split('\r\n');
    assert.equal(
      lines[0],
      '"Merchant_Name";"Transaction_id";"Merchant_OID";"Created_date";"Amount";"Currency";"Transaction_type";"Order_description";"Date_of_report"',
    );
    assert.equal(lines.at(-1), '', 'every record ends with CRLF');
    const rows = lines.slice(1, -1);
    assert.equal(rows.length, 2, 'charges on 31.01 (creation day) and 28.02');
    for (const row of rows) {
      const m =
        /^"Demo Merchant";"(\d+)";"R-1";"(\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2})";"(\d+\.\d{3})";"EUR";"Sale approved";"Café ""Gold"", monthly";"(\d{2}\.\d{2}\.\d{4})"$/.exec(
          row,
        );
      assert.ok(m, row);
      assert.equal(m[3], '12.500');
      assert.equal(m[4], '28.02.2027');
    }
    assert.match(rows[0], /"2027-01-31 /);
    assert.match(rows[1], /"2027-02-28 /);

    const latin = await postReport(gw, reportTemplate({ reportEncode: 'ISO-8859-1' }));
    assert.ok(latin.bytes.includes(Buffer.from([0x43, 0x61, 0x66, 0xe9])), 'Café in Latin-1');
    const utf8 = await postReport(gw, reportTemplate());
    assert.ok(utf8.bytes.includes(Buffer.from('Café', 'utf8')));
    const filtered = await postReport(
      gw,
      reportTemplate({ inputReportParameters: [{ type: 'INPUT_TEXT', name: 'dateFrom', value: '01.02.2027' }] }),
    );
    assert.equal(filtered.text.split('\r\n').length - 2, 1);
  });
});

test('a PDF report is a valid PDF: header, xref offsets pointing at their objects, %%EOF', async () => {
  await withGateway(async (gw) => {
    await postCreate(gw, batch([{ 'client-orderid': 'PDF-ROW-1' }]));
    const a = await postReport(gw, reportTemplate({ reportFormat: 'PDF' }));
    assert.equal(a.status, 200);
    assert.equal(a.contentType, 'application/pdf');
    const text = a.bytes.toString('latin1');
    assert.ok(text.startsWith('%PDF-1.'));
    assert.match(text, /%%EOF\s*$/);
    const startxref = Number(/startxref\s+(\d+)\s+%%EOF\s*$/.exec(text)![1]);
    assert.ok(text.startsWith('xref', startxref));
    const entries = [...text.slice(startxref).matchAll(/^(\d{10}) 00000 n $/gm)].map((m) => Number(m[1]));
    assert.ok(entries.length >= 5);
    entries.forEach((offset, i) => assert.ok(text.startsWith(`${i + 1} 0 obj`, offset), `object ${i + 1} at ${offset}`));
    assert.ok(text.includes('(PDF-ROW-1)'));
  });
});

test('a report template is checked whole by the same schema as the editor and the CLI: every problem in one 400', async () => {
  await withGateway(async (gw) => {
    const { reportName: _dropped, ...rest } = reportTemplate({ reportFormat: 'XLS' });
    const a = await postReport(gw, rest);
    assert.equal(a.status, 400);
    assert.match(a.text, /reportFormat "XLS" is not one the gateway serves: use "CSV" or "PDF"/);
    assert.match(a.text, /reportName is missing/);
  });
});

test('state survives a restart: same merchant keys, clock and payments; ids are not reused', async () => {
  const stateDir = fs.mkdtempSync(path.join(os.tmpdir(), 'paygate-local-gateway-'));
  const first = await withGateway(
    async (gw) => {
      await postCreate(gw, batch([{}]));
      await gw.advanceDays(3);
      return { secret: gw.merchant.consumerSecret, ids: gw.payments().map((p) => p['recurring-payment-id']) };
    },
    { stateDir },
  );
  for (const f of ['merchant.json', 'merchant-rsa-private.pem', 'merchant-rsa-public.pem', 'state.json', 'journal.ndjson']) {
    assert.equal(fs.statSync(path.join(stateDir, f)).mode & 0o777, 0o600, f);
  }
  const gw = await startLocalGateway({ stateDir, port: 0, initialDate: START });
  try {
    assert.equal(gw.merchant.consumerSecret, first.secret);
    assert.deepEqual(gw.today(), { year: 2027, month: 2, day: 3 });
    assert.deepEqual(
      gw.payments().map((p) => p['recurring-payment-id']),
      first.ids,
    );
    const again = formFields((await postCreate(gw, batch([{}]))).text);
    assert.ok(!first.ids.includes(again['recurring-payment-id']));
  } finally {
    await gw.close();
    fs.rmSync(stateDir, { recursive: true, force: true });
  }
});

test('a second gateway on the same state directory is refused and told who holds it; after close it starts', async () => {
  await withGateway(async (a, stateDir) => {
    await assert.rejects(startLocalGateway({ stateDir, port: 0 }), (err: Error) => {
      assert.equal(err.name, 'StateDirLockedError');
      assert.match(
        err.message,
        new RegExp(`process ${process.pid} \\(started \\d{4}-\\d\\d-\\d\\dT[^,]+, ${a.baseUrl.replace(/[.]/g, '\\.')}\\)`),
      );
      return true;
    });
    // The refused start left the holder's lock alone.
    assert.equal((await admin(a, 'GET', '/_local/state')).status, 200);
  });
});

test('admin endpoints refuse requests carrying an Origin (a web page) and unknown days', async () => {
  await withGateway(async (gw) => {
    const res = await fetch(`${gw.origin}/_local/advance?days=1`, {
      method: 'POST',
      headers: { origin: 'http://example.test', authorization: `Bearer ${gw.adminToken}` },
    });
    assert.equal(res.status, 403);
    assert.equal((await admin(gw, 'POST', '/_local/advance?days=0')).status, 400);
    assert.equal((await admin(gw, 'POST', '/_local/advance?days=2')).json.today, '02.02.2027');
  });
});

test('the admin endpoints still answer under their first name, /_sim/…, for scripts written against it', async () => {
  await withGateway(async (gw) => {
    assert.equal((await admin(gw, 'POST', '/_sim/advance?days=3')).json.today, '03.02.2027');
    assert.deepEqual((await admin(gw, 'GET', '/_sim/state')).json, (await admin(gw, 'GET', '/_local/state')).json);
    assert.equal((await admin(gw, 'GET', '/_sim/payments')).json.today, '03.02.2027');
    assert.equal((await admin(gw, 'GET', '/_simulator/state')).status, 404, 'only the prefix itself');
  });
});

test('a payload over the maximum is answered as the gateway validation error would (104), nothing created; at the maximum it is taken', async () => {
  const text = batch([{ 'client-orderid': 'BIG-1' }, { 'client-orderid': 'BIG-2' }]);
  const size = Buffer.from(text, 'utf8').toString('base64').length;
  await withGateway(
    async (gw) => {
      const over = await postCreate(gw, text);
      assert.equal(over.status, 200);
      const f = formFields(over.text);
      assert.equal(f.type, 'validation-error');
      assert.equal(f['error-code'], '104');
      assert.match(
        f['error-message'],
        new RegExp(
          `^payload of ${size} bytes is larger than the maximum of ${size - 1} bytes: split the batch \\(paygate split --max-bytes ${size - 1}\\)$`,
        ),
      );
      assert.equal(gw.payments().length, 0, 'nothing is created from a payload over the maximum');
    },
    { maxPayloadBytes: size - 1 },
  );
  await withGateway(
    async (gw) => {
      const at = await postCreate(gw, text);
      assert.equal(formFields(at.text).type, 'create-recurring-payment-response');
    },
    { maxPayloadBytes: size },
  );
  // The documented default: 8 MiB of Base64.
  await withGateway(async (gw) => {
    const over = await postCreate(gw, '', { payload: 'QUFB'.repeat(DEFAULT_MAX_PAYLOAD_BYTES / 4 + 1) });
    assert.equal(formFields(over.text)['error-code'], '104');
    assert.match(formFields(over.text)['error-message'], /maximum of 8388608 bytes/);
  });
});
