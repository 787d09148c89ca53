import { describe, it } from 'node:test';
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { build } from 'esbuild';
import { contentSecurityPolicy, makeNonce, pdfDirectives, renderShell } from '../../src/extension/results/html';
import { formatBytes, isHostToPdfPage, isPdfPageToHost, isPdfPersistedState, PDF_PROTOCOL_VERSION } from '../../src/shared/pdfProtocol';
import { hasPdfSignature, PDF_HEAD_BYTES } from '../../src/core/pdfSignature';
import { interpretReportAnswer } from '../../src/core/gateway';

const ROOT = path.join(__dirname, '..', '..');
const bytes = (s: string) => new Uint8Array(Buffer.from(s, 'latin1'));

describe('PDF page protocol', () => {
  it('accepts a PDF message only with its bytes as a Uint8Array', () => {
    const info = { template: 't.report.json', environment: 'local', bytes: 3 };
    assert.ok(isHostToPdfPage({ type: 'pdf', title: { said: ['T'] }, info, data: new Uint8Array(3) }));
    assert.ok(!isHostToPdfPage({ type: 'pdf', title: { said: ['T'] }, info, data: [1, 2, 3] }));
    assert.ok(!isHostToPdfPage({ type: 'pdf', title: { said: ['T'] }, info: { bytes: -1 }, data: new Uint8Array(0) }));
    assert.ok(!isHostToPdfPage({ type: 'pdf', title: { said: ['T'] }, info, data: new Uint8Array(0), file: 7 }));
    assert.ok(isHostToPdfPage({ type: 'pdfFailed', title: { said: ['T'] }, message: { said: ['m'] } }));
    assert.ok(
      !isHostToPdfPage({ type: 'pdfFailed', title: { said: ['T'] }, message: 'm' }),
      'why is a Said (issue 38), laid out by the page',
    );
    assert.ok(!isHostToPdfPage({ type: 'csvStart', title: { said: ['T'] } }), 'a table message is not the PDF page’s');
  });

  it('takes from the page only its four messages, and a link of bounded length', () => {
    assert.ok(isPdfPageToHost({ type: 'ready', version: PDF_PROTOCOL_VERSION }));
    assert.ok(isPdfPageToHost({ type: 'save' }));
    assert.ok(isPdfPageToHost({ type: 'openLink', url: 'https://example.invalid/' }));
    assert.ok(!isPdfPageToHost({ type: 'openLink', url: `https://x/${'a'.repeat(9000)}` }));
    assert.ok(!isPdfPageToHost({ type: 'export', format: 'csv' }));
    assert.ok(!isPdfPageToHost({ type: 'log', level: 'debug', message: 'x' }));
  });

  it('keeps across a reload the title and the file, never the bytes', () => {
    assert.ok(isPdfPersistedState({ v: PDF_PROTOCOL_VERSION, title: 'T', file: 'file:///r.pdf' }));
    assert.ok(!isPdfPersistedState({ v: 99, title: 'T' }));
  });

  it('tells a PDF by its signature starting within the first 1,024 bytes', () => {
    assert.ok(hasPdfSignature(bytes('%PDF-1.4\n')));
    assert.ok(hasPdfSignature(bytes(`${' '.repeat(500)}%PDF-1.7`)), 'leading junk, as readers allow');
    assert.ok(hasPdfSignature(bytes(`${' '.repeat(1023)}%PDF-1.7`)), 'starting at the last byte of the window');
    assert.ok(!hasPdfSignature(bytes(`${' '.repeat(1024)}%PDF-1.7`)), 'starting past it');
    assert.ok(!hasPdfSignature(bytes('Merchant_Name,Transaction_id\n')));
    assert.ok(!hasPdfSignature(bytes('%PDF')));
    assert.ok(!hasPdfSignature(new Uint8Array(0)));
  });

  it('a PDF with bytes before its signature is a PDF both run (the report reader) and opened (the first bytes the editor reads)', () => {
    // Unlabelled, so only the signature can tell it: before, the reader wanted %PDF- at byte 0 and called
    // this answer unrecognised, while "Open Report File…" opened the same bytes saved to disk.
    const body = bytes(`\r\n\xEF\xBB\xBF${' '.repeat(1000)}%PDF-1.7\n1 0 obj\n<<>>\nendobj\n%%EOF\n`);
    const run = interpretReportAnswer({ status: 200, contentType: 'application/octet-stream', headers: {}, body });
    assert.ok(run.outcome === 'report' && run.format === 'pdf', JSON.stringify(run.outcome));
    assert.ok(hasPdfSignature(body.subarray(0, PDF_HEAD_BYTES)), 'opened: the head the editor reads holds the signature');
    const past = bytes(`${' '.repeat(1024)}%PDF-1.7\n%%EOF\n`);
    assert.notEqual(
      interpretReportAnswer({ status: 200, contentType: 'application/octet-stream', headers: {}, body: past }).outcome,
      'report',
    );
    assert.ok(!hasPdfSignature(past.subarray(0, PDF_HEAD_BYTES)));
  });

  it('writes sizes for people', () => {
    assert.equal(formatBytes(1), '1 byte');
    assert.equal(formatBytes(547), '547 bytes');
    assert.equal(formatBytes(2048), '2.0 KB');
    assert.equal(formatBytes(3 * 1024 * 1024 + 100_000), '3.1 MB');
  });
});

describe('PDF page shell', () => {
  it('adds only the worker’s two directives to the table page’s policy; scripts stay by nonce', () => {
    const nonce = makeNonce();
    const table = contentSecurityPolicy('https://res.test', nonce);
    const pdf = contentSecurityPolicy('https://res.test', nonce, pdfDirectives('https://res.test'));
    assert.equal(pdf, `${table}; connect-src https://res.test; worker-src blob:`);
    assert.match(pdf, /script-src 'nonce-[^']+'(;|$)/);
    assert.doesNotMatch(pdf, /unsafe-eval|unsafe-inline|\*/);
  });

  it('escapes the data attributes it gives the page', () => {
    const html = renderShell({
      cspSource: 'https://res.test',
      nonce: 'n',
      scriptUri: 's',
      styleUri: 'c',
      title: 't',
      data: { worker: 'https://res.test/pdf.worker.mjs?"><script>' },
    });
    assert.ok(html.includes('<div id="app" data-worker="https://res.test/pdf.worker.mjs?&quot;&gt;&lt;script&gt;"></div>'));
  });
});

describe('weight', () => {
  it("the extension bundles do not carry the PDF renderer; the panel's host side loads with the features, not on activation", async () => {
    const inputsOf = async (entry: string) => {
      const r = await build({
        entryPoints: [path.join(ROOT, entry)],
        bundle: true,
        write: false,
        metafile: true,
        platform: 'node',
        format: 'cjs',
        external: ['vscode'],
        mainFields: ['module', 'main'],
        logLevel: 'silent',
      });
      return Object.keys(r.metafile.inputs);
    };
    const features = await inputsOf('src/extension/features.ts');
    const entry = await inputsOf('src/extension/extension.ts');
    assert.ok(
      features.some((i) => i.includes('src/extension/results/pdfPanel.ts')),
      'the host side is not in the features bundle',
    );
    assert.ok(!entry.some((i) => i.includes('src/extension/results/pdfPanel.ts')), 'activation loads the PDF panel');
    assert.deepEqual(
      [...features, ...entry].filter((i) => i.includes('pdfjs-dist')),
      [],
    );
  });
});
