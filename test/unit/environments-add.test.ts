// "Add environment…" writes into the user's settings JSON: whatever that file holds, the result must still
// be valid settings with every earlier value kept and one more entry of paygate.environments at the end.
import { describe, it } from 'node:test';
import * as assert from 'node:assert/strict';
import { parse, type ParseError } from 'jsonc-parser';
import { ENVIRONMENT_SNIPPET, environmentInsertion } from '../../src/extension/environments/settingsInsert';

/** The snippet as the editor leaves it when the user tabs through without typing. */
const expanded = (indent: string) =>
  ENVIRONMENT_SNIPPET.replace(/^/gm, indent)
    .replace(/\$\{\d+:([^}]*)\}/g, '$1')
    .replace(/\$\{\d+\|([^,|]*)[^}]*\}/g, '$1');

function apply(text: string): unknown {
  const at = environmentInsertion(text);
  assert.ok(at, `no insertion for ${JSON.stringify(text)}`);
  const out = text.slice(0, at.offset) + at.before + expanded(at.indent) + at.after + text.slice(at.offset);
  const errors: ParseError[] = [];
  const value = parse(out, errors, { allowTrailingComma: true });
  assert.deepEqual(errors, [], out);
  return value;
}

const added = {
  name: 'staging',
  baseUrl: 'https://gateway.example.com/paygate',
  reportBaseUrl: 'https://reports.example.com/paygate',
  endpointId: 'endpoint id from your support manager',
  consumerKey: 'merchant login',
  production: false,
};

describe('adding an environment to settings JSON', () => {
  it('creates the setting in an empty file, in one with other settings and in one with comments', () => {
    assert.deepEqual(apply(''), { 'paygate.environments': [added] });
    assert.deepEqual(apply('{}'), { 'paygate.environments': [added] });
    assert.deepEqual(apply('{\n\t"editor.fontSize": 14\n}'), { 'editor.fontSize': 14, 'paygate.environments': [added] });
    assert.deepEqual(apply('// mine\n{\n\t"a": [1, 2], // trailing\n\t"b": {"c": true},\n}'), {
      a: [1, 2],
      b: { c: true },
      'paygate.environments': [added],
    });
  });

  it('appends to an existing list, empty or not', () => {
    const first = { name: 'test', baseUrl: 'https://t', reportBaseUrl: 'https://r', endpointId: '1', consumerKey: 'k' };
    assert.deepEqual(apply('{"paygate.environments": []}'), { 'paygate.environments': [added] });
    assert.deepEqual(apply(`{"x": 1, "paygate.environments": [${JSON.stringify(first)}], "y": 2}`), {
      x: 1,
      'paygate.environments': [first, added],
      y: 2,
    });
  });

  it('leaves a file alone when the setting is not a list or the file is not an object', () => {
    assert.equal(environmentInsertion('{"paygate.environments": "oops"}'), undefined);
    assert.equal(environmentInsertion('[1, 2]'), undefined);
  });
});
