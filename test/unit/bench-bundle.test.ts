import { test } from 'node:test';
import assert from 'node:assert/strict';
import { owner, splitBundle } from '../bench/bundle';

// The weight budget counts ours + libraries apart from the language client; the split is read from
// esbuild's metafile, so a made-up metafile shows which side each input lands on.
const meta = {
  outputs: {
    'dist/extension.js': {
      bytes: 1000,
      inputs: {
        'src/core/csv/parse.ts': { bytesInOutput: 300 },
        'node_modules/zod/v4/core/schemas.js': { bytesInOutput: 200 },
        'node_modules/vscode-languageclient/lib/node/main.js': { bytesInOutput: 250 },
        'node_modules/vscode-jsonrpc/lib/common/connection.js': { bytesInOutput: 100 },
        'node_modules/vscode-languageclient/node_modules/vscode-languageserver-protocol/lib/common/api.js': { bytesInOutput: 90 },
        'node_modules/vscode-languageserver-types/lib/umd/main.js': { bytesInOutput: 40 },
      },
    },
  },
};

test('inputs of the language client and its protocol packages count apart; the rest, glue included, is ours + libraries', () => {
  const split = splitBundle(meta, 'dist/extension.js');
  assert.equal(split.languageClient, 250 + 100 + 90 + 40);
  assert.equal(split.ours, 300 + 200 + 20);
  assert.equal(split.ours + split.languageClient, split.bytes);
  assert.equal(
    owner('node_modules/vscode-languageclient/node_modules/vscode-languageserver-protocol/lib/common/api.js'),
    'vscode-languageserver-protocol',
  );
});

test('a bundle without the language client is all ours + libraries', () => {
  const only = { outputs: { 'dist/x.js': { bytes: 10, inputs: { 'src/cli/main.ts': { bytesInOutput: 10 } } } } };
  const split = splitBundle(only, 'dist/x.js');
  assert.deepEqual([split.ours, split.languageClient], [10, 0]);
});
