import { describe, it } from 'node:test';
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { type ScheduleJson } from '../../src/cli/commands/schedule';
import { runSchedule } from '../fixtures/cli/commands';
import { formatGatewayDate, todayLocal } from '../../src/core/dates';
import { simulatedToday, startLocalGateway } from '../../src/local-gateway';
import { captured } from '../fixtures/cli/context';
import { paygateArgs } from '../fixtures/cli/bin';

const HEADER =
  'client-orderid;rp_card_type;credit-card-number;currency;amount;amount-sequence;amount-from;amount-to;period;interval;start-date;finish-date;max-repeats-number;order_desc';
const BATCH = [
  HEADER,
  'ORD-1;SRC;4111111111111111;EUR;10.00;;;;month;1;31.01.2027;;4;',
  'ORD-2;DST;5555555555554444;EUR;;5.00,7.50;;;week;2;01.03.2027;22.03.2027;;"two',
  'lines"',
  'ORD-3;SRC;4111111111111111;EUR;;;1.00;9.99;;;15.05.2027;;;',
  'ORD-4;SRC;4111111111111111;EUR;2.00;;;;day;1;;;;',
].join('\r\n');

interface Run {
  code: number;
  out: string;
  err: string;
}

/** Runs the command in this process, in a folder holding `files`, with `stdin` on standard input. */
async function run(args: string[], files: Record<string, string> = { 'batch.rpcsv': BATCH }, stdin = '', stateDir?: string): Promise<Run> {
  const cwd = mkdtempSync(join(tmpdir(), 'paygate-schedule-'));
  try {
    for (const [name, text] of Object.entries(files)) writeFileSync(join(cwd, name), text);
    // The local gateway's state directory: none ran there unless a test says so (never this machine's own).
    const env = { PAYGATE_STATE_DIR: stateDir ?? join(cwd, 'no-local-gateway') };
    const { ctx, out, err } = captured({ cwd, env, stdin: async () => Buffer.from(stdin) });
    const code = await runSchedule(args, ctx);
    return { code, out: out(), err: err() };
  } finally {
    rmSync(cwd, { recursive: true, force: true });
  }
}

const json = (r: Run): ScheduleJson => {
  assert.equal(r.code, 0, r.err);
  return JSON.parse(r.out) as ScheduleJson;
};

describe('paygate schedule --format json', () => {
  it('gives every row its charges, identified by row, line and client-orderid', async () => {
    const result = json(await run(['batch.rpcsv', '--format', 'json', '--today', '10.10.2027', '--limit', '3']));
    assert.deepEqual(result, {
      file: 'batch.rpcsv',
      today: '10.10.2027',
      todayFrom: 'option',
      rows: [
        {
          row: 1,
          line: 2,
          clientOrderId: 'ORD-1',
          kind: 'charges',
          // max-repeats-number 4 with a limit of 3: the fourth charge exists, so the list is truncated.
          charges: [
            { index: 0, date: '31.01.2027', amount: '10.00' },
            { index: 1, date: '28.02.2027', amount: '10.00' },
            { index: 2, date: '31.03.2027', amount: '10.00' },
          ],
          truncated: true,
        },
        {
          row: 2,
          line: 3,
          clientOrderId: 'ORD-2',
          // A DST row: what it schedules is paid out to the receiver's card, never charged.
          kind: 'payouts',
          // every 2 weeks from 01.03: 15.03 is in, 29.03 is after finish-date 22.03.
          charges: [
            { index: 0, date: '01.03.2027', amount: '5.00' },
            { index: 1, date: '15.03.2027', amount: '7.50' },
          ],
          truncated: false,
        },
        {
          row: 3,
          line: 5, // row 2's quoted order_desc spans lines 3-4
          clientOrderId: 'ORD-3',
          kind: 'charges',
          charges: [{ index: 0, date: '15.05.2027', amount: { from: '1.00', to: '9.99' } }],
          truncated: false,
        },
        {
          row: 4,
          line: 6,
          clientOrderId: 'ORD-4',
          kind: 'charges',
          // no start-date: starts on --today; endless, so cut at the limit.
          charges: [
            { index: 0, date: '10.10.2027', amount: '2.00' },
            { index: 1, date: '11.10.2027', amount: '2.00' },
            { index: 2, date: '12.10.2027', amount: '2.00' },
          ],
          truncated: true,
        },
      ],
    });
  });

  it('exactly `limit` charges in all is not truncated', async () => {
    const result = json(await run(['batch.rpcsv', '--format', 'json', '--row', '1', '--limit', '4']));
    assert.equal(result.rows[0].charges.length, 4);
    assert.equal(result.rows[0].truncated, false);
  });

  it('uses 12 charges per row by default', async () => {
    const result = json(await run(['batch.rpcsv', '--format', 'json', '--row', '4']));
    assert.equal(result.rows[0].charges.length, 12);
    assert.equal(result.rows[0].truncated, true);
  });

  it('--row N gives only that data row', async () => {
    const result = json(await run(['--row', '3', '--format=json', 'batch.rpcsv']));
    assert.deepEqual(
      result.rows.map((r) => [r.row, r.clientOrderId]),
      [[3, 'ORD-3']],
    );
  });

  it('a row without a valid amount gets null amounts', async () => {
    const text = `${HEADER}\r\nX;SRC;4111111111111111;EUR;abc;;;;;;01.01.2027;;;\r\n`;
    const result = json(await run(['f.csv', '--format', 'json'], { 'f.csv': text }));
    assert.deepEqual(result.rows[0].charges, [{ index: 0, date: '01.01.2027', amount: null }]);
  });

  it('reads standard input for -', async () => {
    const result = json(await run(['-', '--format', 'json', '--row', '2'], {}, BATCH));
    assert.equal(result.file, '-');
    assert.equal(result.rows[0].clientOrderId, 'ORD-2');
  });

  it('a header-only file has no rows', async () => {
    assert.deepEqual(json(await run(['h.csv', '--format', 'json'], { 'h.csv': `${HEADER}\r\n` })).rows, []);
  });
});

