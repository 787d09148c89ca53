import { describe, it } from 'node:test';
import * as assert from 'node:assert/strict';
import { isHostToPage, isPageToHost, isPersistedState, PROTOCOL_VERSION } from '../../src/shared/resultsProtocol';
import { isSubmissionView, type SubmissionView } from '../../src/shared/submissionView';

const view: SubmissionView = {
  title: 'Submission: batch.csv',
  outcome: { outcome: 'validation-error', status: 200, message: 'bad amount', code: '2' },
  columns: ['client-orderid', 'credit-card-number', 'recurring-payment-id'],
  rows: [['A1', '411111******1111', '555']],
};

describe('webview protocol guards', () => {
  it('accepts every well-formed page message', () => {
    assert.ok(isPageToHost({ type: 'ready', version: PROTOCOL_VERSION, restored: false }));
    assert.ok(isPageToHost({ type: 'export', format: 'csv', columns: ['a'], rows: [['1'], ['2']], suggestedName: 'r.csv' }));
    assert.ok(isPageToHost({ type: 'copy', text: 'x', what: 'row' }));
    assert.ok(isPageToHost({ type: 'copy', text: 'x\ty', what: 'rows' }));
    assert.ok(isPageToHost({ type: 'log', level: 'warn', message: 'm' }));
  });

  it('rejects page messages with unknown types or wrong field types', () => {
    assert.equal(isPageToHost(null), false);
    assert.equal(isPageToHost('ready'), false);
    assert.equal(isPageToHost({ type: 'eval', code: '1' }), false);
    assert.equal(isPageToHost({ type: 'ready', version: '1', restored: false }), false);
    assert.equal(isPageToHost({ type: 'export', format: 'xlsx', columns: [], rows: [], suggestedName: 'r' }), false);
    // One non-string cell anywhere makes the whole export invalid: the host writes only text.
    assert.equal(isPageToHost({ type: 'export', format: 'csv', columns: ['a'], rows: [['1'], [2]], suggestedName: 'r' }), false);
    assert.equal(isPageToHost({ type: 'copy', text: 'x', what: 'table' }), false);
    assert.equal(isPageToHost({ type: 'log', level: 'debug', message: 'm' }), false);
  });

  it('accepts host messages and checks their payloads', () => {
    assert.ok(isHostToPage({ type: 'table', title: { said: ['t'] }, columns: ['a'], rows: [['1']], source: { kind: 'inline' } }));
    assert.ok(isHostToPage({ type: 'csvStart', title: { said: ['t'] }, source: { kind: 'file', uri: 'file:///r.csv' } }));
    assert.ok(isHostToPage({ type: 'csvChunk', bytes: new TextEncoder().encode('a,b\n') }));
    assert.ok(isHostToPage({ type: 'csvEnd' }));
    assert.ok(isHostToPage({ type: 'submission', view }));
    assert.equal(isHostToPage({ type: 'table', title: { said: ['t'] }, columns: ['a'], rows: [[1]], source: { kind: 'inline' } }), false);
    assert.equal(isHostToPage({ type: 'csvStart', title: { said: ['t'] }, source: { kind: 'file' } }), false);
    assert.equal(isHostToPage({ type: 'csvChunk', bytes: 5 }), false);
    assert.equal(isHostToPage({ type: 'csvChunk', text: 'a,b\n' }), false, 'text chunks are gone: the host sends bytes');
    assert.equal(isHostToPage({ type: 'html', html: '<b>' }), false);
  });

  it('validates each submission outcome kind by its own fields', () => {
    assert.ok(isSubmissionView(view));
    assert.ok(isSubmissionView({ ...view, outcome: { outcome: 'accepted' } }));
    assert.ok(
      isSubmissionView({
        ...view,
        outcome: { outcome: 'auth-failed', operation: 'create', message: 'denied', check: ['consumer-secret'] },
      }),
    );
    assert.ok(isSubmissionView({ ...view, outcome: { outcome: 'server-error', status: 500, errorId: 'E-1' } }));
    assert.ok(isSubmissionView({ ...view, outcome: { outcome: 'transport-error', kind: 'refused', message: 'ECONNREFUSED' } }));
    assert.ok(isSubmissionView({ ...view, outcome: { outcome: 'unrecognised', status: 200, contentType: 'text/plain', message: 'OK' } }));
    assert.ok(isSubmissionView({ ...view, outcome: { outcome: 'withdrawn', message: 'never sent' } }));
    assert.equal(isSubmissionView({ ...view, outcome: { outcome: 'validation-error', message: 5 } }), false);
    assert.equal(isSubmissionView({ ...view, outcome: { outcome: 'auth-failed', operation: 'create', check: ['password'] } }), false);
    assert.equal(isSubmissionView({ ...view, outcome: { outcome: 'server-error', status: '500' } }), false);
    // The page never sees the ledger's legacy name, nor the core's report (recorded as unrecognised).
    assert.equal(isSubmissionView({ ...view, outcome: { outcome: 'cancelled' } }), false);
    assert.equal(isSubmissionView({ ...view, outcome: { outcome: 'report' } }), false);
    assert.equal(isSubmissionView({ ...view, outcome: { outcome: 'toString' } }), false);
    assert.equal(isSubmissionView({ ...view, outcome: { outcome: 'transport-error', kind: 'dns', message: 'x' } }), false);
    assert.equal(isSubmissionView({ ...view, outcome: { outcome: 'maybe' } }), false);
    assert.equal(isSubmissionView({ ...view, fields: { 'serial-number': 7 } }), false);
  });

  it('accepts persisted state only in the shape and version it was written', () => {
    const state = { v: PROTOCOL_VERSION, title: 't', source: { kind: 'inline' }, table: { columns: ['a'], rows: [['1']] } };
    assert.ok(isPersistedState(state));
    assert.equal(isPersistedState({ ...state, v: PROTOCOL_VERSION + 1 }), false);
    assert.equal(isPersistedState({ ...state, table: { columns: ['a'], rows: 'x' } }), false);
    assert.equal(isPersistedState({ ...state, submission: { title: 't' } }), false);
    assert.equal(isPersistedState(undefined), false);
  });
});
