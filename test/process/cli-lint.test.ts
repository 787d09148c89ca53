// `paygate lint` and `paygate fix` as a user runs them: a child process on the TypeScript entry point.
// Outputs are checked against issue 2 item 7 (text lines, exact JSON shape, 1-based positions, exit codes).
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { paygateArgs } from '../fixtures/cli/bin';

const ROOT = path.resolve(__dirname, '../..');

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

function paygate(args: string[], stdin?: string | Buffer): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...paygateArgs(), ...args], { cwd: ROOT, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(stdin ?? '');
  });
}

const MIN = 'client-orderid;rp_card_type;credit-card-number;amount;currency';
const CLEAN = `${MIN}\r\no1;DST;5555555555554444;1;EUR\r\n`;
// Row 2: amount 0 (error) at 0-based 24..25; row 3: Luhn failure (warning) at 7..23.
const ERRORS = `${MIN}\no1;DST;5555555555554444;0;EUR\no2;DST;5555555555554445;1;EUR\n`;
const WARNINGS = `${MIN}\no1;DST;5555555555554445;1;EUR\n`;
const BOM_ALIAS = `\ufeffClient_OrderId;rp_card_type;credit-card-number;amount;currency\no1;DST;5555555555554444;1;EUR\n`;

let dir = '';
const at = (name: string) => path.join(dir, name);
const TEXT_LINE = /^(.*):(\d+):(\d+): (error|warning|information) ([a-z-]+) (.+)$/;

