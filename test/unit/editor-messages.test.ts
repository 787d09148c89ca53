// Issue 30: an editor user was told to "set it with --column order=NAME", a flag of the CLI they are not
// using. No string the extension shows may name a command-line flag, and the core's messages that the
// editor shows (a report without the reconciliation's columns) name none unless the face asks for its hint.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { planColumns } from '../../src/core/reconcile/columns';

const root = path.join(__dirname, '..', '..');

function files(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return files(p);
    return p.endsWith('.ts') ? [p] : [];
  });
}

/** String and template literals of a source file, comments removed first (they may name flags freely). */
function literals(source: string): string[] {
  const code = source.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`])\/\/.*$/gm, '$1');
  return [...code.matchAll(/'(?:[^'\\\n]|\\.)*'|"(?:[^"\\\n]|\\.)*"|`(?:[^`\\]|\\.)*`/g)].map((m) => m[0]);
}

test('no string the extension shows names a command-line flag (--something)', () => {
  // The language server's debug options are arguments to node, never shown.
  const allowed = new Set(["'--nolazy'", "'--inspect=6019'"]);
  const found = files(path.join(root, 'src', 'extension')).flatMap((f) =>
    literals(fs.readFileSync(f, 'utf8'))
      .filter((l) => /(^|[\s(`'"])--[a-z]/.test(l) && !allowed.has(l))
      .map((l) => `${path.relative(root, f)}: ${l.slice(0, 100)}`),
  );
  assert.deepEqual(found, []);
});

test("a report without the reconciliation's columns: the message names a flag only when the face gives its hint", () => {
  const plain = planColumns(['property', 'value']);
  assert.ok('error' in plain);
  assert.doesNotMatch(plain.error, /--/);
  assert.match(plain.error, /no order column "Merchant_OID", no amount column "Amount"; its columns are: property, value/);
  const cli = planColumns(['property', 'value'], {}, (role) => `set it with --column ${role}=NAME`);
  assert.ok('error' in cli);
  assert.match(cli.error, /order column "Merchant_OID" \(set it with --column order=NAME\)/);
});