describe('paygate schedule text output', () => {
  it('prints a table per row with the rule, dates and amounts', async () => {
    const r = await run(['batch.rpcsv', '--today', '10.10.2027', '--limit', '3']);
    assert.equal(r.code, 0, r.err);
    const blocks = r.out.trimEnd().split('\n\n');
    assert.equal(blocks.length, 5);
    // The DST row's are payouts, counted apart from the charges in the closing line.
    assert.equal(blocks[4], 'shown: 7 charges and 2 payouts (DST rows)');
    assert.equal(
      blocks[1],
      [
        "batch.rpcsv row 2 (line 3), client-orderid ORD-2 (DST: payouts to the receiver's card, not charges)",
        '  every 2 weeks from 01.03.2027 until 22.03.2027; amounts 5.00, 7.50 (then the last)',
        '  index  date        amount',
        '      0  01.03.2027  5.00',
        '      1  15.03.2027  7.50',
      ].join('\n'),
    );
    assert.match(blocks[0], /^ {6}2 {2}31\.03\.2027 {2}10\.00$/m);
    assert.match(blocks[0], /more charges follow \(showing the first 3; use --limit N\)/);
    assert.match(blocks[2], /one charge on 15\.05\.2027; a random amount 1\.00–9\.99/);
    assert.match(blocks[2], /0 {2}15\.05\.2027 {2}random 1\.00–9\.99/);
    assert.match(blocks[3], /every day from today; amount 2\.00/);
  });

  it('says so when a row has no charges', async () => {
    const text = `${HEADER}\r\nX;SRC;4111111111111111;EUR;1;;;;day;1;10.01.2027;01.01.2027;;\r\n`;
    const r = await run(['f.csv'], { 'f.csv': text });
    assert.equal(r.code, 0);
    assert.match(r.out, /^ {2}no charges$/m);
  });

  it('warns that a row with CSV errors may be misread', async () => {
    const text = `${HEADER}\r\nX;SRC;4111111111111111;EUR;1;;;;day;1;10.01.2027\r\n`;
    const r = await run(['f.csv'], { 'f.csv': text });
    assert.equal(r.code, 0);
    assert.match(r.out, /note: this row has CSV errors/);
    const good = await run(['batch.rpcsv']);
    assert.doesNotMatch(good.out, /note:/);
  });

  it('counts lines the same with LF and lone CR record ends', async () => {
    for (const eol of ['\n', '\r']) {
      const text = BATCH.split('\r\n').join(eol);
      const result = json(await run(['f.csv', '--format', 'json'], { 'f.csv': text }));
      assert.deepEqual(
        result.rows.map((r) => r.line),
        [2, 3, 5, 6],
      );
    }
  });

  it('never prints card numbers', async () => {
    for (const format of ['text', 'json']) {
      const r = await run(['batch.rpcsv', '--format', format]);
      assert.equal(r.code, 0);
      assert.doesNotMatch(r.out, /411111|555555|1111\b|4444\b/);
    }
  });

  it('--help prints usage and exits 0', async () => {
    const r = await run(['--help']);
    assert.equal(r.code, 0);
    assert.match(r.out, /^Usage: paygate schedule FILE/);
  });
});

describe('paygate schedule usage errors exit 2', () => {
  const cases: [string, string[], RegExp][] = [
    ['no FILE', [], /no FILE/],
    ['two files', ['a', 'b'], /exactly one FILE/],
    ['unknown option', ['batch.rpcsv', '--colour'], /colour/],
    ['bad format', ['batch.rpcsv', '--format', 'xml'], /--format must be text or json/],
    ['zero limit', ['batch.rpcsv', '--limit', '0'], /--limit/],
    ['non-number limit', ['batch.rpcsv', '--limit', 'ten'], /--limit/],
    ['bad today', ['batch.rpcsv', '--today', '2027-01-01'], /--today/],
    ['row 0', ['batch.rpcsv', '--row', '0'], /--row/],
    ['row not a number', ['batch.rpcsv', '--row', 'first'], /--row/],
    ['row out of range', ['batch.rpcsv', '--row', '5'], /--row 5 is out of range: batch\.rpcsv has 4 data rows \(1-4\)/],
    ['unreadable file', ['missing.rpcsv'], /missing\.rpcsv: cannot read: no such file/],
  ];
  for (const [name, args, message] of cases) {
    it(name, async () => {
      const r = await run(args);
      assert.equal(r.code, 2);
      assert.equal(r.out, '');
      assert.match(r.err, message);
    });
  }
});