before(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'paygate-cli-lint-'));
  await writeFile(at('clean.rpcsv'), CLEAN);
  await writeFile(at('errors.rpcsv'), ERRORS);
  await writeFile(at('warnings.rpcsv'), WARNINGS);
  await writeFile(at('bom.rpcsv'), BOM_ALIAS);
});
after(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('paygate lint --format json', () => {
  it('has exactly the documented shape, 1-based positions and columnName; exit 1 on errors', async () => {
    const r = await paygate(['lint', '--format', 'json', at('errors.rpcsv')]);
    assert.equal(r.code, 1, r.stderr);
    const out = JSON.parse(r.stdout);
    assert.deepEqual(Object.keys(out), ['files', 'summary']);
    assert.deepEqual(out.summary, { errors: 1, warnings: 1 });
    assert.equal(out.files.length, 1);
    assert.deepEqual(Object.keys(out.files[0]), ['file', 'diagnostics']);
    assert.equal(out.files[0].file, at('errors.rpcsv'));
    for (const d of out.files[0].diagnostics) {
      assert.deepEqual(Object.keys(d), ['code', 'severity', 'message', 'line', 'column', 'endLine', 'endColumn', 'columnName']);
      assert.equal(typeof d.message, 'string');
      assert.ok(d.message.length > 0);
    }
    const strip = ({ message: _m, ...rest }: Record<string, unknown>) => rest;
    assert.deepEqual(out.files[0].diagnostics.map(strip), [
      { code: 'invalid-value', severity: 'error', line: 2, column: 25, endLine: 2, endColumn: 26, columnName: 'amount' },
      { code: 'card-luhn', severity: 'warning', line: 3, column: 8, endLine: 3, endColumn: 24, columnName: 'credit-card-number' },
    ]);
  });
  it('a clean file: no diagnostics, exit 0; warnings alone still exit 0', async () => {
    const clean = await paygate(['lint', '--format', 'json', at('clean.rpcsv')]);
    assert.equal(clean.code, 0);
    assert.deepEqual(JSON.parse(clean.stdout), {
      files: [{ file: at('clean.rpcsv'), diagnostics: [] }],
      summary: { errors: 0, warnings: 0 },
    });
    const warn = await paygate(['lint', '--format', 'json', at('warnings.rpcsv')]);
    assert.equal(warn.code, 0);
    assert.deepEqual(JSON.parse(warn.stdout).summary, { errors: 0, warnings: 1 });
  });
  it('a BOM is not counted in first-line columns; information is not an error or warning', async () => {
    const r = await paygate(['lint', '--format', 'json', at('bom.rpcsv')]);
    assert.equal(r.code, 1);
    const out = JSON.parse(r.stdout);
    const pos = (d: Record<string, unknown>) => [d.code, d.severity, d.line, d.column, d.endLine, d.endColumn, d.columnName];
    assert.deepEqual(out.files[0].diagnostics.map(pos), [
      ['bom', 'information', 1, 1, 1, 1, null],
      ['column-alias', 'error', 1, 1, 1, 15, 'client-orderid'],
    ]);
    assert.deepEqual(out.summary, { errors: 1, warnings: 0 });
  });
  it('several files, one per entry, summary over all', async () => {
    const r = await paygate(['lint', '--format', 'json', at('clean.rpcsv'), at('errors.rpcsv'), at('warnings.rpcsv')]);
    assert.equal(r.code, 1);
    const out = JSON.parse(r.stdout);
    assert.deepEqual(
      out.files.map((f: { file: string }) => f.file),
      [at('clean.rpcsv'), at('errors.rpcsv'), at('warnings.rpcsv')],
    );
    assert.deepEqual(out.summary, { errors: 1, warnings: 2 });
  });
});

describe('paygate lint (text)', () => {
  it('one `file:line:column: severity code message` line per diagnostic', async () => {
    const r = await paygate(['lint', at('errors.rpcsv')]);
    assert.equal(r.code, 1);
    const matched = r.stdout
      .split('\n')
      .map((l) => TEXT_LINE.exec(l))
      .filter((m) => m !== null);
    assert.deepEqual(
      matched.map((m) => m!.slice(1, 6)),
      [
        [at('errors.rpcsv'), '2', '25', 'error', 'invalid-value'],
        [at('errors.rpcsv'), '3', '8', 'warning', 'card-luhn'],
      ],
    );
  });
  it('stdin with `-`, also mixed with files', async () => {
    const r = await paygate(['lint', '-'], ERRORS);
    assert.equal(r.code, 1);
    const files = r.stdout
      .split('\n')
      .map((l) => TEXT_LINE.exec(l))
      .filter((m) => m !== null)
      .map((m) => m![1]);
    assert.equal(files.length, 2);
    assert.ok(files.every((f) => f === files[0] && f.length > 0));
    const j = await paygate(['lint', '--format', 'json', at('clean.rpcsv'), '-'], CLEAN);
    assert.equal(j.code, 0);
    assert.equal(JSON.parse(j.stdout).files.length, 2);
  });
});

describe('paygate lint: usage and unreadable input (exit 2)', () => {
  it('a missing file is named in the message; the other files are still linted', async () => {
    const missing = at('nope.rpcsv');
    const r = await paygate(['lint', '--format', 'json', missing, at('errors.rpcsv')]);
    assert.equal(r.code, 2);
    assert.ok(r.stderr.includes(missing), r.stderr);
    assert.deepEqual(
      JSON.parse(r.stdout).files.map((f: { file: string }) => f.file),
      [at('errors.rpcsv')],
    );
  });
  it('a directory is unreadable too', async () => {
    const r = await paygate(['lint', dir]);
    assert.equal(r.code, 2);
    assert.ok(r.stderr.includes(dir));
  });
  it('invalid UTF-8 names the file, line and column of the bad byte', async () => {
    await writeFile(
      at('latin1.rpcsv'),
      Buffer.concat([Buffer.from(`${MIN}\no1;DST;5555555555554444;1;EUR\nM`), Buffer.from([0xfc]), Buffer.from('ller;DST\n')]),
    );
    const r = await paygate(['lint', at('latin1.rpcsv')]);
    assert.equal(r.code, 2);
    assert.ok(r.stderr.includes(`${at('latin1.rpcsv')}:3:2:`), r.stderr);
    // A lead byte followed by a non-continuation byte: the lead byte is the bad one.
    await writeFile(at('cut.rpcsv'), Buffer.concat([Buffer.from('ab;'), Buffer.from([0xe9]), Buffer.from('x\n')]));
    const cut = await paygate(['lint', at('cut.rpcsv')]);
    assert.equal(cut.code, 2);
    assert.ok(cut.stderr.includes(`${at('cut.rpcsv')}:1:4:`), cut.stderr);
  });
  it('invalid UTF-8: a stray continuation byte after ASCII, an encoded surrogate, a cut sequence at the end', async () => {
    const cases: [string, number[], string][] = [
      ['stray', [0x61, 0x62, 0x3b, 0x63, 0x80, 0x64, 0x0a], ':1:5:'],
      ['surrogate', [0x0a, 0x61, 0xed, 0xa0, 0x80, 0x0a], ':2:2:'],
      ['cut-end', [0x61, 0x0a, 0x62, 0xc3], ':2:2:'],
    ];
    for (const [name, bytes, where] of cases) {
      await writeFile(at(`${name}.rpcsv`), Buffer.from(bytes));
      const r = await paygate(['lint', at(`${name}.rpcsv`)]);
      assert.equal(r.code, 2, name);
      assert.ok(r.stderr.includes(`${at(`${name}.rpcsv`)}${where}`), `${name}: ${r.stderr}`);
    }
  });
  it('no FILE, an unknown option or format: exit 2 with the usage', async () => {
    for (const args of [['lint'], ['lint', '--format', 'xml', at('clean.rpcsv')], ['lint', '--bogus', at('clean.rpcsv')]]) {
      const r = await paygate(args);
      assert.equal(r.code, 2, args.join(' '));
      assert.ok(r.stderr.length > 0);
      assert.equal(r.stdout, '');
    }
  });
  it('--help prints the usage and exits 0', async () => {
    const r = await paygate(['lint', '--help']);
    assert.equal(r.code, 0);
    assert.match(r.stdout, /paygate lint/);
    assert.match(r.stdout, /--format/);
  });
});

describe('paygate fix', () => {
  const FIXABLE = `client-orderid;rp_card_type;credit-card-number;amount;currency;Notify-URL\r\no1;dst;5555555555554444;1;EUR;\r\n`;
  const FIXED = `client-orderid;rp_card_type;credit-card-number;amount;currency;notify_url\r\no1;DST;5555555555554444;1;EUR;\r\n`;
  it('applies the safe fixes in place, prints each, exits 0 when no errors remain', async () => {
    await writeFile(at('fix.rpcsv'), FIXABLE);
    const r = await paygate(['fix', at('fix.rpcsv')]);
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.equal(await readFile(at('fix.rpcsv'), 'utf8'), FIXED);
    assert.ok(r.stdout.includes(`${at('fix.rpcsv')}:1:64: column-alias`), r.stdout);
    assert.ok(r.stdout.includes(`${at('fix.rpcsv')}:2:4: invalid-value`), r.stdout);
  });
  it('--dry-run prints the same changes and leaves the file as it was', async () => {
    await writeFile(at('dry.rpcsv'), FIXABLE);
    const r = await paygate(['fix', at('dry.rpcsv'), '--dry-run']);
    assert.equal(r.code, 0);
    assert.equal(await readFile(at('dry.rpcsv'), 'utf8'), FIXABLE);
    assert.ok(r.stdout.includes('column-alias') && r.stdout.includes('invalid-value'), r.stdout);
  });
  it('a comma file with a BOM: rewritten with ";", then its alias renamed and the BOM dropped', async () => {
    await writeFile(
      at('comma.rpcsv'),
      '\ufeffClient_OrderId,rp_card_type,credit-card-number,amount,currency,order_desc\no1,DST,5555555555554444,1,EUR,"a;b"\n',
    );
    const r = await paygate(['fix', at('comma.rpcsv')]);
    assert.equal(r.code, 0, r.stdout);
    assert.equal(
      await readFile(at('comma.rpcsv'), 'utf8'),
      'client-orderid;rp_card_type;credit-card-number;amount;currency;order_desc\no1;DST;5555555555554444;1;EUR;"a;b"\n',
    );
  });
  it('exit 1 when errors remain; unsafe fixes are not applied', async () => {
    const text = `client-orderid;rp_card_type;credit-card-number;amount;city\no1;DST;5555555555554444;1;Berlin\n`;
    await writeFile(at('left.rpcsv'), text);
    const r = await paygate(['fix', at('left.rpcsv')]);
    assert.equal(r.code, 1);
    assert.equal(await readFile(at('left.rpcsv'), 'utf8'), text);
  });
  it('exit 2: missing file (named), no file, stdin', async () => {
    const missing = await paygate(['fix', at('nope.rpcsv')]);
    assert.equal(missing.code, 2);
    assert.ok(missing.stderr.includes(at('nope.rpcsv')));
    assert.equal((await paygate(['fix'])).code, 2);
    assert.equal((await paygate(['fix', '-'], CLEAN)).code, 2);
  });
  it('--help exits 0', async () => {
    const r = await paygate(['fix', '--help']);
    assert.equal(r.code, 0);
    assert.match(r.stdout, /--dry-run/);
  });
});

describe('paygate --help and --version', () => {
  it('--help lists lint and fix; --version prints the package version', async () => {
    const help = await paygate(['--help']);
    assert.equal(help.code, 0);
    assert.match(help.stdout, /^\s+lint\s/m);
    assert.match(help.stdout, /^\s+fix\s/m);
    const v = await paygate(['--version']);
    assert.equal(v.code, 0);
    const pkg = JSON.parse(await readFile(path.join(ROOT, 'package.json'), 'utf8')) as { version: string };
    assert.equal(v.stdout.trim(), pkg.version);
  });
});
