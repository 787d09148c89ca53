import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runPaygate } from '../../src/cli/program';
import type { CliContext } from '../../src/cli/context';
import { floorText, said, typed } from '../../src/core/output';
import { TRUST_FILE } from '../../src/cli/trust';
import { testContext } from '../fixtures/cli/context';
import { plainBatch, plainRow } from '../fixtures/hostile/plainBatch';

// Mask values, not layouts (issue 38), on the standard output of `paygate trust`, `paygate gateway --advance`
// and `paygate fix`: each value is checked alone by its type, so two values meeting on the line are never read
// as one card number, while a card number in a free-text value (a path, a file name) is still masked. Run with
// the floor (runPaygate), as a user sees it.

let dir: string;
const at = (name: string) => join(dir, name);
const env = () => ({ PAYGATE_DATA_DIR: at('data'), XDG_CONFIG_HOME: at('config'), HOME: dir });

async function stdout(args: string[]): Promise<string> {
  let out = '';
  const ctx = testContext({ cwd: dir, env: env(), stdout: (t) => void (out += t) });
  await runPaygate(args, ctx);
  return out;
}

before(() => {
  dir = mkdtempSync(join(tmpdir(), 'paygate-said-stdout-'));
});

after(() => rmSync(dir, { recursive: true, force: true }));

test('paygate trust --list: a hash whose first 16 characters are a Luhn-valid digit run is shown whole; a card in a path is masked', async () => {
  // A SHA-256 is any 64 hex digits: one in 2^16 starts with 16 decimal digits, and a tenth of those pass Luhn.
  // Before, the prefix was cut from the hash and scanned as text (and the floor read the line whole): `411111******1111…`.
  const sha256 = `4111111111111111${'ab'.repeat(24)}`;
  const files = [
    { path: at('project.json'), sha256, trustedAt: '2026-11-29T01:42:12.123Z' },
    { path: at('4111 1111 1111 1111.json'), sha256: 'c'.repeat(64), trustedAt: '2026-11-29T01:42:13.000Z' },
  ];
  mkdirSync(at('config/paygate'), { recursive: true });
  writeFileSync(at(`config/paygate/${TRUST_FILE}`), JSON.stringify({ version: 1, files }));
  const out = await stdout(['trust', '--list']);
  assert.ok(out.includes(`${at('project.json')}  sha256 4111111111111111…  trusted 2026-11-29T01:42:12.123Z\n`), out);
  assert.ok(out.includes(`${at('4111 11** **** 1111.json')}  sha256 cccccccccccccccc…`), out);
  assert.doesNotMatch(out, /4111 1111 1111 1111/);
});

test('paygate gateway --advance: the days beside a state directory named by digit groups stay whole; a card in it is masked', async () => {
  // `2026 1129 0134` (the directory's name) and `17` (the days) meet on the line as 14 digits that pass Luhn:
  // read whole, as the floor still reads a line it is given as a string, they are masked.
  const composed = `Advanced the local gateway of ${at('state 2026 1129 0134')} 17 day(s)`;
  assert.notEqual(floorText(composed), composed, 'the pair is one a whole-line scan damages');
  const out = await stdout(['gateway', '--state', 'state 2026 1129 0134', '--advance', '17']);
  assert.ok(out.startsWith(`Advanced the local gateway of ${at('state 2026 1129 0134')} 17 day(s): `), out);
  assert.match(
    out,
    /: \d{2}\.\d{2}\.\d{4} → \d{2}\.\d{2}\.\d{4}; 0 charge\(s\) made \(0 approved, 0 declined\), 0 payment\(s\) stopped\n$/,
  );
  const card = await stdout(['gateway', '--state', '4111111111111111', '--advance', '1']);
  assert.ok(card.startsWith(`Advanced the local gateway of ${at('411111******1111')} 1 day(s): `), card);
});

test('paygate fix: a card in the file name is masked, the counts and positions beside it stay', async () => {
  const name = '4111111111111111.rpcsv';
  writeFileSync(at(name), plainBatch([plainRow('F-1', '01.01.2030', '1.00')]).replaceAll(';', ','));
  const out = await stdout(['fix', name, '--dry-run']);
  assert.match(out, /^411111\*{6}1111\.rpcsv:1:1: \S+: .+\n/, out);
  assert.match(out, /\n411111\*{6}1111\.rpcsv: would apply \d+ fix(es)?; 0 errors remain\n$/, out);
  assert.doesNotMatch(out, /4111111111111111/);
});

test('a question on the terminal is a Said: a plain string does not compile', () => {
  const ctx: CliContext = testContext();
  // @ts-expect-error -- confirm takes a Said (each value checked alone where readline writes it), not a composed string
  void ctx.confirm('Submit 4111111111111111.rpcsv?');
  void ctx.confirm(said`Submit ${typed.text('4111111111111111.rpcsv')}?`);
});