describe('paygate schedule through the CLI entry point', () => {
  const root = resolve(__dirname, '../..');
  const cli = (args: string[]) => spawnSync(process.execPath, [...paygateArgs(), 'schedule', ...args], { cwd: root, encoding: 'utf8' });

  it('prints JSON and exits 0 for a real file; exits 2 naming a missing one', () => {
    const dir = mkdtempSync(join(tmpdir(), 'paygate-schedule-'));
    try {
      const file = join(dir, 'batch.rpcsv');
      writeFileSync(file, BATCH);
      const ok = cli([file, '--format', 'json', '--row', '1']);
      assert.equal(ok.status, 0, ok.stderr);
      const result = JSON.parse(ok.stdout) as ScheduleJson;
      assert.deepEqual(
        result.rows[0].charges.map((c) => c.date),
        ['31.01.2027', '28.02.2027', '31.03.2027', '30.04.2027'],
      );
      const missing = cli([join(dir, 'nope.rpcsv')]);
      assert.equal(missing.status, 2);
      assert.match(missing.stderr, /nope\.rpcsv/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('paygate schedule: rows whose schedule cannot be computed', () => {
  const files = {
    'batch.rpcsv': [
      'client-orderid;rp_card_type;credit-card-number;currency;amount;period;interval;start-date',
      'BAD-DATE;SRC;4111111111111111;EUR;10.00;month;1;2027-01-15',
      'NO-AMOUNT;SRC;4111111111111111;EUR;;month;1;15.01.2027',
    ].join('\n'),
  };
  it('says which value is malformed instead of guessing "today"', async () => {
    const r = await run(['batch.rpcsv', '--today', '01.01.2027'], files);
    assert.equal(r.code, 0);
    assert.match(
      r.out,
      /client-orderid BAD-DATE\n {2}the schedule cannot be computed\n {2}problem: start-date "2027-01-15" is not a real date written DD\.MM\.YYYY\n {2}no charges/,
    );
    assert.doesNotMatch(r.out, /01\.01\.2027/, 'no charge is invented on --today');
  });
  it('in JSON: no charges and the reasons, and amount problems beside real dates', async () => {
    const out = json(await run(['batch.rpcsv', '--format', 'json', '--limit', '1'], files));
    assert.deepEqual(out.rows[0].charges, []);
    assert.deepEqual(out.rows[0].problems, ['start-date "2027-01-15" is not a real date written DD.MM.YYYY']);
    assert.deepEqual(out.rows[1].charges, [{ index: 0, date: '15.01.2027', amount: null }]);
    assert.deepEqual(out.rows[1].problems, ['no amount: set amount, amount-from with amount-to, or amount-sequence']);
  });
});

// Issue 19, item 7: with the local gateway as the target, "today" is its simulated day, and it says so.
describe('paygate schedule: today on the local gateway', () => {
  it("uses the local gateway's simulated date for a row without start-date, and names it", async () => {
    const stateDir = mkdtempSync(join(tmpdir(), 'paygate-schedule-gw-'));
    try {
      const gw = await startLocalGateway({ stateDir, port: 0, initialDate: { year: 2027, month: 6, day: 1 } });
      try {
        await gw.advanceDays(3);
        assert.equal(formatGatewayDate(simulatedToday(stateDir)!), '04.06.2027', 'read while it runs');
      } finally {
        await gw.close();
      }
      assert.equal(formatGatewayDate(simulatedToday(stateDir)!), '04.06.2027', 'read after it stopped');
      const r = json(await run(['batch.rpcsv', '--format', 'json', '--row', '4', '--limit', '1'], undefined, '', stateDir));
      assert.deepEqual([r.today, r.todayFrom, r.rows[0].charges[0].date], ['04.06.2027', 'local-gateway', '04.06.2027']);
      const text = await run(['batch.rpcsv', '--row', '4', '--limit', '1'], undefined, '', stateDir);
      assert.match(text.out, /no start-date: .*today is 04\.06\.2027 \(the local gateway's simulated date/);
    } finally {
      rmSync(stateDir, { recursive: true, force: true });
    }
  });

  it("uses this machine's date when no local gateway ever ran, and says so", async () => {
    const r = json(await run(['batch.rpcsv', '--format', 'json', '--row', '4', '--limit', '1']));
    assert.deepEqual([r.today, r.todayFrom], [formatGatewayDate(todayLocal()), 'clock']);
    assert.equal(simulatedToday(join(tmpdir(), 'paygate-no-such-state-dir')), undefined);
  });
});
